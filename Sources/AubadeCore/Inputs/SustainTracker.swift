/// Decides when movement has lasted long enough to be a shake: activity must continue for `sustain`,
/// gaps of at most `toleratedDip` are bridged (a shaking hand pauses at each turn), and a longer gap starts
/// over. After a shake has fired it stays latched while the movement goes on; a new shake needs a pause
/// longer than `toleratedDip` and another `sustain` of movement.
///
/// Pure: fed one observation at a time with its (non-decreasing) time.
public struct SustainTracker: Hashable, Sendable {
    private enum State: Hashable, Sendable {
        case quiet
        case moving(since: Duration, lastActive: Duration)
        case fired(lastActive: Duration)
    }

    public let sustain: Duration
    public let toleratedDip: Duration
    private var state: State = .quiet

    public init(sustain: Duration, toleratedDip: Duration) {
        self.sustain = sustain
        self.toleratedDip = toleratedDip
    }

    /// How long the current movement has lasted at `time`; zero when quiet or latched.
    public func movingFor(at time: Duration) -> Duration {
        if case .moving(let since, _) = state { return time - since }
        return .zero
    }

    /// Records whether there was movement at `time`; returns true exactly when a shake is recognised.
    public mutating func update(active: Bool, at time: Duration) -> Bool {
        switch state {
        case .quiet:
            if active { state = .moving(since: time, lastActive: time) }
        case .moving(let since, let last):
            if time - last > toleratedDip {
                state = active ? .moving(since: time, lastActive: time) : .quiet
            } else if active {
                state = .moving(since: since, lastActive: time)
            }
        case .fired(let last):
            if time - last > toleratedDip {
                state = active ? .moving(since: time, lastActive: time) : .quiet
            } else if active {
                state = .fired(lastActive: time)
            }
        }
        if case .moving(let since, let last) = state, last == time, time - since >= sustain {
            state = .fired(lastActive: time)
            return true
        }
        return false
    }

    public mutating func reset() {
        state = .quiet
    }
}
