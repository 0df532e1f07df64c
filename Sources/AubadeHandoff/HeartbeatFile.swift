/// What the daemon did with a ring, as the heartbeat records it.
public enum HeartbeatState: UInt8, Sendable, HandoffWord {
    /// Verified audio or the tone reached the card (R16's "audible").
    case audible
    /// The ring was snoozed (its next round is still to come).
    case snoozed
    /// The occurrence is over: dismissed, auto-silenced, cancelled by an edit, superseded or missed.
    case stopped
    /// The occurrence was passed over by skip-next.
    case skipped

    public var word: StaticString {
        switch self {
        case .audible: "audible"
        case .snoozed: "snoozed"
        case .stopped: "stopped"
        case .skipped: "skipped"
        }
    }

    /// Whether the whole occurrence is over (every round of it handled).
    public var endsOccurrence: Bool { self == .stopped || self == .skipped }
}

/// The latest thing the daemon did with one alarm's rings.
public struct HeartbeatRecord: Equatable, Sendable {
    public var alarm: Int64
    public var occurrence: Int64
    /// The round it concerns: for `audible` the ring that was heard, for `snoozed` the ring that was snoozed.
    public var round: Int
    public var state: HeartbeatState
    /// When (Unix ms, the daemon's wall clock).
    public var at: Int64

    public init(alarm: Int64, occurrence: Int64, round: Int, state: HeartbeatState, at: Int64) {
        self.alarm = alarm
        self.occurrence = occurrence
        self.round = round
        self.state = state
        self.at = at
    }

    /// Whether this record shows `entry` handled: a later occurrence of the alarm was handled, or this one is
    /// over, or this round (or a later one) was heard or snoozed.
    public func handles(_ entry: HandoffEntry) -> Bool {
        guard alarm == entry.alarm else { return false }
        if occurrence != entry.occurrence { return occurrence > entry.occurrence }
        return state.endsOccurrence || round >= entry.round
    }
}

/// `<database>.heartbeat`: the daemon's word that a ring was handled — made audible, snoozed, stopped or
/// skipped (R35). Written by the daemon atomically at each of those moments (never periodically, R29), the
/// latest record per alarm; read by the waker, which rings only what no record handles.
///
///     aubade-heartbeat 1
///     handled <alarm> <occurrence ms> <round> <audible|snoozed|stopped|skipped> <at ms>
///     …
///     end
public struct HeartbeatFile: Sendable {
    public static let suffix: StaticString = ".heartbeat"
    public static let magic: StaticString = "aubade-heartbeat"
    public static let maxRecords = 64
    /// Records older than this (by occurrence) are dropped when the daemon writes: no ring lasts that long.
    public static let keepMilliseconds: Int64 = 2 * 86_400_000

    public var records: [HeartbeatRecord]

    public init() {
        records = []
        records.reserveCapacity(HeartbeatFile.maxRecords)
    }

    /// The record that shows `entry` handled, if any.
    public func handling(_ entry: HandoffEntry) -> HeartbeatRecord? {
        for r in records where r.handles(entry) { return r }
        return nil
    }

    /// Keeps `record` as its alarm's latest, unless the file already holds a later occurrence of that alarm;
    /// drops records older than `keepMilliseconds` before `record`'s occurrence.
    public mutating func note(_ record: HeartbeatRecord) {
        if let i = records.firstIndex(where: { $0.alarm == record.alarm }) {
            guard records[i].occurrence <= record.occurrence else { return }
            records[i] = record
        } else if records.count < HeartbeatFile.maxRecords {
            records.append(record)
        } else if let oldest = records.indices.min(by: { records[$0].occurrence < records[$1].occurrence }) {
            records[oldest] = record
        }
        records.removeAll { $0.occurrence < record.occurrence - HeartbeatFile.keepMilliseconds }
    }

    public func write(to w: TextWriter) {
        w.reset()
        w.text("aubade-heartbeat 1\n")
        for r in records {
            w.text("handled ")
            w.int(r.alarm)
            w.byte(UInt8(ascii: " "))
            w.int(r.occurrence)
            w.byte(UInt8(ascii: " "))
            w.int(r.round)
            w.byte(UInt8(ascii: " "))
            w.text(r.state.word)
            w.byte(UInt8(ascii: " "))
            w.int(r.at)
            w.byte(UInt8(ascii: "\n"))
        }
        w.text("end\n")
    }

    /// Replaces the records with those in `text`; false (and no records) when it is not a complete file.
    public mutating func read(_ text: UnsafeRawBufferPointer) -> Bool {
        records.removeAll(keepingCapacity: true)
        guard HandoffLine.isComplete(text, magic: HeartbeatFile.magic) else { return false }
        HandoffLine.forEach(in: text) { line in
            if line.isKey("handled"), let alarm = line.int(0), let occurrence = line.int(1), let round = line.int(2),
                let state = HeartbeatState(field: line, 3), let at = line.int(4), (0...1000).contains(round),
                records.count < HeartbeatFile.maxRecords
            {
                records.append(HeartbeatRecord(alarm: alarm, occurrence: occurrence, round: Int(round), state: state, at: at))
            }
            return true
        }
        return true
    }
}
