public import Foundation

/// The `kind` words the alarm engine and the daemon write into the event history.
public enum HistoryKind: String, CaseIterable, Sendable {
    /// Rang at its time.
    case rang
    /// Rang after a restart or a clock step, later than its time but within the catch-up window (R6).
    case rangLate = "rang-late"
    /// Rang again after a restart interrupted it (R9).
    case resumed
    /// Snoozed; `detail` says which snooze of how many.
    case snoozed
    /// A snooze was asked for after all snoozes were used; it kept ringing.
    case snoozeRefused = "snooze-refused"
    /// Rang again at the end of its snooze.
    case snoozeEnded = "snooze-ended"
    /// Stopped by the user; `detail` names the input (`HistoryDetail.dismissed(by:)`), e.g. "by=button".
    case dismissed
    /// Silenced itself after its duration (R12).
    case autoSilenced = "auto-silenced"
    /// Due longer ago than the catch-up window: reported, never rung (R6).
    case missed
    /// Passed over because of skip-next.
    case skipped
    /// Its own next occurrence took over while it rang or was snoozed. (Before ringing groups, R38, another
    /// alarm could also take over; older histories say "alarm N took over".)
    case superseded
    /// A pending ring or snooze was dropped by an edit, a disable or a removal (R10).
    case cancelled
    /// The wall clock stepped (R5); `detail` says by how much.
    case clockStep = "clock-step"
    /// The clock's time zone changed; `detail` names the old and the new zone.
    case timeZoneChanged = "time-zone-changed"

    // Written by the daemon (issue 6); the details follow `HistoryDetail` so the morning report can read them.

    /// Sound verifiably reached the device (R16); `detail` is `HistoryDetail.audible(after:)`, e.g. "after_ms=850".
    case audible
    /// When the alarm's first frame reached the card, against its second; `detail` is
    /// `HistoryDetail.onset(late:timing:)`, e.g. "late_ms=3 by=device".
    case onset
    /// The alarm fell back (station → alternate → tone, R16); `detail` is `HistoryDetail.fallback(to:reason:)`.
    case fallback
    /// Back on the station after a fallback, once its audio was good again (R16).
    case recovered
    /// Something that may stop an alarm being heard but does not silence it (Wi-Fi-only, clock unsynchronised).
    case warning
    /// The pre-alarm check at T−5 min failed (R20); `detail` says why. The fallback is pre-selected.
    case precheckFailed = "precheck-failed"
    /// The pre-alarm check at T−5 min passed (R20).
    case precheckPassed = "precheck-passed"
    /// A reserved programme started: the chime played and the radio tuned to its station.
    case reservationStarted = "reservation-started"
    /// A sleep timer started; `detail` says for how long and what plays.
    case sleepStarted = "sleep-started"
    /// A sleep timer ended (ran out, cancelled, or refused to play over an alarm).
    case sleepEnded = "sleep-ended"
    /// The daemon did not make an occurrence heard within the grace and the second waker rang it (R35);
    /// `detail` names the occurrence ("due …") and how the waker's ring ended ("end=stop by=button",
    /// "end=snooze", "end=duration", "end=daemon" when the daemon took it over).
    case secondWaker = "second-waker"

    // An unanswered alarm's ladder (`WakeLadder`).

    /// It climbed a step; `detail` is "to=louder round=0" (`HistoryDetail.climbed(to:round:)`).
    case climbed
    /// The microphone did not hear it in the room; `detail` says why ("not heard in the room: …").
    case notHeard = "not-heard"
    /// The top of its ladder rang unanswered: the outputs on, the `unanswered` notice; `detail` "round=0".
    case escalated
    /// It rested between rounds of its ladder; `detail` "round 1 in 5m".
    case rested
    /// The last round of its ladder rang unanswered: it stopped. With the ladder off, `auto-silenced` instead.
    case unanswered

    // The wake-up check after a Stop (`WakeCheck`).

    /// "Are you up?" was asked (the soft chime, the kiosk's question, the `wake_check` event).
    case wakeCheck = "wake-check"
    /// The person answered the wake-up check; `detail` names the input ("by=button").
    case woke
    /// Nobody answered the wake-up check within a minute: the alarm rang again from its ladder's bottom.
    case fellBackAsleep = "fell-back-asleep"

    // The microphone's daily self-test (`SelfTestSchedule`): no alarm; `detail` is the room check's reason.

    /// Its quiet chirp was heard in the room; `detail` e.g. "heard in the room: the tone's frequencies in …".
    case selfTestHeard = "self-test-heard"
    /// Its chirp was not heard, or the microphone could not be used; `detail` e.g. "not heard in the room: …",
    /// "no microphone: …".
    case selfTestNotHeard = "self-test-not-heard"
}

extension HistoryEvent {
    /// An event of the alarm engine or the daemon.
    public init(at: Date, alarmID: Int64?, kind: HistoryKind, detail: String = "") {
        self.init(at: at, alarmID: alarmID, kind: kind.rawValue, detail: detail)
    }
}
