/// Contact-bounce filter for one button: a level is accepted only once the line has stayed at it for
/// `window` with no edge at all ("settle" debouncing). A glitch shorter than the window is ignored, a
/// bouncing press is reported once, and the reported time is that of the last edge before the line settled.
///
/// Pure: time comes in with each edge (the kernel's timestamp) and with `tick(at:)`; the owner calls
/// `tick(at:)` at `deadline` so that a change is reported without waiting for the next edge.
/// Edges reporting the level the line already has (the kernel reads the level after the interrupt, so a
/// fast bounce can show up as two equal edges) still restart the settle time: the line moved.
public struct Debouncer: Hashable, Sendable {
    /// A debounced change of level.
    public struct Change: Hashable, Sendable {
        public var pressed: Bool
        public var time: Duration

        public init(pressed: Bool, time: Duration) {
            self.pressed = pressed
            self.time = time
        }
    }

    public let window: Duration
    /// The accepted level.
    public private(set) var level: Bool
    private var rawLevel: Bool
    private var lastEdge: Duration

    public init(window: Duration, level: Bool = false, at time: Duration = .zero) {
        self.window = max(window, .zero)
        self.level = level
        self.rawLevel = level
        self.lastEdge = time
    }

    /// When a pending change will be accepted if no further edge arrives; nil when the line is settled.
    public var deadline: Duration? {
        rawLevel == level ? nil : lastEdge + window
    }

    /// Feeds one raw edge. Returns the change accepted before it (a pending level that had settled by
    /// `time`) and, with a zero window, the edge's own change. Out-of-order times are clamped forward.
    public mutating func edge(pressed: Bool, at time: Duration) -> [Change] {
        var out: [Change] = []
        if let matured = settle(at: time) { out.append(matured) }
        rawLevel = pressed
        lastEdge = max(time, lastEdge)
        if let now = settle(at: lastEdge) { out.append(now) }
        return out
    }

    /// Reports the pending change if the line has been quiet for `window` by `now`.
    public mutating func tick(at now: Duration) -> Change? {
        settle(at: now)
    }

    /// Forgets any pending change and takes `level` as the settled state (the level read at request time).
    public mutating func reset(level: Bool, at time: Duration) {
        self.level = level
        rawLevel = level
        lastEdge = time
    }

    private mutating func settle(at now: Duration) -> Change? {
        guard rawLevel != level, now >= lastEdge + window else { return nil }
        level = rawLevel
        return Change(pressed: level, time: lastEdge)
    }
}
