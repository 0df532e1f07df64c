/// One output line's level over time, as a pure state machine on the monotonic clock: off, or on since an
/// instant and following its `OutputPattern` from that instant. The driver of the line asks it what level to
/// set now and when to look again; nothing here reads a clock.
///
/// Promises (property-tested): while off, the line is inactive at every instant; switched on, it starts
/// active; a pulse is active exactly `on` ms then inactive exactly `off` ms, for as long as it is on; switching
/// on again while on keeps the phase (a second request does not stretch a pulse); switching off is inactive at
/// once and for good, until the next switch on.
public struct OutputWave: Hashable, Sendable {
    public var pattern: OutputPattern
    /// When it was switched on; nil while off.
    public private(set) var onSince: MonotonicInstant?

    public init(pattern: OutputPattern) {
        self.pattern = pattern
    }

    public var isOn: Bool { onSince != nil }

    /// Switches it on at `now` (a line already on keeps its phase).
    public mutating func switchOn(at now: MonotonicInstant) {
        if onSince == nil { onSince = now }
    }

    /// Switches it off: inactive from now on.
    public mutating func switchOff() {
        onSince = nil
    }

    /// The level the line must have at `now`: true is active.
    public func isActive(at now: MonotonicInstant) -> Bool {
        guard let onSince else { return false }
        return pattern.isActive(after: now - onSince)
    }

    /// The next instant after `now` at which the level changes; nil when it does not change by itself (off,
    /// or steady).
    public func nextChange(after now: MonotonicInstant) -> MonotonicInstant? {
        guard let onSince else { return nil }
        return pattern.nextChange(after: now - onSince).map { onSince + $0 }
    }
}
