import Foundation

/// Why an alarm starts sounding.
public enum RingCause: String, Hashable, Sendable {
    /// Its occurrence came due (on time, or caught up late within the window G — R6).
    case scheduled
    /// Its snooze ended.
    case snoozeEnded = "snooze-ended"
    /// The daemon restarted while it was ringing; it goes on for the rest of its duration (R9).
    case resumed
}

/// What the player must sound now. It replaces any alarm sound that is playing (R13: the user is never
/// left in silence between two alarms).
public struct RingRequest: Hashable, Sendable {
    public var alarmID: Int64
    /// The scheduled instant of the occurrence.
    public var occurrence: Date
    public var sound: SoundSource
    public var volume: Int
    public var fadeInSeconds: Int
    /// True when it starts a minute or more after it was due (catch-up after a restart or a clock step, R6).
    public var late: Bool
    public var cause: RingCause
    /// The alarm whose sound this one replaces, if one was sounding.
    public var replacing: Int64?

    /// A request to sound alarm `alarmID` for `occurrence`; see the properties for each field.
    public init(alarmID: Int64, occurrence: Date, sound: SoundSource, volume: Int, fadeInSeconds: Int,
                late: Bool, cause: RingCause, replacing: Int64?) {
        self.alarmID = alarmID
        self.occurrence = occurrence
        self.sound = sound
        self.volume = volume
        self.fadeInSeconds = fadeInSeconds
        self.late = late
        self.cause = cause
        self.replacing = replacing
    }
}

/// Why an alarm stops sounding.
public enum StopReason: String, Hashable, Sendable {
    case dismissed, snoozed
    case autoSilenced = "auto-silenced"
    /// Its time, days, date or zone changed (R10).
    case edited
    case disabled, removed
    /// Another alarm (or this alarm's own next occurrence) took over; the sound of the `.ring` that comes
    /// before this action in the same batch is already playing (R13).
    case superseded
}

/// When the engine next needs `tick`: at the wall instant or at the monotonic reading, whichever comes
/// first; nil parts are not needed. Independently the daemon ticks at least every
/// `AlarmScheduler.stepCheckInterval` so that a wall-clock step is noticed (R5).
public struct WakeUp: Hashable, Sendable {
    public var wall: Date?
    public var mono: MonotonicInstant?

    /// Wake at `wall` or at `mono`, whichever comes first; both nil means only the periodic check.
    public init(wall: Date?, mono: MonotonicInstant?) {
        self.wall = wall
        self.mono = mono
    }
}

/// One thing the daemon must do, in the order the engine returns them.
///
/// Order contract (R9): every `.persist` and `.saveAlarm` of a batch comes before the `.record`, `.ring`,
/// `.stopRinging` and `.snoozeRefused` it guards, and a batch ends with exactly one `.wakeMe`.
/// `.ring` actions come before `.stopRinging` ones, and `.stopRinging(id)` silences the player only if it
/// is sounding alarm `id` — so a hand-over between alarms never leaves a silent moment (R13).
public enum SchedulerAction: Hashable, Sendable {
    /// Commit this run-time state (replacing the alarm's previous one) before anything that follows.
    case persist(AlarmRunState)
    /// Commit this change the engine made to an alarm: a one-shot alarm disabled after its occurrence,
    /// a spent `skipDate` cleared.
    case saveAlarm(Alarm)
    /// Append to the event history.
    case record(HistoryEvent)
    /// Sound this alarm now.
    case ring(RingRequest)
    /// This alarm stopped sounding.
    case stopRinging(alarmID: Int64, reason: StopReason)
    /// The user asked to snooze but the alarm has used all its snoozes: it keeps ringing; tell the user
    /// that only stop works.
    case snoozeRefused(alarmID: Int64)
    /// Call `tick` again at this time (replaces any earlier request).
    case wakeMe(WakeUp)
}
