/// The wake-up check after a Stop (per alarm, off by default, `--wake-check 5m`): `after` the Stop, a soft chime and
/// "Are you up?" on the kiosk; any button, the kiosk, the phone page, MQTT or a shake answers it. Unanswered within
/// `answerWithin`, the alarm rings again from the bottom of its ladder. A Snooze is not a Stop (it arms no check); a
/// day off or skip-next rings nothing, so it stops nothing and arms nothing. Pure, on the monotonic clock (R8).
public struct WakeCheck: Hashable, Sendable {
    public enum Phase: Hashable, Sendable {
        /// Waiting to ask, until `until`.
        case waiting(until: MonotonicInstant)
        /// Asking since `since`; unanswered by `until`, the alarm rings again.
        case asking(since: MonotonicInstant, until: MonotonicInstant)
        /// The person answered: up.
        case woke
        /// Nobody answered: the alarm rang again.
        case fellAsleep
    }

    /// What the check asks of the clock.
    public enum Action: Hashable, Sendable {
        /// The soft chime and "Are you up?" (the kiosk's one large button; the `wake_check` event).
        case ask
        /// Answered: the day's history says `woke`; the question goes away.
        case woke
        /// Unanswered: the history says `fell back asleep`, and the alarm rings again from its ladder's bottom.
        case ringAgain
    }

    /// How long the question waits for its answer.
    public static let answerWithin: Duration = .seconds(60)
    /// The delays a check may have after a Stop.
    public static let afterRange = 60...3600

    public let alarmID: Int64
    public private(set) var phase: Phase

    /// A check armed by a Stop at `stoppedAt`, asking `after` later.
    public init(alarmID: Int64, after: Duration, stoppedAt: MonotonicInstant) {
        self.init(alarmID: alarmID, asksAt: stoppedAt + after)
    }

    /// A check that asks at `asksAt` (one stored before a restart, put back).
    public init(alarmID: Int64, asksAt: MonotonicInstant) {
        self.alarmID = alarmID
        phase = .waiting(until: asksAt)
    }

    /// Whether the check is done (answered, or rung again).
    public var isDone: Bool {
        switch phase {
        case .woke, .fellAsleep: true
        case .waiting, .asking: false
        }
    }

    /// When the check next changes by itself.
    public var nextChange: MonotonicInstant? {
        switch phase {
        case .waiting(let until): until
        case .asking(_, let until): until
        case .woke, .fellAsleep: nil
        }
    }

    /// The clock's turn at `now`.
    public mutating func tick(at now: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        if case .waiting(let until) = phase, now >= until {
            phase = .asking(since: until, until: until + WakeCheck.answerWithin)
            actions.append(.ask)
        }
        if case .asking(_, let until) = phase, now >= until {
            phase = .fellAsleep
            actions.append(.ringAgain)
        }
        return actions
    }

    /// A person answered at `now` (any button, the kiosk, the phone page, MQTT, a shake). Before the question is
    /// asked an answer is early and changes nothing — the check still asks; once done, nothing either.
    public mutating func answered(at now: MonotonicInstant) -> [Action] {
        let due = tick(at: now)
        guard case .asking = phase else { return due }
        phase = .woke
        return due + [.woke]
    }
}
