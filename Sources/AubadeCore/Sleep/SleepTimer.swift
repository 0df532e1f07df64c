/// A sleep timer's countdown and fade-out on the monotonic clock (R8): full volume, then a linear fade to
/// silence over the last `fade` before the end. Pure; the daemon passes the reading of its clock.
///
/// It only ever concerns the sleep sound: it never cancels, mutes or lowers an alarm (R14) — see
/// `decide(alarmRinging:)` for starting one while an alarm rings.
public struct SleepTimer: Sendable, Hashable {
    /// What one press of the sleep button adds.
    public static let buttonStep: Duration = .seconds(15 * 60)

    /// The refusal `decide(alarmRinging:)` gives while an alarm rings.
    public static let refusedWhileAlarmRings =
        "An alarm is ringing; stop or snooze it first, the sleep timer never plays over an alarm."

    /// When the countdown (re)started.
    public private(set) var startedAt: MonotonicInstant
    /// The whole length from `startedAt` to the end, extensions included.
    public private(set) var duration: Duration
    /// The fade-out actually used: `requestedFade`, shortened to half the timer when the timer is shorter
    /// than twice that — a 1-minute timer plays 30 s at its volume, then fades over its last 30 s.
    public private(set) var fade: Duration
    /// The fade-out asked for; an extension makes the fade this long again when the timer allows it.
    public let requestedFade: Duration
    /// The volume (0–100) before the fade begins.
    public private(set) var fullVolume: Int

    /// A timer of `duration` from `startedAt`, fading out over its last `fade` (at most half of it) from
    /// `volume`. Negative durations count as zero; the volume is held to 0–100.
    public init(duration: Duration, fade: Duration, volume: Int, startedAt: MonotonicInstant) {
        let length = max(duration, .zero)
        self.startedAt = startedAt
        self.duration = length
        self.requestedFade = max(fade, .zero)
        self.fade = min(max(fade, .zero), length / 2)
        self.fullVolume = min(max(volume, 0), 100)
    }

    /// The reading at which the sound stops.
    public var endsAt: MonotonicInstant { startedAt + duration }

    /// The reading at which the fade-out begins.
    public var fadeBeginsAt: MonotonicInstant { endsAt - fade }

    /// The volume to play at `now`: `fullVolume` until the fade begins, then linear down to 0 at the end
    /// (rounded to the nearest step), 0 from then on. Never below 0, never above `fullVolume`.
    public func volume(at now: MonotonicInstant) -> Int {
        if now >= endsAt { return 0 }
        if now < fadeBeginsAt || fade == .zero { return fullVolume }
        let fraction = (endsAt - now) / fade
        let level = Int((Double(fullVolume) * fraction).rounded())
        return min(max(level, 0), fullVolume)
    }

    /// Time left at `now`; zero once finished.
    public func remaining(at now: MonotonicInstant) -> Duration {
        max(endsAt - now, .zero)
    }

    /// Whether the timer has run out at `now`.
    public func isFinished(at now: MonotonicInstant) -> Bool {
        now >= endsAt
    }

    /// Adds `extra` (the sleep button adds `buttonStep`). A running timer ends `extra` later, and its fade
    /// moves with the end: the fade window is again the last `requestedFade` (so a press during the fade
    /// brings the volume back up); a finished timer starts over from `now` for `extra`.
    /// A zero or negative `extra` changes nothing.
    public mutating func extend(by extra: Duration, at now: MonotonicInstant) {
        guard extra > .zero else { return }
        if isFinished(at: now) {
            startedAt = now
            duration = extra
        } else {
            duration += extra
        }
        fade = min(requestedFade, duration / 2)
    }

    /// Sets the volume before the fade to `level` (held to 0–100) — the volume buttons while a sleep timer
    /// plays. The countdown, the fade window and the fade asked for stay as they are; during the fade the
    /// level falls from the new volume.
    public mutating func setVolume(_ level: Int) {
        fullVolume = min(max(level, 0), 100)
    }

    /// Whether a sleep timer may start now. While an alarm rings it is refused with one sentence (R14):
    /// the sleep sound would otherwise replace or talk over the alarm.
    public static func decide(alarmRinging: Bool) -> SleepRequestDecision {
        alarmRinging ? .refused(refusedWhileAlarmRings) : .start
    }
}
