/// How an output line is driven while it is on (`[outputs.<name>] pattern`): `steady`, or pulses of `on`
/// milliseconds active then `off` milliseconds inactive, starting active, for as long as it is on. Text form:
/// "steady" or "<on>/<off>" in milliseconds ("500/500").
public enum OutputPattern: Hashable, Sendable, CustomStringConvertible {
    case steady
    case pulse(onMilliseconds: Int, offMilliseconds: Int)

    /// Each half of a pulse lasts 50 ms (a relay or motor still follows) to 60 s.
    public static let halfRange = 50...60_000

    /// A pulse with both halves held to `halfRange`.
    public static func pulsing(on: Int, off: Int) -> OutputPattern {
        func held(_ ms: Int) -> Int { min(max(ms, halfRange.lowerBound), halfRange.upperBound) }
        return .pulse(onMilliseconds: held(on), offMilliseconds: held(off))
    }

    public var description: String {
        switch self {
        case .steady: "steady"
        case .pulse(let on, let off): "\(on)/\(off)"
        }
    }

    /// Reads what `description` writes ("steady", "500/500", spaces allowed around the slash); anything else
    /// is refused in one sentence.
    public init(parsing text: String) throws(ValidationError) {
        let t = text.trimmingSpaces.lowercased()
        if t == "steady" {
            self = .steady
            return
        }
        let parts = t.split(separator: "/", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        let r = OutputPattern.halfRange
        guard parts.count == 2, let on = Int(parts[0]), let off = Int(parts[1]), r.contains(on), r.contains(off) else {
            throw ValidationError(
                "An output's pattern is \"steady\" or on/off milliseconds from \(r.lowerBound) to \(r.upperBound) like \"500/500\", not '\(text)'."
            )
        }
        self = .pulse(onMilliseconds: on, offMilliseconds: off)
    }

    /// The level `elapsed` after the line was switched on: true is active. Before the switch (negative
    /// `elapsed`) it is inactive.
    public func isActive(after elapsed: Duration) -> Bool {
        guard elapsed >= .zero else { return false }
        switch self {
        case .steady:
            return true
        case .pulse(let on, let off):
            let period = Int64(on + off)
            return OutputPattern.milliseconds(elapsed) % period < Int64(on)
        }
    }

    /// How long after the switch the level next changes, strictly after `elapsed`; nil when it never does
    /// (steady, once on).
    public func nextChange(after elapsed: Duration) -> Duration? {
        guard elapsed >= .zero else { return .zero }
        switch self {
        case .steady:
            return nil
        case .pulse(let on, let off):
            let period = Int64(on + off)
            let ms = OutputPattern.milliseconds(elapsed)
            let start = ms - ms % period
            let edge = ms % period < Int64(on) ? start + Int64(on) : start + period
            return .milliseconds(edge)
        }
    }

    /// Whole milliseconds in a non-negative duration, rounded down.
    static func milliseconds(_ d: Duration) -> Int64 {
        let (seconds, attoseconds) = d.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
