/// One accelerometer sample in m/s², with the time it was taken (monotonic, as a duration since the
/// sampling clock's origin).
public struct AccelerationSample: Hashable, Sendable {
    public var time: Duration
    public var x: Double
    public var y: Double
    public var z: Double

    public init(time: Duration, x: Double, y: Double, z: Double) {
        self.time = time
        self.x = x
        self.y = y
        self.z = z
    }

    /// |a| in m/s²; about 9.81 at rest.
    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }
}

/// What a sensor read gave: a sample, or a failure (I/O error, unparsable value, dropped events).
/// A failure always counts as "no movement" (R15).
public enum AccelerationReading: Hashable, Sendable {
    case sample(AccelerationSample)
    case failed(time: Duration, reason: String)

    public var time: Duration {
        switch self {
        case .sample(let s): s.time
        case .failed(let time, _): time
        }
    }
}
