public import AubadeCore

/// Shakes from an accelerometer: its readings at `rateHz` through the pure `ShakeDetector`.
public struct AccelerometerShakeSensor: ShakeSensor {
    public let accelerometer: any Accelerometer
    public let settings: ShakeSettings
    public let rateHz: Int

    public init(accelerometer: any Accelerometer, settings: ShakeSettings = ShakeSettings(), rateHz: Int = 50) {
        self.accelerometer = accelerometer
        self.settings = settings
        self.rateHz = rateHz
    }

    public var description: String { accelerometer.description }

    public func shakes() -> AsyncStream<Duration> {
        let (stream, continuation) = AsyncStream<Duration>.makeStream()
        let readings = accelerometer.readings(rateHz: rateHz)
        let settings = self.settings
        let task = Task {
            var detector = ShakeDetector(settings: settings)
            for await reading in readings where detector.process(reading) {
                continuation.yield(reading.time)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
