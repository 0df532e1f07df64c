public import AubadeCore
public import Logging

/// Shakes from a vibration switch (e.g. an SW-420 module) on a GPIO line: every edge is a pulse, counted by
/// the pure `VibrationShakeDetector`. The line is requested only while the stream lives. A line that
/// cannot be requested logs one warning and the stream stays silent.
public struct VibrationSwitchShakeSensor: ShakeSensor {
    public let gpio: any GPIOPort
    public let line: GPIOLineRequest
    public let settings: ShakeSettings
    public let logger: Logger

    public init(gpio: any GPIOPort, line: GPIOLineRequest, settings: ShakeSettings = ShakeSettings(), logger: Logger) {
        self.gpio = gpio
        self.line = line
        self.settings = settings
        self.logger = logger
    }

    public var description: String { "vibration switch on GPIO line \(line.address)" }

    public func shakes() -> AsyncStream<Duration> {
        let (stream, continuation) = AsyncStream<Duration>.makeStream()
        let (gpio, line, settings, logger) = (self.gpio, self.line, self.settings, self.logger)
        let task = Task {
            let watch: any GPIOWatch
            do throws(GPIOError) {
                watch = try await gpio.watch([line]).watch
            } catch {
                logger.warning("Shake sensing is off: \(error.message)")
                return  // the stream stays open and silent until ended
            }
            await withTaskCancellationHandler {
                var detector = VibrationShakeDetector(settings: settings)
                for await event in watch.events where !event.isInitial && detector.pulse(at: event.time) {
                    continuation.yield(event.time)
                }
                if let failure = watch.failure { logger.warning("Shake sensing stopped: \(failure.message)") }
            } onCancel: {
                watch.stop()
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
