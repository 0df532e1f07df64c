/// One level change of a button as the GPIO adapter saw it, before debouncing.
///
/// `time` is the kernel's event timestamp (libgpiod v1 on Linux ≥ 5.7: `CLOCK_MONOTONIC`), as a duration
/// since that clock's origin. Everything that compares times with it (`ButtonPanel.tick`, the alarm engine's
/// held-at-start rule through `DaemonClock`) must use the same clock.
public struct ButtonEdge: Hashable, Sendable {
    public var role: ButtonRole
    /// The logical level after the change: true = pressed (active-low is already applied by the adapter).
    public var pressed: Bool
    public var time: Duration
    /// True for the level read when the line was requested: it sets the starting state, it is not a change.
    /// A button that is already down at that moment counts as held (it must be released first).
    public var isInitial: Bool

    public init(role: ButtonRole, pressed: Bool, time: Duration, isInitial: Bool = false) {
        self.role = role
        self.pressed = pressed
        self.time = time
        self.isInitial = isInitial
    }
}
