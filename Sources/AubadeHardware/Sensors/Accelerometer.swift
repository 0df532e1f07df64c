public import AubadeCore

/// Port: a three-axis accelerometer giving m/s². Implementations: `IIOAccelerometer` (Linux IIO sysfs),
/// `EvdevAccelerometer` (an input device reporting ABS_X/Y/Z), `NullAccelerometer`, `FakeAccelerometer`.
///
/// Contract:
/// - Never throws and never crashes on a bad sensor: every failure (missing file, I/O error, garbage
///   value, dropped events) is an `AccelerationReading.failed` with a reason, which the shake detector
///   counts as "no movement" (R15).
/// - `readOnce(timeout:)` blocks the calling thread for one read (an I2C transfer for IIO; up to `timeout`
///   for an evdev device that has not reported yet). Call it from a CLI or a dedicated thread, never from the
///   cooperative pool.
/// - `readings(rateHz:)` samples on a dedicated thread that exists only while the stream lives: when the
///   stream terminates (the iterating task is cancelled, or the last reference to the stream is released)
///   the thread ends within one sample period (200 ms for evdev). IIO is sampled at
///   `rateHz`; an evdev device reports at its own rate. Times are `CLOCK_MONOTONIC` (`MonotonicClock`).
public protocol Accelerometer: Sendable {
    /// What is being read, for messages: "IIO accelerometer /sys/bus/iio/devices/iio:device0 (mpu6050)".
    var description: String { get }
    func readOnce(timeout: Duration) -> AccelerationReading
    func readings(rateHz: Int) -> AsyncStream<AccelerationReading>
}

/// No accelerometer: reads fail with one reason, and the stream yields nothing until it is ended.
public struct NullAccelerometer: Accelerometer {
    public let reason: String

    public init(reason: String = "no accelerometer is configured") {
        self.reason = reason
    }

    public var description: String { "no accelerometer" }

    public func readOnce(timeout: Duration) -> AccelerationReading {
        .failed(time: MonotonicClock.now(), reason: reason)
    }

    public func readings(rateHz: Int) -> AsyncStream<AccelerationReading> {
        AsyncStream { _ in }
    }
}
