/// Port: "the clock was shaken", from whichever source the config names. Implementations: in AubadeHardware
/// `AccelerometerShakeSensor` (IIO or evdev, through `ShakeDetector`) and `VibrationSwitchShakeSensor` (a GPIO
/// line, through `VibrationShakeDetector`); `NullShakeSensor` here; `FakeShakeSensor` (AubadeTesting).
///
/// Contract: `shakes()` starts sensing and yields the time (`CLOCK_MONOTONIC`) of each recognised shake.
/// The sensor is sampled only while the stream lives — the service iterates it only while an alarm rings —
/// and when the stream terminates (the iterating task is cancelled, or the stream is released) sampling
/// stops. It never throws: a sensor that fails yields nothing (R15: an error is no shake); a source that
/// cannot start at all logs one warning.
public protocol ShakeSensor: Sendable {
    var description: String { get }
    func shakes() -> AsyncStream<Duration>
}

/// No shake source: the stream stays silent until ended.
public struct NullShakeSensor: ShakeSensor {
    public init() {}

    public var description: String { "no shake sensor" }

    public func shakes() -> AsyncStream<Duration> {
        AsyncStream { _ in }
    }
}
