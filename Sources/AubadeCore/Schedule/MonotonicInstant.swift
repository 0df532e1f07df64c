/// A reading of a monotonic clock: time since an arbitrary origin (e.g. boot), never stepped.
///
/// The engine only compares and subtracts readings, so any origin works; the daemon maps its
/// `ContinuousClock` onto this, tests construct readings directly (docs/HOUSE-RULES.md §3).
public struct MonotonicInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Time since the clock's origin.
    public var sinceOrigin: Duration

    /// A reading `sinceOrigin` after the clock's origin.
    public init(_ sinceOrigin: Duration) {
        self.sinceOrigin = sinceOrigin
    }

    /// A reading `seconds` after the origin.
    public init(seconds: Double) {
        self.sinceOrigin = .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// Earlier readings order first.
    public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool { a.sinceOrigin < b.sinceOrigin }

    /// The reading `d` later.
    public static func + (a: MonotonicInstant, d: Duration) -> MonotonicInstant { MonotonicInstant(a.sinceOrigin + d) }

    /// The reading `d` earlier.
    public static func - (a: MonotonicInstant, d: Duration) -> MonotonicInstant { MonotonicInstant(a.sinceOrigin - d) }

    /// The time from `b` to `a` (negative when `a` is earlier).
    public static func - (a: MonotonicInstant, b: MonotonicInstant) -> Duration { a.sinceOrigin - b.sinceOrigin }

    /// "mono+12.5 seconds", for logs and test failures.
    public var description: String { "mono+\(sinceOrigin)" }
}

extension Duration {
    /// This duration in seconds, as a floating-point number.
    public var inSeconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) / 1e18
    }

    /// A duration of `seconds` (fractional) seconds, to the millisecond.
    public static func seconds(exactly seconds: Double) -> Duration {
        .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
