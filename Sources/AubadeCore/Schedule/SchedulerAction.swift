public import Foundation

/// Why an alarm starts sounding.
public enum RingCause: String, Hashable, Sendable {
    /// Its occurrence came due (on time, or caught up late within the window G — R6).
    case scheduled
    /// Its snooze ended.
    case snoozeEnded = "snooze-ended"
    /// The daemon restarted while it was ringing; it goes on for the rest of its duration (R9).
    case resumed
    /// Nobody answered its wake-up check after a Stop: it rings again (`WakeCheck`).
    case wakeCheck = "wake-check"
}

/// What the player must sound now. It replaces the sound that is playing, if any, without a silent moment
/// (R13); the alarms that were ringing go on ringing with it (R38) — see `SchedulerAction`.
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
    /// The alarm the sound playing before this batch counted for (`AlarmScheduler.soundingAlarmID`), when it
    /// was another alarm: its sound is replaced, the alarm itself keeps ringing.
    public var replacing: Int64?
    /// "Vibrate first, sound after" (`Alarm.soundAfter`): the ring begins now, silent, its outputs on; its sound starts
    /// this much later (zero: at once).
    public var silentFor: Duration
    /// The alarm asks to vibrate first but none of the clock's outputs would come on before its sound: it sounds at
    /// once (never a silent alarm), and the clock says why.
    public var soundAfterWithoutOutputs: Bool

    /// The history's and the status's words for `soundAfterWithoutOutputs`.
    public static func withoutOutputsNote(_ wait: Duration?) -> String {
        let text = wait.map { SoundAfter.text($0) } ?? "off"
        return "Sound after \(text) is set, but the clock has no shaker or lamp that comes on first; the sound starts at once."
    }

    /// A request to sound alarm `alarmID` for `occurrence`; see the properties for each field.
    public init(
        alarmID: Int64, occurrence: Date, sound: SoundSource, volume: Int, fadeInSeconds: Int,
        late: Bool, cause: RingCause, replacing: Int64?, silentFor: Duration = .zero, soundAfterWithoutOutputs: Bool = false
    ) {
        self.silentFor = silentFor
        self.soundAfterWithoutOutputs = soundAfterWithoutOutputs
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

/// Why an alarm stops ringing.
public enum StopReason: String, Hashable, Sendable {
    case dismissed, snoozed
    case autoSilenced = "auto-silenced"
    /// Its ladder rests before its next round (a snooze the clock takes by itself).
    case rested
    /// Its ladder's last round rang unanswered.
    case unanswered
    /// Its time, days, date or zone changed (R10).
    case edited
    case disabled, removed
}

/// One alarm left the ringing group. Whether the player goes silent is decided by `othersStillRinging`
/// alone, never by which alarm's sound is playing (R38).
public struct StopRinging: Hashable, Sendable {
    public var alarmID: Int64
    public var reason: StopReason
    /// What the user stopped or snoozed it with; nil when nobody did (auto-silence, an edit) or the caller
    /// did not say.
    public var by: DismissInput?
    /// The other alarms still ringing once this action is carried out, in ascending id order: those that
    /// ring on after the batch, and those a later `.stopRinging` of the same batch ends. Non-empty: the
    /// sound that plays goes on (for them); empty: this is the last member — silence the player.
    public var othersStillRinging: [Int64]

    /// Alarm `alarmID` stopped ringing for `reason` (by `by`); `othersStillRinging` ring on.
    public init(alarmID: Int64, reason: StopReason, by: DismissInput? = nil, othersStillRinging: [Int64] = []) {
        self.alarmID = alarmID
        self.reason = reason
        self.by = by
        self.othersStillRinging = othersStillRinging
    }

    /// True when the player must go silent now: no other alarm still rings.
    public var silencesPlayer: Bool { othersStillRinging.isEmpty }
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
/// `.stopRinging` and `.snoozeRefused` it guards, and a batch ends with exactly one `.wakeMe`. A batch has
/// at most one `.ring`, and it comes before every `.stopRinging`.
///
/// The ringing group (R13, R38): any number of alarms may ring at once. The player has one sound: that of
/// the latest `.ring`, which replaces whatever played without a silent moment. An alarm that comes due (or
/// whose snooze ends) while others ring joins them; nothing ends the others. When a member stops
/// (`.stopRinging`), the player goes silent only if `StopRinging.silencesPlayer` (no member is left);
/// otherwise the sound plays on for the others — even when it was the stopped alarm's own sound — and now
/// counts for `AlarmScheduler.soundingAlarmID`. So: `.ring` → play this sound; `.stopRinging` with others
/// left → keep playing; `.stopRinging` with none left → silence (a player already silent, e.g. after a
/// restart, does nothing). Of the stops of one batch only the last can silence, and only when nothing rings
/// after the batch.
public enum SchedulerAction: Hashable, Sendable {
    /// Commit this run-time state (replacing the alarm's previous one) before anything that follows.
    case persist(AlarmRunState)
    /// Commit this change the engine made to an alarm: a one-shot alarm disabled after its occurrence,
    /// a spent `skipDate` cleared.
    case saveAlarm(Alarm)
    /// Append to the event history.
    case record(HistoryEvent)
    /// Sound this alarm now, replacing the sound that plays; every ringing alarm goes on ringing.
    case ring(RingRequest)
    /// This alarm stopped ringing; silence the player only when `silencesPlayer`.
    case stopRinging(StopRinging)
    /// The user asked to snooze but the alarm has used all its snoozes: it keeps ringing (so the sound goes
    /// on); tell the user that only stop works.
    case snoozeRefused(alarmID: Int64)
    /// An unanswered alarm's ladder reached `step` (`WakeLadder`): the clock plays it — its own sound, louder, the
    /// tone at full volume.
    case climb(alarmID: Int64, step: LadderStep)
    /// The outputs (a bed shaker, a lamp) on or off for this alarm's ladder.
    case outputs(alarmID: Int64, on: Bool)
    /// Call `tick` again at this time (replaces any earlier request).
    case wakeMe(WakeUp)
    /// Its wake-up check asks "Are you up?" now: the soft chime (the question itself is the history's `wake-check`
    /// line and `AlarmScheduler.askingWakeChecks`, which the kiosk shows until it is answered or rings again).
    case wakeCheck(alarmID: Int64)
}
