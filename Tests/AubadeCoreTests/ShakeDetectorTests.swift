import AubadeCore
import Foundation
import Testing

/// The shake detector on synthetic signals: each rule of its documentation, one at a time (R15).
@Suite("Shake detector: synthetic signals")
struct ShakeDetectorTests {
    static let g = ShakeSettings.gravity

    /// Samples at `rate` Hz from `start` for `seconds`, acceleration given by `f(t)` (seconds → x, y, z).
    static func signal(
        from start: Double = 0, seconds: Double, rate: Double = 50,
        _ f: (Double) -> (Double, Double, Double)
    ) -> [AccelerationReading] {
        (0..<Int((seconds * rate).rounded())).map { i in
            let t = start + Double(i) / rate
            let (x, y, z) = f(t)
            return .sample(AccelerationSample(time: .seconds(t), x: x, y: y, z: z))
        }
    }

    static func rest(from start: Double = 0, seconds: Double) -> [AccelerationReading] {
        signal(from: start, seconds: seconds) { _ in (0.2, -0.1, g) }
    }

    /// A side-to-side shake along x of amplitude `a` m/s² at `hz`.
    static func shake(
        from start: Double = 0, seconds: Double, hz: Double = 4, a: Double = 10,
        rate: Double = 50
    ) -> [AccelerationReading] {
        signal(from: start, seconds: seconds, rate: rate) { t in (a * sin(2 * .pi * hz * (t - start)), 0, g) }
    }

    /// The times (s) at which shakes were recognised.
    static func shakes(_ readings: [AccelerationReading], _ settings: ShakeSettings = ShakeSettings()) -> [Double] {
        var d = ShakeDetector(settings: settings)
        return readings.compactMap {
            d.process($0) ? Double($0.time.components.seconds) + Double($0.time.components.attoseconds) / 1e18 : nil
        }
    }

    @Test func aClockAtRestIsNeverShaken() {
        #expect(Self.shakes(Self.rest(seconds: 30)).isEmpty)
    }

    @Test(arguments: [20.0, 50.0, 100.0, 200.0])
    func aTwoSecondShakeIsRecognisedOnceAfterTheSustainTime(rate: Double) {
        let t = Self.shakes(Self.rest(seconds: 1) + Self.shake(from: 1, seconds: 2, rate: rate) + Self.rest(from: 3, seconds: 2))
        #expect(t.count == 1)
        #expect(t.allSatisfy { $0 >= 2.5 && $0 <= 3.0 })  // started at 1 s, sustain 1.5 s
    }

    @Test func aShakeShorterThanTheSustainTimeIsNot() {
        #expect(Self.shakes(Self.shake(seconds: 1.2) + Self.rest(from: 1.2, seconds: 2)).isEmpty)
    }

    @Test func movementBelowTheThresholdIsNot() {
        // Amplitude 4 m/s² is an RMS of 2.8 m/s², under the 4 m/s² threshold.
        #expect(Self.shakes(Self.shake(seconds: 10, a: 4)).isEmpty)
    }

    @Test func theThresholdAndSustainAreSettings() {
        let gentle = ShakeSettings(threshold: 2, sustain: .seconds(3))
        let trace = Self.shake(seconds: 4, a: 4)
        let t = Self.shakes(trace, gentle)
        #expect(t.count == 1 && t[0] >= 3)
        #expect(Self.shakes(Self.shake(seconds: 2.5, a: 4), gentle).isEmpty)
    }

    @Test func aSingleSpikeDoesNothingAtAll() {
        var trace = Self.rest(seconds: 3)
        trace[75] = .sample(AccelerationSample(time: trace[75].time, x: 120, y: -80, z: 60))
        var d = ShakeDetector()
        var peak = 0.0
        var fired = false
        for r in trace {
            fired = d.process(r) || fired
            peak = max(peak, d.movement)
        }
        #expect(!fired)
        #expect(peak < 0.01)  // the median filter removed it before it could count as movement
    }

