/// The steps of an unanswered alarm's climb, from its own sound to everything the clock has.
public enum LadderStep: Int, Hashable, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// The alarm's sound at its volume and fade-in.
    case own
    /// The same sound, `LadderPlan.louderDB` louder (up to full volume).
    case louder
    /// The fallback tone at full volume.
    case tone
    /// The tone at full volume with the outputs on (a bed shaker, a lamp): the top.
    case everything

    public static func < (a: LadderStep, b: LadderStep) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .own: "own"
        case .louder: "louder"
        case .tone: "tone"
        case .everything: "tone and outputs"
        }
    }
}

/// What the ladder asks of the clock.
public enum LadderAction: Hashable, Sendable {
    /// Sound at `step` now (the clock's runner knows what each step plays).
    case sound(LadderStep)
    /// The outputs on (the top step) or off (a rest, a person's touch, the end).
    case outputs(on: Bool)
    /// The top was reached unanswered in `round` (0: the first climb): the `unanswered` event — Home Assistant can
    /// call a phone.
    case unanswered(round: Int)
    /// Silence until `until`, then round `round` rings: a snooze the clock takes by itself.
    case rest(until: MonotonicInstant, round: Int)
    /// Round `round` rings (at the top step).
    case ringAgain(round: Int)
    /// The last round rang unanswered: the alarm stops, `unanswered`.
    case gaveUp
}

/// One ringing occurrence's climb, on the monotonic clock (R8). Pure: the clock hands it the readings of its turns
/// and a person's touches and carries out what it returns. While it rings, each step lasts `stepSeconds`
/// unanswered before the next; at the top it rings one step more, then rests `gapSeconds` and rings again at the
/// top, `rounds` times; after the last it gives up. A person's touch, button or volume-down while it rings resets the
/// climb to the alarm's own sound — it never fights a person who is awake. It is never silent before the last round
/// has rung, except in its rests, each of which ends in a ring.
public struct WakeLadder: Hashable, Sendable {
    public enum Phase: Hashable, Sendable {
        /// Ringing at `step` since `since`.
        case ringing(LadderStep, since: MonotonicInstant)
        /// Silent until `until`, before round `round`.
        case resting(until: MonotonicInstant, round: Int)
        /// Done: the last round rang unanswered.
        case over
    }

    public let plan: LadderPlan
    public private(set) var phase: Phase
    /// 0 for the first climb, then each round that rings again.
    public private(set) var round = 0

    /// A climb that begins at the alarm's own sound at `start`.
    public init(plan: LadderPlan, start: MonotonicInstant) {
        self.plan = plan
        phase = .ringing(.own, since: start)
    }

    private var step: Duration { .seconds(plan.stepSeconds) }

    /// The clock's turn at `now`: every change due by then, in order (a turn late by several steps climbs through
    /// each, so none is skipped in the history). `throughRests` false stops at a rest: the alarm engine ends a rest
    /// through its own snooze deadline, which then calls `tick` again.
    public mutating func tick(at now: MonotonicInstant, throughRests: Bool = true) -> [LadderAction] {
        guard plan.enabled else { return [] }
        var actions: [LadderAction] = []
        while let due = nextChange, due <= now {
            if !throughRests, case .resting = phase { break }
            actions += advance(at: due)
        }
        return actions
    }

    /// When the ladder next changes by itself (nil: over, or turned off).
    public var nextChange: MonotonicInstant? {
        guard plan.enabled else { return nil }
        switch phase {
        case .ringing(_, let since): return since + step
        case .resting(let until, _): return until
        case .over: return nil
        }
    }

    /// A person touched the kiosk, pressed a button (not Stop or Snooze: those end the ring) or turned the volume
    /// down while it rings: after what was due by `now`, the climb goes back to the alarm's own sound, from `now`.
    /// While it rests, or once it is over, a touch changes nothing.
    public mutating func personActed(at now: MonotonicInstant) -> [LadderAction] {
        let due = tick(at: now)
        guard plan.enabled, case .ringing(let current, _) = phase else { return due }
        phase = .ringing(.own, since: now)
        guard current != .own else { return due }
        return due + (current == .everything ? [.outputs(on: false)] : []) + [.sound(.own)]
    }

    /// The microphone did not hear the alarm in the room at `now` (an amplifier off, a speaker unplugged): after what
    /// was due, the next step at once, from `now` — a sleeper who cannot hear it gets the next thing the clock has
    /// sooner. At the top, while it rests, or once it is over, nothing: the top already has everything.
    public mutating func notHeard(at now: MonotonicInstant) -> [LadderAction] {
        let due = tick(at: now)
        guard plan.enabled, case .ringing(let current, _) = phase, current < .everything else { return due }
        return due + advance(at: now)
    }

    /// Whether the alarm should be sounding now (false while it rests and once it is over).
    public var sounding: Bool {
        if case .ringing = phase { return true }
        return false
    }

    /// Whether it rests between rounds.
    public var resting: Bool {
        if case .resting = phase { return true }
        return false
    }

    private mutating func advance(at due: MonotonicInstant) -> [LadderAction] {
        switch phase {
        case .ringing(let current, _):
            guard let next = LadderStep(rawValue: current.rawValue + 1) else {
                // The top has rung its step: rest before the next round, or give up after the last.
                guard round < plan.rounds else {
                    phase = .over
                    return [.outputs(on: false), .gaveUp]
                }
                let until = due + .seconds(plan.gapSeconds)
                phase = .resting(until: until, round: round + 1)
                return [.outputs(on: false), .rest(until: until, round: round + 1)]
            }
            phase = .ringing(next, since: due)
            return next == .everything ? [.sound(.everything), .outputs(on: true), .unanswered(round: round)] : [.sound(next)]
        case .resting(_, let next):
            round = next
            phase = .ringing(.everything, since: due)
            return [.ringAgain(round: next), .sound(.everything), .outputs(on: true)]
        case .over:
            return []
        }
    }
}
