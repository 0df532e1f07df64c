/// How a ring of the second waker ended.
public enum WakerEnd: UInt8, Sendable, HandoffWord {
    /// A person stopped it: the occurrence is over.
    case stop
    /// A person snoozed it: the waker rings it again a snooze length later (a new round).
    case snooze
    /// The alarm's duration ran out (auto-silence): the occurrence is over.
    case duration
    /// The daemon handled the ring after all (made it audible, or it was stopped through the daemon).
    case daemon
    /// The waker itself was stopped (SIGTERM): the ring is not over, a waker started again resumes it.
    case shutdown
    /// Its ladder's last round rang unanswered: the occurrence is over.
    case unanswered

    public var word: StaticString {
        switch self {
        case .stop: "stop"
        case .snooze: "snooze"
        case .duration: "duration"
        case .daemon: "daemon"
        case .shutdown: "shutdown"
        case .unanswered: "unanswered"
        }
    }

    /// Whether a person ended it (a button or the CLI): the daemon must not ring this occurrence again.
    public var byPerson: Bool { self == .stop || self == .snooze }
}

/// Who ended a ring that a person ended.
public enum WakerInput: UInt8, Sendable {
    /// Nobody: it ended by itself (duration, the daemon, a shutdown).
    case none
    /// A GPIO button.
    case button
    /// `aubade stop` or `aubade snooze` (a signal from the CLI).
    case cli

    public var word: StaticString {
        switch self {
        case .none: "-"
        case .button: "button"
        case .cli: "cli"
        }
    }

    init(field line: HandoffLine, _ i: Int) {
        self = line.fieldIs(i, "button") ? .button : line.fieldIs(i, "cli") ? .cli : .none
    }
}

/// A ring the second waker made: which alarm's occurrence, when, on which device, how it ended.
public struct WakerRing: Equatable, Sendable {
    public var alarm: Int64
    public var occurrence: Int64
    public var round: Int
    /// When its sound was due to start (Unix ms, the waker's wall clock): the entry's due time plus the grace.
    public var started: Int64
    /// When it ended; equal to `started` while it rings.
    public var ended: Int64
    public var end: WakerEnd
    public var by: WakerInput
    /// The daemon it stopped because it held the sound device or a button line (0: none).
    public var killedDaemon: Int32
    /// The device it played on (empty when none could be opened).
    public var device: LongText

    public init(
        alarm: Int64, occurrence: Int64, round: Int, started: Int64, ended: Int64? = nil, end: WakerEnd = .shutdown,
        by: WakerInput = .none, killedDaemon: Int32 = 0, device: LongText = LongText()
    ) {
        self.alarm = alarm
        self.occurrence = occurrence
        self.round = round
        self.started = started
        self.ended = ended ?? started
        self.end = end
        self.by = by
        self.killedDaemon = killedDaemon
        self.device = device
    }
}

/// `<database>.waker`: the second waker's own state, for `aubade status`, `doctor`, `stop` and the daemon's
/// morning report (R35). Written by the waker atomically when what it guards changes and when it starts and
/// ends a ring — never periodically (R29).
///
///     aubade-waker 1
///     waker <pid> <start ticks>
///     grace <ms>
///     read <the `written` stamp of the next-alarm file it last read, 0 when none>
///     armed <alarm> <occurrence> <round> <rings at ms> <name>          (absent when it guards nothing)
///     ringing <alarm> <occurrence> <round> <since ms> <device>         (absent unless it rings)
///     snoozed <the entry fields of its own snoozed ring, as in next-alarm>   (absent unless a person snoozed it)
///     ladder <step s> <louder dB> <rounds> <gap s>                         (the snoozed ring's ladder, if any)
///     quiet-through <ms>       (a person's stop or snooze covers every ring due by then; 0 when none)
///     rang <alarm> <occurrence> <round> <started> <ended> <stop|snooze|duration|daemon|shutdown> <button|cli|-> <killed daemon pid or 0> <device>
///     problem <one sentence>                                           (absent when there is none)
///     end
///
/// `rang` lines are its last rings, oldest first.
public struct WakerStateFile: Sendable {
    public static let suffix: StaticString = ".waker"
    public static let magic: StaticString = "aubade-waker"
    public static let maxRings = 8

    public var waker = ProcessIdentity(pid: 0, startTicks: 0)
    public var graceMilliseconds: Int64 = 60_000
    public var read: Int64 = 0
    /// The ring it waits for, and when it will sound it.
    public var armed: HandoffEntry?
    public var armedAt: Int64 = 0
    public var ringing: WakerRing?
    /// The next round of a ring a person snoozed on the waker (`HandoffEntry.snoozed(at:grace:)`).
    public var snoozed: HandoffEntry?
    /// Every ring due (rings at) by this instant is over: a person stopped or snoozed the waker then.
    public var quietThrough: Int64 = 0
    /// Its last finished rings, oldest first (capacity reserved at `init`).
    public var rang: [WakerRing]
    public var problem = LongText()

    public init() {
        rang = []
        rang.reserveCapacity(WakerStateFile.maxRings)
    }

    /// Adds a finished ring, dropping the oldest beyond `maxRings` (never allocates).
    public mutating func remember(_ ring: WakerRing) {
        if rang.count == WakerStateFile.maxRings { rang.removeFirst() }
        rang.append(ring)
    }

