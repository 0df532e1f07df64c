public import Foundation

/// What an alarm is doing right now, stored before any side effect (R9) so that a restart resumes it.
public struct AlarmRunState: Hashable, Sendable {
    public enum Phase: String, Sendable, CaseIterable {
        case idle, ringing, snoozed
    }

    public var alarmID: Int64
    public var phase: Phase
    /// The scheduled instant of the occurrence being handled (ringing or snoozed).
    public var occurrence: Date?
    /// When the current ringing began (wall clock; durations themselves run on the monotonic clock).
    public var ringingSince: Date?
    /// Absolute snooze deadline, so a snooze survives a restart (R8).
    public var snoozedUntil: Date?
    public var snoozeCount: Int
    /// The rests its ladder took in this occurrence (`WakeLadder`): not the person's snoozes, but rings of their own,
    /// so the second waker counts each round after a rest as a new ring (`ring`).
    public var restCount: Int
    /// The last occurrence that was rung, dismissed, skipped or reported missed: never rung again (R5, R6, R11).
    public var lastHandledOccurrence: Date?
    /// When the wake-up check a Stop armed asks "Are you up?" (wall clock), stored so that the check survives a
    /// restart as a snooze does (R8); nil when none is pending.
    public var wakeCheckAt: Date?

    public init(
        alarmID: Int64, phase: Phase = .idle, occurrence: Date? = nil, ringingSince: Date? = nil,
        snoozedUntil: Date? = nil, snoozeCount: Int = 0, lastHandledOccurrence: Date? = nil, restCount: Int = 0,
        wakeCheckAt: Date? = nil
    ) {
        self.restCount = restCount
        self.wakeCheckAt = wakeCheckAt
        self.alarmID = alarmID
        self.phase = phase
        self.occurrence = occurrence
        self.ringingSince = ringingSince
        self.snoozedUntil = snoozedUntil
        self.snoozeCount = snoozeCount
        self.lastHandledOccurrence = lastHandledOccurrence
    }

    /// Which ring of its occurrence this is (0 for the first, one more after each snooze or ladder rest): the round
    /// the second waker's files name (R35), never the same for two rings of one occurrence.
    public var ring: Int { snoozeCount + restCount }
}

/// One line of the event history: what an alarm (or the clock as a whole, when `alarmID` is nil) did.
public struct HistoryEvent: Hashable, Sendable {
    public var id: Int64?
    public var at: Date
    public var alarmID: Int64?
    /// A short machine-readable word: "rang", "snoozed", "fallback", "missed", "auto-silenced", …
    public var kind: String
    /// Free text for people: the reason for a fallback, the station that played.
    public var detail: String

    public init(id: Int64? = nil, at: Date, alarmID: Int64?, kind: String, detail: String = "") {
        self.id = id
        self.at = at
        self.alarmID = alarmID
        self.kind = kind
        self.detail = detail
    }
}
