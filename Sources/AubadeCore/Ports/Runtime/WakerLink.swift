public import Foundation

/// Port: the daemon's side of the second waker (R35) — the separate process that rings the tone when the daemon
/// cannot. The clock tells it what will ring (`publish`) and what it did with each ring (`note`), and reads what
/// the waker did (`report`). Implementation: `WakerFiles` (AubadeWakerFiles: the files beside the database, in
/// the format both processes link from AubadeHandoff). Contract: called on the clock's thread only, once the
/// object is made there (`ClockOptions.waker` makes it); nothing blocks on the waker — every call is a small
/// file write or read; a file that cannot be written is told by `problem`, never thrown.
public protocol WakerLink: AnyObject {
    /// Tells the waker the rings the daemon will make, soonest first; an unchanged plan is not written again.
    func publish(_ plan: [WakerPlan.Entry], now: Date)
    /// Tells the waker what the daemon did with rings (heard, snoozed, stopped, skipped); one write for them all.
    func note(_ notes: [WakerPlan.Note])
    /// What the waker says now (nil: it wrote nothing readable).
    func report() -> WakerReport?
    /// What the waker says, when its file changed since the last look (nil: unchanged, or nothing readable).
    func reportIfChanged() -> WakerReport?
    /// Forgets the last look, so that the next `reportIfChanged` reads again.
    func forgetLastLook()
    /// Why the last write failed, if it did (a standing warning: the waker may ring beside a healthy daemon).
    var problem: String? { get }
}

/// What the daemon tells the second waker, in the core's words.
public enum WakerPlan {
    /// The next occurrences of each enabled alarm the plan carries, and the most entries in all (the file
    /// format's bounds: a test holds them to AubadeHandoff's `NextAlarmFile`).
    public static let occurrencesPerAlarm = 8
    public static let maxEntries = 64

    /// One ring the daemon will make: an alarm's occurrence, its round (0, then one more per snooze), when it is
    /// due, and how the waker must ring it if the daemon does not.
    public struct Entry: Hashable, Sendable {
        public var alarm: Int64
        public var occurrence: Date
        public var round: Int
        public var due: Date
        public var volume: Int
        public var durationSeconds: Int
        public var snoozeSeconds: Int
        public var maxSnoozes: Int
        public var tone: ToneName
        public var name: String
        /// How the waker's ring of it climbs, rests and rings again while unanswered (`off`: it lasts
        /// `durationSeconds`); its rounds are those the occurrence has left.
        public var ladder: LadderPlan

        public init(
            alarm: Int64, occurrence: Date, round: Int, due: Date, volume: Int, durationSeconds: Int, snoozeSeconds: Int,
            maxSnoozes: Int, tone: ToneName, name: String, ladder: LadderPlan = .off
        ) {
            self.ladder = ladder
            self.alarm = alarm
            self.occurrence = occurrence
            self.round = round
            self.due = due
            self.volume = volume
            self.durationSeconds = durationSeconds
            self.snoozeSeconds = snoozeSeconds
            self.maxSnoozes = maxSnoozes
            self.tone = tone
            self.name = name
        }
    }

    /// What the daemon did with a ring of an occurrence.
    public struct Note: Hashable, Sendable {
        public enum State: Sendable, Hashable {
            /// The ring was heard (verified sound on the card, R16).
            case audible
            case snoozed
            /// Dismissed, silenced by its duration, or cancelled by an edit.
            case stopped
            case skipped
        }

        public var alarm: Int64
        public var occurrence: Date
        public var round: Int
        public var state: State
        public var at: Date

        public init(alarm: Int64, occurrence: Date, round: Int, state: State, at: Date) {
            self.alarm = alarm
            self.occurrence = occurrence
            self.round = round
            self.state = state
            self.at = at
        }
    }
}

/// What the second waker says about itself: whether it runs, what it is armed for, what rings, and the rings it
/// made (which the daemon puts in the history and, when a person ended one there, ends too).
public struct WakerReport: Sendable, Hashable {
    /// One ring the waker made.
    public struct Ring: Sendable, Hashable {
        /// How it ended.
        public enum End: String, Sendable, Hashable {
            case stop, snooze, duration
            /// Its ladder's last round rang unanswered.
            case unanswered
            /// The daemon answered again and took the ring over.
            case daemon
            /// The waker was stopped (the machine shut down).
            case shutdown

            /// A person ended it (a stop or a snooze).
            public var byPerson: Bool { self == .stop || self == .snooze }
        }

        /// What a person ended it with.
        public enum Input: String, Sendable, Hashable {
            case none = "-"
            case button, cli
        }

        public var alarm: Int64
        public var occurrence: Date
        public var round: Int
        public var started: Date
        public var ended: Date
        public var end: End
        public var by: Input
        /// The daemon's pid when the waker stopped an unresponsive one first (0: it did not).
        public var killedDaemon: Int32
        /// The sound device it rang on ("" when unknown).
        public var device: String
        /// The ring's identity across restarts: "<alarm>/<started, ms since 1970>".
        public var key: String

        public init(
            alarm: Int64, occurrence: Date, round: Int, started: Date, ended: Date, end: End, by: Input,
            killedDaemon: Int32, device: String, key: String
        ) {
            self.alarm = alarm
            self.occurrence = occurrence
            self.round = round
            self.started = started
            self.ended = ended
            self.end = end
            self.by = by
            self.killedDaemon = killedDaemon
            self.device = device
            self.key = key
        }
    }

    /// A ring the waker snoozed: the alarm, its occurrence, the next round and when that round rings.
    public struct Snooze: Sendable, Hashable {
        public var alarm: Int64
        public var occurrence: Date
        public var round: Int
        public var ringsAt: Date

        public init(alarm: Int64, occurrence: Date, round: Int, ringsAt: Date) {
            self.alarm = alarm
            self.occurrence = occurrence
            self.round = round
            self.ringsAt = ringsAt
        }
    }

    /// The ring the waker is armed for: its alarm, the alarm's name, and when it rings unless the daemon has
    /// made that alarm heard by then (the alarm's time plus the grace).
    public struct Armed: Sendable, Hashable {
        public var alarm: Int64
        public var name: String
        public var at: Date

        public init(alarm: Int64, name: String, at: Date) {
            self.alarm = alarm
            self.name = name
            self.at = at
        }
    }

    /// Whether the waker's process is alive.
    public var running: Bool
    /// The ring it is armed for, if any.
    public var armed: Armed?
    /// The ring it makes now.
    public var ringing: Ring?
    /// The ring it snoozed, if one waits.
    public var snoozed: Snooze?
    /// The rings it made, oldest first (a few).
    public var rang: [Ring]
    /// What it could not do ("" when nothing).
    public var problem: String

    public init(
        running: Bool, armed: Armed? = nil, ringing: Ring? = nil, snoozed: Snooze? = nil, rang: [Ring] = [],
        problem: String = ""
    ) {
        self.running = running
        self.armed = armed
        self.ringing = ringing
        self.snoozed = snoozed
        self.rang = rang
        self.problem = problem
    }
}
