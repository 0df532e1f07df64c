public import AubadeCore
import AubadeHandoff
public import Foundation
import Glibc

/// What the daemon tells the second waker besides its alarms: the sound device and the stop and snooze
/// buttons, from the config (`aubade run` fills it in; in-process tests leave it out and no file is written).
public struct WakerSetup: Sendable, Hashable {
    public struct Button: Sendable, Hashable {
        /// Whether a short press snoozes (else it stops).
        public var snoozes: Bool
        /// A line name ("GPIO27") or "chip:offset".
        public var line: String

        public init(snoozes: Bool, line: String) {
            self.snoozes = snoozes
            self.line = line
        }
    }

    /// An output the waker drives while it rings (`[outputs]`): its pattern as on/off ms, on 0 for steady.
    public struct Output: Sendable, Hashable {
        public var name: OutputName
        public var line: String
        public var activeLow: Bool
        public var pattern: OutputPattern

        public init(name: OutputName, line: String, activeLow: Bool, pattern: OutputPattern) {
            self.name = name
            self.line = line
            self.activeLow = activeLow
            self.pattern = pattern
        }
    }

    public var databasePath: String
    public var device: String
    public var alternate: String
    public var buttons: [Button]
    public var activeLow: Bool
    public var bias: String
    public var outputs: [Output]

    public init(
        databasePath: String, device: String, alternate: String, buttons: [Button], activeLow: Bool, bias: String,
        outputs: [Output] = []
    ) {
        self.outputs = outputs
        self.databasePath = databasePath
        self.device = device
        self.alternate = alternate
        self.buttons = buttons
        self.activeLow = activeLow
        self.bias = bias
    }
}

/// The second waker's files beside the database (R35), the `WakerLink` of the running clock, on its thread:
/// - `<db>.next-alarm`, rewritten atomically (temp, fsync, rename — `HandoffIO`) whenever what the daemon will
///   ring changes (`publish`; an unchanged plan is not written, R29);
/// - `<db>.heartbeat`, rewritten when a ring becomes audible (verified sound on the card, R16) or is snoozed,
///   stopped or skipped (`note`);
/// - `<db>.waker`, the waker's own state, read for the status and for the rings the waker made (`report`).
/// The formats are AubadeHandoff's, which the waker links too; this is the one place that converts them to and
/// from the core's words. A file that cannot be written is `problem`: the waker would then ring beside a
/// healthy daemon.
public final class WakerFiles: WakerLink {
    public let setup: WakerSetup
    let nextAlarmPath: String
    let heartbeatPath: String
    let wakerPath: String
    private let identity = ProcessIdentity.current
    private var written: NextAlarmFile?
    private var heartbeat = HeartbeatFile()
    private let writer = TextWriter(capacity: 32 * 1024)
    /// The waker's file as last read: its modification time and size.
    private var wakerStamp: (Int, Int, Int)?
    public private(set) var problem: String?

    public init(_ setup: WakerSetup) {
        self.setup = setup
        nextAlarmPath = HandoffIO.path(database: setup.databasePath, suffix: NextAlarmFile.suffix)
        heartbeatPath = HandoffIO.path(database: setup.databasePath, suffix: HeartbeatFile.suffix)
        wakerPath = HandoffIO.path(database: setup.databasePath, suffix: WakerStateFile.suffix)
        if let bytes = WakerFiles.read(heartbeatPath) {
            var old = HeartbeatFile()
            if bytes.withUnsafeBytes({ old.read($0) }) { heartbeat = old }
        }
    }

    public func publish(_ plan: [WakerPlan.Entry], now: Date) {
        var file = NextAlarmFile()
        file.daemon = identity
        file.written = WakerFiles.ms(now)
        file.device = LongText(setup.device)
        file.alternate = LongText(setup.alternate)
        file.activeLow = setup.activeLow
        file.bias = LongText(setup.bias)
        file.buttons = setup.buttons.prefix(NextAlarmFile.maxButtons).map {
            ButtonLine(duty: $0.snoozes ? .snooze : .stop, line: LongText($0.line))
        }
        file.outputs = setup.outputs.prefix(NextAlarmFile.maxOutputs).map { o in
            let (on, off): (Int, Int) =
                switch o.pattern {
                case .steady: (0, 0)
                case .pulse(let on, let off): (on, off)
                }
            return OutputLine(
                name: LongText(o.name.rawValue), line: LongText(o.line), activeLow: o.activeLow, onMilliseconds: Int64(on),
                offMilliseconds: Int64(off))
        }
        file.entries = plan.prefix(NextAlarmFile.maxEntries).map(WakerFiles.entry)
        if let written, written.sameContent(as: file) { return }
        file.write(to: writer)
        if save(nextAlarmPath, what: "next-alarm") { written = file }
    }

    public func note(_ notes: [WakerPlan.Note]) {
        guard !notes.isEmpty else { return }
        for n in notes {
            let state: HeartbeatState =
                switch n.state {
                case .audible: .audible
                case .snoozed: .snoozed
                case .stopped: .stopped
                case .skipped: .skipped
                }
            heartbeat.note(
                HeartbeatRecord(
                    alarm: n.alarm, occurrence: WakerFiles.ms(n.occurrence), round: n.round, state: state,
                    at: WakerFiles.ms(n.at)))
        }
        heartbeat.write(to: writer)
        _ = save(heartbeatPath, what: "heartbeat")
    }