    @Test func aStuckSensorIsNotMovement() {
        let zeros = Self.signal(seconds: 5) { _ in (0, 0, 0) }  // a failed I2C read often gives zeros
        let frozen = Self.signal(seconds: 5) { _ in (3.1, -7.2, 40) }  // wrong but constant
        #expect(Self.shakes(zeros).isEmpty)
        #expect(Self.shakes(frozen).isEmpty)
    }

    @Test func garbageValuesAreReadErrors() {
        let nan = Self.signal(seconds: 5) { t in (Int(t * 50) % 2 == 0 ? .nan : 0, .infinity, Self.g) }
        let huge = Self.signal(seconds: 5) { t in (Int(t * 50) % 2 == 0 ? 2000 : -2000, 0, Self.g) }  // > 16 g
        #expect(Self.shakes(nan).isEmpty)
        #expect(Self.shakes(huge).isEmpty)
    }

    @Test func readErrorsAloneAreNeverAShake() {
        let errors = (0..<500).map { AccelerationReading.failed(time: .milliseconds($0 * 20), reason: "EIO") }
        #expect(Self.shakes(errors).isEmpty)
    }

    @Test func aLongRunOfReadErrorsStartsTheCountOver() {
        let errors = (0..<50).map { AccelerationReading.failed(time: .seconds(1) + .milliseconds($0 * 20), reason: "EIO") }
        let t = Self.shakes(Self.shake(seconds: 1) + errors + Self.shake(from: 2, seconds: 2))
        #expect(t.count == 1)
        #expect(t.allSatisfy { $0 >= 3.5 })  // 1.5 s after the shaking resumed at 2 s
    }

    @Test func occasionalReadErrorsDuringARealShakeAreTolerated() {
        let trace = Self.shake(seconds: 2.5).enumerated().map { i, r in
            i % 3 == 1 ? .failed(time: r.time, reason: "EIO") : r
        }
        #expect(Self.shakes(trace).count == 1)
    }

    @Test func aShortPauseIsBridgedALongOneIsNot() {
        let bridged = Self.shake(seconds: 1) + Self.rest(from: 1, seconds: 0.2) + Self.shake(from: 1.2, seconds: 1)
        #expect(Self.shakes(bridged).count == 1)
        let split = Self.shake(seconds: 1) + Self.rest(from: 1, seconds: 1) + Self.shake(from: 2, seconds: 1)
        #expect(Self.shakes(split).isEmpty)
    }

    @Test func aStalledSensorStartsTheCountOver() {
        // One second without any sample in the middle: the two halves are not one sustained movement.
        #expect(Self.shakes(Self.shake(seconds: 1) + Self.shake(from: 2, seconds: 1)).isEmpty)
    }

    @Test func continuedShakingIsOneShakeAndAFreshOneIsAnother() {
        let trace = Self.shake(seconds: 6) + Self.rest(from: 6, seconds: 1) + Self.shake(from: 7, seconds: 2)
        let t = Self.shakes(trace)
        #expect(t.count == 2)
        #expect(t.count == 2 && t[1] >= 8.5)
    }

    @Test func tiltingTheClockSlowlyIsNotAShake() {
        // Gravity turns from z to x over two seconds and back.
        let trace = Self.signal(seconds: 4) { t in
            let angle = (Double.pi / 2) * (t < 2 ? t / 2 : (4 - t) / 2)
            return (Self.g * sin(angle), 0, Self.g * cos(angle))
        }
        #expect(Self.shakes(trace).isEmpty)
    }

    @Test func samplesOutOfOrderAreIgnored() {
        var trace = Self.shake(seconds: 2.5)
        trace.insert(.sample(AccelerationSample(time: .milliseconds(100), x: 50, y: 50, z: 50)), at: 60)
        #expect(Self.shakes(trace).count == 1)
        var d = ShakeDetector()
        _ = d.process(.sample(AccelerationSample(time: .seconds(2), x: 0, y: 0, z: Self.g)))
        let late = d.process(.failed(time: .seconds(1), reason: "late"))
        #expect(!late)
    }