    public func write(to w: TextWriter) {
        w.reset()
        w.text("aubade-waker 1\nwaker ")
        w.int(Int64(waker.pid))
        w.byte(UInt8(ascii: " "))
        w.int(Int64(waker.startTicks))
        w.text("\ngrace ")
        w.int(graceMilliseconds)
        w.text("\nread ")
        w.int(read)
        w.byte(UInt8(ascii: "\n"))
        if let armed {
            w.text("armed ")
            w.int(armed.alarm)
            w.byte(UInt8(ascii: " "))
            w.int(armed.occurrence)
            w.byte(UInt8(ascii: " "))
            w.int(armed.round)
            w.byte(UInt8(ascii: " "))
            w.int(armedAt)
            w.byte(UInt8(ascii: " "))
            w.text(armed.name)
            w.byte(UInt8(ascii: "\n"))
        }
        if let ringing {
            w.text("ringing ")
            w.int(ringing.alarm)
            w.byte(UInt8(ascii: " "))
            w.int(ringing.occurrence)
            w.byte(UInt8(ascii: " "))
            w.int(ringing.round)
            w.byte(UInt8(ascii: " "))
            w.int(ringing.started)
            w.byte(UInt8(ascii: " "))
            w.text(ringing.device)
            w.byte(UInt8(ascii: "\n"))
        }
        if let snoozed { snoozed.write(to: w, key: "snoozed") }
        w.text("quiet-through ")
        w.int(quietThrough)
        w.byte(UInt8(ascii: "\n"))
        for r in rang {
            w.text("rang ")
            w.int(r.alarm)
            w.byte(UInt8(ascii: " "))
            w.int(r.occurrence)
            w.byte(UInt8(ascii: " "))
            w.int(r.round)
            w.byte(UInt8(ascii: " "))
            w.int(r.started)
            w.byte(UInt8(ascii: " "))
            w.int(r.ended)
            w.byte(UInt8(ascii: " "))
            w.text(r.end.word)
            w.byte(UInt8(ascii: " "))
            w.text(r.by.word)
            w.byte(UInt8(ascii: " "))
            w.int(Int64(r.killedDaemon))
            w.byte(UInt8(ascii: " "))
            w.text(r.device)
            w.byte(UInt8(ascii: "\n"))
        }
        if !problem.isEmpty {
            w.text("problem ")
            w.text(problem)
            w.byte(UInt8(ascii: "\n"))
        }
        w.text("end\n")
    }

    /// Replaces this value with the file in `text`; false (and an empty value) when it is not a complete file.
    /// Never allocates (the value's arrays keep their reserved capacity).
    public mutating func read(_ text: UnsafeRawBufferPointer) -> Bool {
        waker = ProcessIdentity(pid: 0, startTicks: 0)
        graceMilliseconds = 60_000
        read = 0
        armed = nil
        armedAt = 0
        ringing = nil
        snoozed = nil
        quietThrough = 0
        rang.removeAll(keepingCapacity: true)
        problem.removeAll()
        guard HandoffLine.isComplete(text, magic: WakerStateFile.magic) else { return false }
        // A ladder line belongs to the snoozed line just above it.
        var snoozedLine = false
        HandoffLine.forEach(in: text) { line in
            let afterSnoozed = snoozedLine
            snoozedLine = line.isKey("snoozed")
            if line.isKey("waker"), let pid = line.int(0), let start = line.int(1) {
                waker = ProcessIdentity(pid: Int32(truncatingIfNeeded: pid), startTicks: UInt64(max(0, start)))
            } else if line.isKey("grace"), let ms = line.int(0) {
                graceMilliseconds = ms
            } else if line.isKey("read"), let ms = line.int(0) {
                read = ms
            } else if line.isKey("armed"), let alarm = line.int(0), let occurrence = line.int(1),
                let round = line.int(2), let at = line.int(3), (0...1000).contains(round)
            {
                var entry = HandoffEntry(
                    alarm: alarm, occurrence: occurrence, round: Int(round), due: at - graceMilliseconds,
                    volume: 0, durationSeconds: 1)
                entry.name.set(line.rest(4))
                armed = entry
                armedAt = at
            } else if line.isKey("ringing"), let alarm = line.int(0), let occurrence = line.int(1),
                let round = line.int(2), let since = line.int(3), (0...1000).contains(round)
            {
                var device = LongText()
                device.set(line.rest(4))
                ringing = WakerRing(alarm: alarm, occurrence: occurrence, round: Int(round), started: since, device: device)
            } else if line.isKey("snoozed"), let entry = HandoffEntry(line) {
                snoozed = entry
            } else if line.isKey("ladder"), afterSnoozed, let ladder = HandoffLadder(line) {
                snoozed?.ladder = ladder
            } else if line.isKey("quiet-through"), let ms = line.int(0) {
                quietThrough = ms
            } else if line.isKey("rang"), let alarm = line.int(0), let occurrence = line.int(1), let round = line.int(2),
                let started = line.int(3), let ended = line.int(4), let end = WakerEnd(field: line, 5),
                let killed = line.int(7), (0...1000).contains(round)
            {
                var device = LongText()
                device.set(line.rest(8))
                remember(
                    WakerRing(
                        alarm: alarm, occurrence: occurrence, round: Int(round), started: started, ended: ended,
                        end: end, by: WakerInput(field: line, 6), killedDaemon: Int32(truncatingIfNeeded: killed),
                        device: device))
            } else if line.isKey("problem") {
                problem.set(line.rest(0))
            }
            return true
        }
        return true
    }
}
