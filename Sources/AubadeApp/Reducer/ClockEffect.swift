import AubadeCore
import Foundation

/// A line's fields on the daemon's output.
typealias OutputFields = KeyValuePairs<String, (any Sendable)?>

/// What a decision of the running clock asks of the world, in the order it must happen. The clock's parts
/// never call a port that changes something: they append effects, and `EffectRunner` carries them out when the
/// input that caused them has been decided — commits before the sound they guard (R9), the rest after.
enum ClockEffect {
    /// Commits an alarm's run state (R9).
    case save(AlarmRunState)
    /// Commits the engine's change to an alarm (a one-shot turned off, a spent skip cleared).
    case update(Alarm)
    /// Appends to the event history, then prints it (the event's alarm and detail, or `fields`).
    case record(HistoryEvent, fields: OutputFields?)
    /// Notes that a device token was used.
    case tokenUsed(id: Int64, at: Date)
    /// Tells the sound engine something.
    case sound(SoundCommand)
    /// An alarm's sound has been started: prints `ringing`, saying whether (and by how much) it is late.
    case rang(RingNote)
    /// Prints a line on the daemon's output.
    case emit(String, OutputFields)
    /// Writes the second waker's files (R35): after the sound, so they never hold it back.
    case waker(WakerWrite)
    /// Starts a background check (a station's, an episode's); it reports back as an input.
    case check(ClockCheck)
    /// Counts a click in the public directory for the station it lists under `id` (nothing waits for it).
    case countClick(String)
    /// The device tokens the HTTP API accepts, as the store now holds them.
    case tokens([AccessToken])
    /// Wakes the scheduler loop (the next alarm may be sooner than its wake-up).
    case wakeLoop
    /// An alarm started (true) or stopped (false) sounding: the shake sensor is sampled only then.
    case ringingChanged(Bool)
    /// The sound device opened and took a test write (R34): READY, with the summary line.
    case ready(String)
    /// Switches a GPIO output (the bed shaker, the lamp) on, with its pattern, or to its inactive level.
    case output(OutputName, on: Bool)
    /// Tells the microphone a ring is near, to listen to a sound that began (a ring's, the self-test's chirp), or that
    /// nothing is left to hear.
    case room(RoomCommand)
    /// The screen's backlight to this level, in percent (on its own thread).
    case backlight(Int)
    /// The screen's backlight put back as it was found (shutdown).
    case restoreBacklight
    /// A line for the daemon's output made by a face (its fields as a dictionary).
    case announce(String, [String: any Sendable])
    /// Tells the faces that follow the clock's events (the MQTT face) of one that is not a history line.
    case tell(ClockEvent)
    /// Hands off slow work (the store's edits and reads, downloads, the directory, the logo folder); what it finds
    /// comes back as an input of its own, under the same ticket.
    case work(ClockTicket, ClockWork)
    /// Answers the caller waiting under a ticket (a face's command, a refresh turn).
    case answer(ClockTicket, Result<ClockOutput, ClockError>)
}

/// What the clock tells the sound engine.
enum SoundCommand: Equatable {
    case play(SoundID, SoundRequest, paused: Bool)
    case begin(SoundID)
    case beginAt(SoundID, MonotonicInstant)
    case stop(SoundID)
    case volume(SoundID, Int)
}

/// An alarm that started sounding, for its `ringing` line.
struct RingNote {
    var alarmID: Int64
    var occurrence: Date
    var source: String
    var cause: String
    /// The engine's own verdict: a catch-up of a missed alarm (R6) is late by design.
    var late: Bool
    /// The second it was due to begin (its occurrence, for a scheduled ring), against which the start is measured;
    /// nil for a ring that resumes after a restart or ends a snooze.
    var due: Date?
}

/// What the second waker's files are told.
enum WakerWrite {
    /// The alarms to come (the next-alarm file).
    case publish([WakerPlan.Entry], now: Date)
    /// What the daemon did with its rings (the heartbeat).
    case note([WakerPlan.Note])
}

/// The effects of the input being decided, in order, and the names of the sounds and tickets they start (sounds
/// and tickets are numbered by the clock, so an effect can name one before the engine or the caller has it). A
/// value, part of the clock's state: its parts append to it; `reduce` takes the list.
struct Effects {
    private var list: [ClockEffect] = []
    private var lastSound: Int
    private var lastTicket = 0

    /// `firstSound`: the id the first sound gets (sounds are named by the clock, so an effect can name a sound
    /// before the engine has been told of it).
    init(firstSound: Int = 1) { lastSound = firstSound - 1 }

    /// A new ticket, for a reply owed or a piece of work handed off.
    mutating func ticket() -> ClockTicket {
        lastTicket += 1
        return ClockTicket(number: lastTicket)
    }

    mutating func append(_ effect: ClockEffect) { list.append(effect) }

    /// Every effect appended since the last take, in order.
    mutating func take() -> [ClockEffect] {
        defer { list.removeAll(keepingCapacity: true) }
        return list
    }

    var isEmpty: Bool { list.isEmpty }

    // MARK: Shorthands

    /// Plays `request` now or, `paused`, prepares it until `begin`; returns the name its events will carry.
    mutating func play(_ request: SoundRequest, paused: Bool = false) -> SoundID {
        lastSound += 1
        let id = SoundID(lastSound)
        append(.sound(.play(id, request, paused: paused)))
        return id
    }

    mutating func begin(_ id: SoundID) { append(.sound(.begin(id))) }
    mutating func begin(_ id: SoundID, at instant: MonotonicInstant) { append(.sound(.beginAt(id, instant))) }
    mutating func stop(_ id: SoundID) { append(.sound(.stop(id))) }
    mutating func setVolume(_ id: SoundID, _ level: Int) { append(.sound(.volume(id, level))) }
    mutating func emit(_ event: String, _ fields: OutputFields = [:]) { append(.emit(event, fields)) }

    mutating func record(_ event: HistoryEvent, fields: OutputFields? = nil) { append(.record(event, fields: fields)) }
    mutating func record(_ kind: HistoryKind, at wall: Date, alarm: Int64? = nil, _ detail: String = "") {
        record(HistoryEvent(at: wall, alarmID: alarm, kind: kind.rawValue, detail: detail))
    }
}

/// What the clock tells the microphone (`RoomListener`).
enum RoomCommand: Equatable {
    case arm
    /// Listen to alarm `alarmID`'s occurrence, whose sound (or ladder step) began at `since`.
    case listen(alarmID: Int64, occurrence: Date, since: MonotonicInstant)
    /// Listen to the daily self-test's chirp, run at `started`, which begins after `since` (`RoomSelfTest`).
    case listenSelfTest(started: Date, since: MonotonicInstant)
    case disarm
}