    @Test func resetForgetsAMovementInProgress() {
        var d = ShakeDetector()
        for r in Self.shake(seconds: 1.4) { _ = d.process(r) }
        d.reset()
        let fired = Self.shake(from: 1.4, seconds: 1.2).contains { d.process($0) }
        #expect(!fired)
    }

    // MARK: sustain tracker

    @Test func sustainTrackerTable() {
        let cases: [(String, [(Bool, Int)], [Int])] = [
            ("continuous", (0...20).map { (true, $0 * 100) }, [1500]),
            ("dip of 400 ms bridged", [(true, 0), (true, 300), (false, 500), (true, 700), (true, 1100), (true, 1500)], [1500]),
            (
                "dip of 500 ms starts over",
                [
                    (true, 0), (true, 300), (true, 800), (true, 1200), (true, 1600), (true, 2000),
                    (true, 2300),
                ], [2300]
            ),
            (
                "latched while it goes on, fires again after a pause",
                (0...20).map { (true, $0 * 100) }
                    + [(false, 2500)] + (30...46).map { (true, $0 * 100) }, [1500, 4500]
            ),
            ("inactive only", (0...20).map { (false, $0 * 100) }, []),
        ]
        for (name, steps, expected) in cases {
            var s = SustainTracker(sustain: .milliseconds(1500), toleratedDip: .milliseconds(400))
            let fired = steps.filter { s.update(active: $0.0, at: .milliseconds($0.1)) }.map(\.1)
            #expect(fired == expected, "\(name)")
        }
    }

    // MARK: vibration switch

    static func pulses(from start: Double = 0, seconds: Double, hz: Double) -> [Double] {
        (0..<Int(seconds * hz)).map { start + Double($0) / hz }
    }

    static func vibrationShakes(_ times: [Double], _ settings: ShakeSettings = ShakeSettings()) -> [Double] {
        var d = VibrationShakeDetector(settings: settings)
        return times.filter { d.pulse(at: .milliseconds(Int64(($0 * 1000).rounded()))) }
    }

    @Test func vibrationPulsesSustainedForTwoSecondsAreAShake() {
        let t = Self.vibrationShakes(Self.pulses(seconds: 2, hz: 20))
        #expect(t.count == 1 && t[0] >= 1.5)
    }

    @Test func aKnockIsOneBurstOfPulsesNotAShake() {
        #expect(Self.vibrationShakes(Self.pulses(seconds: 0.1, hz: 150)).isEmpty)
    }

    @Test func sparsePulsesAreNotAShake() {
        #expect(Self.vibrationShakes(Self.pulses(seconds: 10, hz: 4)).isEmpty)  // 2 per 0.5 s window, 4 needed
    }

    /// The pulse count and its window are the vibration switch's own tuning: a wider window or a lower count
    /// accepts the sparse pulses above, and neither touches the accelerometer's window.
    @Test func thePulseWindowAndCountAreTunable() {
        let sparse = Self.pulses(seconds: 3, hz: 4)
        #expect(Self.vibrationShakes(sparse, ShakeSettings(pulseWindow: .seconds(1))).count == 1)  // 4 per 1 s
        #expect(Self.vibrationShakes(sparse, ShakeSettings(minimumPulses: 2)).count == 1)  // 2 per 0.5 s
        #expect(Self.vibrationShakes(sparse, ShakeSettings(window: .seconds(1))).isEmpty)  // accelerometer only
    }

    @Test func vibrationShorterThanTheSustainTimeIsNot() {
        #expect(Self.vibrationShakes(Self.pulses(seconds: 1.2, hz: 20)).isEmpty)
    }

    // MARK: what a shake does

    @Test func aShakeStopsAShakeToStopAlarmAndSnoozesAnyOther() throws {
        var alarm = Alarm(name: "Work", time: try LocalTime(parsing: "06:45"), recurrence: .weekly(.workdays))
        #expect(ShakeResponse().action(for: alarm) == .snooze)
        alarm.shakeToStop = true
        #expect(ShakeResponse().action(for: alarm) == .stop)
        #expect(ShakeResponse(whenShakeToStop: .snooze, otherwise: .none).action(for: alarm) == .snooze)
    }
}