    private func save(_ path: String, what: String) -> Bool {
        let rc = HandoffIO.replace(path, with: writer.bytes)
        if rc == 0 {
            problem = nil
            return true
        }
        problem =
            "The second waker's \(what) file \(path) cannot be written (\(String(cString: strerror(rc)))); it may ring beside the clock or miss a change."
        return false
    }

    public func report() -> WakerReport? { WakerFiles.report(at: wakerPath) }

    /// A `stat`, and no read, when the file did not change.
    public func reportIfChanged() -> WakerReport? {
        var st = stat()
        guard stat(wakerPath, &st) == 0 else { return nil }
        let stamp = (st.st_mtim.tv_sec, st.st_mtim.tv_nsec, Int(st.st_size))
        if let old = wakerStamp, old == stamp { return nil }
        wakerStamp = stamp
        return report()
    }

    public func forgetLastLook() { wakerStamp = nil }

    // MARK: the conversions

    static func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

    static func entry(_ e: WakerPlan.Entry) -> HandoffEntry {
        let tone: HandoffTone =
            switch e.tone {
            case .classic: .classic
            case .chime: .chime
            case .rising: .rising
            }
        return HandoffEntry(
            alarm: e.alarm, occurrence: ms(e.occurrence), round: e.round, due: ms(e.due), volume: e.volume,
            durationSeconds: e.durationSeconds, snoozeSeconds: e.snoozeSeconds, maxSnoozes: e.maxSnoozes, tone: tone,
            name: ShortText(e.name),
            ladder: e.ladder.enabled
                ? HandoffLadder(
                    stepSeconds: e.ladder.stepSeconds, louderDB: e.ladder.louderDB, rounds: e.ladder.rounds,
                    gapSeconds: e.ladder.gapSeconds) : .none)
    }

    static func ring(_ r: AubadeHandoff.WakerRing) -> WakerReport.Ring {
        let end: WakerReport.Ring.End =
            switch r.end {
            case .stop: .stop
            case .snooze: .snooze
            case .duration: .duration
            case .unanswered: .unanswered
            case .daemon: .daemon
            case .shutdown: .shutdown
            }
        let by: WakerReport.Ring.Input =
            switch r.by {
            case .none: .none
            case .button: .button
            case .cli: .cli
            }
        return WakerReport.Ring(
            alarm: r.alarm, occurrence: date(r.occurrence), round: r.round, started: date(r.started), ended: date(r.ended),
            end: end, by: by, killedDaemon: r.killedDaemon, device: r.device.string, key: "\(r.alarm)/\(r.started)")
    }

    /// The waker's state file at `path` in the core's words (nil: missing or unreadable).
    static func report(at path: String) -> WakerReport? {
        guard let state = stateFile(path) else { return nil }
        return WakerReport(
            running: state.waker.isAlive,
            armed: state.armed.map { WakerReport.Armed(alarm: $0.alarm, name: $0.name.string, at: date(state.armedAt)) },
            ringing: state.ringing.map(ring),
            snoozed: state.snoozed.map {
                WakerReport.Snooze(
                    alarm: $0.alarm, occurrence: date($0.occurrence), round: $0.round,
                    ringsAt: date($0.ringsAt(grace: state.graceMilliseconds)))
            },
            rang: state.rang.map(ring), problem: state.problem.string)
    }

    static func stateFile(_ path: String) -> WakerStateFile? {
        guard let bytes = read(path) else { return nil }
        var state = WakerStateFile()
        return bytes.withUnsafeBytes { state.read($0) } ? state : nil
    }

    static func read(_ path: String) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let n = buffer.withUnsafeMutableBytes { HandoffIO.read(path, into: $0) }
        return n >= 0 ? Array(buffer[0..<n]) : nil
    }
}

/// The second waker as `aubade status`, `doctor` and `stop` see it, from its state file beside the database.
public enum SecondWaker {
    /// What it says now (nil: it wrote nothing readable).
    public static func report(databasePath: String) -> WakerReport? {
        WakerFiles.report(at: HandoffIO.path(database: databasePath, suffix: WakerStateFile.suffix))
    }

    /// Stops (or snoozes) the waker's ring, if it rings (alarm `alarm`, when given): SIGUSR1 (SIGUSR2) to that
    /// process — named by pid and start time, never a stranger. True when a ring was told to end.
    public static func interrupt(databasePath: String, snooze: Bool, alarm: Int64? = nil) -> Bool {
        let path = HandoffIO.path(database: databasePath, suffix: WakerStateFile.suffix)
        guard let state = WakerFiles.stateFile(path), let ringing = state.ringing, state.waker.isAlive,
            alarm == nil || alarm == ringing.alarm
        else { return false }
        return kill(state.waker.pid, snooze ? SIGUSR2 : SIGUSR1) == 0
    }
}
