/// The built-in tone an entry asks for (AubadeCore's `ToneName`, by the same names). A station alarm's entry
/// says `classic`: the waker has no radio.
public enum HandoffTone: UInt8, Sendable, CaseIterable, HandoffWord {
    case classic, chime, rising

    public var word: StaticString {
        switch self {
        case .classic: "classic"
        case .chime: "chime"
        case .rising: "rising"
        }
    }
}

/// One ring the daemon expects to make, as the next-alarm file lists it: an alarm's occurrence (its first
/// ring, `round` 0) or the end of its n-th snooze (`round` n). Times are Unix milliseconds on the daemon's wall
/// clock. Plain data: copying one never allocates.
public struct HandoffEntry: Equatable, Sendable {
    public var alarm: Int64
    /// The scheduled instant of the occurrence.
    public var occurrence: Int64
    /// 0 for the occurrence's first ring, n for the ring after its n-th snooze.
    public var round: Int
    /// When this ring is due to start (the occurrence, or the snooze's end).
    public var due: Int64
    /// The alarm's volume (10…100).
    public var volume: Int
    /// The alarm's duration before auto-silence, in seconds.
    public var durationSeconds: Int
    /// The snooze length, in seconds, and how many snoozes the alarm allows (a snooze press beyond them does
    /// nothing: only stop works, as with the daemon).
    public var snoozeSeconds: Int
    public var maxSnoozes: Int
    public var tone: HandoffTone
    /// The alarm's name, for the log.
    public var name: ShortText
    /// How the ring climbs, rests and rings again while unanswered (`none`: it lasts `durationSeconds`).
    public var ladder: HandoffLadder

    public init(
        alarm: Int64, occurrence: Int64, round: Int = 0, due: Int64, volume: Int, durationSeconds: Int,
        snoozeSeconds: Int = 540, maxSnoozes: Int = 3, tone: HandoffTone = .classic, name: ShortText = ShortText(),
        ladder: HandoffLadder = .none
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

    /// Whether `other` is the same ring (alarm, occurrence, round), whatever else changed.
    public func isSameRing(as other: HandoffEntry) -> Bool {
        alarm == other.alarm && occurrence == other.occurrence && round == other.round
    }

    /// When the waker rings it unless the daemon has handled it: `due` plus the grace.
    public func ringsAt(grace: Int64) -> Int64 { due + grace }

    /// When the waker's ring of it ends by itself: its ladder's last round after it started, or without a ladder
    /// the alarm's duration.
    public func endsAt(grace: Int64) -> Int64 {
        due + grace + (ladder.totalMilliseconds ?? Int64(durationSeconds) * 1000)
    }

    /// The ring after a snooze of this one pressed on the waker at `now`: the next round, which the waker
    /// sounds a snooze length later (its `due` is set a grace earlier, since the waker rings at due + grace).
    public func snoozed(at now: Int64, grace: Int64) -> HandoffEntry {
        var next = self
        next.round = round + 1
        next.due = now + Int64(snoozeSeconds) * 1000 - grace
        return next
    }

    /// Whether a snooze is still allowed in this round.
    public var maySnooze: Bool { round < maxSnoozes }

    /// "<key> <alarm> <occurrence> <round> <due> <volume> <duration s> <snooze s> <max snoozes> <tone> <name>",
    /// then its ladder's line when it has one (a reader that knows no `ladder` lines skips it).
    func write(to w: TextWriter, key: StaticString = "entry") {
        w.text(key)
        w.byte(UInt8(ascii: " "))
        w.int(alarm)
        w.byte(UInt8(ascii: " "))
        w.int(occurrence)
        w.byte(UInt8(ascii: " "))
        w.int(round)
        w.byte(UInt8(ascii: " "))
        w.int(due)
        w.byte(UInt8(ascii: " "))
        w.int(volume)
        w.byte(UInt8(ascii: " "))
        w.int(durationSeconds)
        w.byte(UInt8(ascii: " "))
        w.int(snoozeSeconds)
        w.byte(UInt8(ascii: " "))
        w.int(maxSnoozes)
        w.byte(UInt8(ascii: " "))
        w.text(tone.word)
        w.byte(UInt8(ascii: " "))
        w.text(name)
        w.byte(UInt8(ascii: "\n"))
        if ladder.isOn { ladder.write(to: w) }
    }

    /// The entry on an "entry" (or "snoozed") line, or nil when a field is missing or out of range.
    init?(_ line: HandoffLine) {
        guard let alarm = line.int(0), let occurrence = line.int(1), let round = line.int(2), let due = line.int(3),
            let volume = line.int(4), let duration = line.int(5), let snooze = line.int(6), let maxSnoozes = line.int(7),
            let tone = HandoffTone(field: line, 8),
            (0...1000).contains(round), (0...100).contains(volume), (1...86_400).contains(duration),
            (60...7200).contains(snooze), (0...1000).contains(maxSnoozes)
        else { return nil }
        self.init(
            alarm: alarm, occurrence: occurrence, round: Int(round), due: due, volume: Int(volume),
            durationSeconds: Int(duration), snoozeSeconds: Int(snooze), maxSnoozes: Int(maxSnoozes), tone: tone)
        name.set(line.rest(9))
    }
}
