import AubadeCore
import AubadeHardware
import AubadeHardwareTesting
import AubadeTesting
import Foundation
import Logging
import Testing

/// The shake port: accelerometer and vibration-switch sources through the pure detectors, sensing only
/// while listened to, and failures as "no shake".
@Suite("Shake sensors")
struct ShakeSensorTests {
    static let g = ShakeSettings.gravity

    /// 50 Hz: `rest` seconds still, then `shake` seconds of a 4 Hz, 12 m/s² side-to-side shake.
    static func trace(rest: Double, shake: Double) -> [AccelerationReading] {
        let n = Int((rest + shake) * 50)
        return (0..<n).map { i in
            let t = Double(i) / 50
            let x = t < rest ? 0 : 12 * sin(2 * .pi * 4 * (t - rest))
            return .sample(AccelerationSample(time: .seconds(t), x: x, y: 0.2, z: g))
        }
    }

    @Test func anAccelerometerShakeIsReportedOnceAndSamplingStopsWithTheListener() async {
        let fake = FakeAccelerometer(trace: Self.trace(rest: 1, shake: 2.5))
        let sensor = AccelerometerShakeSensor(accelerometer: fake)
        #expect(fake.streamsStarted == 0)  // nothing is sampled until someone listens
        // One shake, then half a second in which a second one (there is none) would show.
        let shakes = await collect(sensor.shakes(), count: 1, thenQuietFor: .milliseconds(500))
        #expect(shakes.count == 1)
        #expect(shakes.allSatisfy { $0 >= .milliseconds(2500) && $0 <= .seconds(3) })
        #expect(await eventually { fake.streamsEnded == 1 })
        #expect(fake.streamsStarted == 1)
    }

    @Test func aFailingAccelerometerIsNoShake() async {
        let failing = FakeAccelerometer(trace: (0..<500).map { .failed(time: .milliseconds($0 * 20), reason: "EIO") })
        let shakes = await collect(
            AccelerometerShakeSensor(accelerometer: failing).shakes(), count: 1,
            timeout: .milliseconds(300))
        #expect(shakes.isEmpty)
        let none = await collect(
            AccelerometerShakeSensor(accelerometer: NullAccelerometer()).shakes(), count: 1,
            timeout: .milliseconds(100))
        #expect(none.isEmpty)
    }

    @Test func theSensitivityIsASetting() async {
        let fake = FakeAccelerometer(trace: Self.trace(rest: 0, shake: 3))
        let deaf = AccelerometerShakeSensor(accelerometer: fake, settings: ShakeSettings(threshold: 20))
        #expect(await collect(deaf.shakes(), count: 1, timeout: .milliseconds(300)).isEmpty)
    }

    static let line = GPIOLineRequest(label: "shake", address: .named("GPIO24"), activeLow: false, bias: .asIs)

    @Test func aVibrationSwitchShakeIsPulsesSustained() async {
        let gpio = FakeGPIO(lines: [.init(offset: 24, name: "GPIO24")])
        let sensor = VibrationSwitchShakeSensor(gpio: gpio, line: Self.line, logger: Logger(label: "test"))
        let pulses = Task {
            _ = await eventually { !gpio.watches.isEmpty }
            for i in 0..<40 { gpio.emit(label: "shake", active: i % 2 == 0, at: .milliseconds(1000 + i * 50)) }
        }
        let shakes = await collect(sensor.shakes(), count: 1)  // the stream is released after
        await pulses.value
        #expect(shakes.count == 1)
        #expect(shakes.allSatisfy { $0 >= .milliseconds(2500) })
        #expect(await eventually { gpio.watches.last?.isStopped == true })  // released when nobody listens
    }

    @Test func aKnockOnTheVibrationSwitchIsNot() async {
        let gpio = FakeGPIO(lines: [.init(offset: 24, name: "GPIO24")])
        let stream = VibrationSwitchShakeSensor(gpio: gpio, line: Self.line, logger: Logger(label: "test")).shakes()
        let pulses = Task {
            _ = await eventually { !gpio.watches.isEmpty }
            for i in 0..<30 { gpio.emit(label: "shake", active: i % 2 == 0, at: .milliseconds(1000 + i * 3)) }
        }
        let shakes = await collect(stream, count: 1, timeout: .milliseconds(400))
        await pulses.value
        #expect(shakes.isEmpty)
    }

    @Test func aMissingVibrationSwitchLineIsSilentNotACrash() async {
        let sensor = VibrationSwitchShakeSensor(gpio: LibGPIOD(), line: Self.line, logger: Logger(label: "test"))
        #expect(await collect(sensor.shakes(), count: 1, timeout: .milliseconds(300)).isEmpty)
    }

    @Test func theFakeSensorReachesEveryListenerWhileTheyListen() async {
        let fake = FakeShakeSensor()
        do {
            let first = fake.shakes()
            let second = fake.shakes()
            #expect(fake.listenerCount == 2)
            fake.shake(at: .seconds(7))
            #expect(await collect(first, count: 1) == [.seconds(7)])
            #expect(await collect(second, count: 1) == [.seconds(7)])
        }
        #expect(await eventually { fake.listenerCount == 0 })  // both streams were released
        #expect(NullShakeSensor().description == "no shake sensor")
    }
}
