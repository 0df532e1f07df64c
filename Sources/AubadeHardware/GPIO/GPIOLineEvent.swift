/// One edge of a watched line, or its level when the watch began.
public struct GPIOLineEvent: Hashable, Sendable {
    /// The line's position in the list given to `GPIOPort.watch`.
    public var index: Int
    /// The logical level after the edge (active-low already applied): true = active / pressed.
    public var active: Bool
    /// The kernel's timestamp (`CLOCK_MONOTONIC` on Linux ≥ 5.7), or `MonotonicClock.now()` for the
    /// initial level.
    public var time: Duration
    /// The level read right after the request, not an edge.
    public var isInitial: Bool

    public init(index: Int, active: Bool, time: Duration, isInitial: Bool = false) {
        self.index = index
        self.active = active
        self.time = time
        self.isInitial = isInitial
    }
}
