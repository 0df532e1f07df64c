/// Turns the debounced presses and releases of one button into short and long presses.
///
/// - A press released before `longPress` is a short press, reported at the release.
/// - A press held for `longPress` is a long press, reported as soon as the owner's `tick(at:)` reaches
///   `deadline` (or at the release, whichever comes first) — the user need not let go to get it.
/// - Every press carries when the button went down (`pressedAt`): the alarm engine ignores a press that
///   began before the alarm started (held-at-start, R15) — that rule lives there alone.
/// - A button already down when its line was requested (`initiallyHeld`) counts only after a release.
///
/// Pure; times are the kernel's event clock (see `ButtonEdge`).
public struct PressClassifier: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, Codable {
        case short, long
    }

    public struct Press: Hashable, Sendable {
        public var kind: Kind
        /// When it was recognised: the release for a short press, the threshold (or release) for a long one.
        public var time: Duration
        /// When the button went down: what the alarm engine compares with an alarm's start (R15).
        public var pressedAt: Duration

        public init(kind: Kind, time: Duration, pressedAt: Duration? = nil) {
            self.kind = kind
            self.time = time
            self.pressedAt = pressedAt ?? time
        }
    }

    private enum State: Hashable, Sendable {
        case up
        case down(since: Duration, longReported: Bool)
        /// Down since the line was requested (a stuck button): ignored until released.
        case held
    }

    public let longPress: Duration
    private var state: State = .up

    /// `initiallyHeld`: the button was already down when its line was requested.
    public init(longPress: Duration, initiallyHeld: Bool = false) {
        self.longPress = longPress
        state = initiallyHeld ? .held : .up
    }

    /// True while the button is down and being ignored (held at start).
    public var isIgnoringHeldPress: Bool { state == .held }

    /// When a long press will be reported if the button stays down; nil otherwise.
    public var deadline: Duration? {
        if case .down(let since, false) = state { return since + longPress }
        return nil
    }

    public mutating func pressed(at time: Duration) -> [Press] {
        switch state {
        case .up:
            state = .down(since: time, longReported: false)
        case .down, .held:
            break  // a second press without a release cannot happen after the debouncer; keep the first
        }
        return []
    }

    public mutating func released(at time: Duration) -> [Press] {
        defer { state = .up }
        guard case .down(let since, let longReported) = state, !longReported else { return [] }
        return [Press(kind: time - since >= longPress ? .long : .short, time: time, pressedAt: since)]
    }

    public mutating func tick(at now: Duration) -> [Press] {
        guard case .down(let since, false) = state, now - since >= longPress else { return [] }
        state = .down(since: since, longReported: true)
        return [Press(kind: .long, time: since + longPress, pressedAt: since)]
    }

}
