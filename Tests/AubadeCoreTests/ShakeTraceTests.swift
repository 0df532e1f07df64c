import AubadeCore
import Foundation
import Testing

/// The shake detector on realistic, recorded-style traces (R15). The traces are generated deterministically
/// from a seeded generator modelling an ADXL345-class sensor on a bedside table: 50 Hz sampling with
/// ±1.5 ms jitter, 0.04 m/s² noise per axis, 3.9 mg quantisation, a slightly tilted resting position.
@Suite("Shake detector: recorded-style traces")
struct ShakeTraceTests {
    @Test(arguments: [20.0, 50.0, 100.0])
    func aRealTwoSecondShakeAtAboutFourHertzIsOneShake(rate: Double) {
        var trace = Trace(seed: 1, rate: rate)
        trace.rest(1)
        trace.handShake(2)
        trace.rest(2)
        let result = trace.detect()
        #expect(result.shakes.count == 1)
        #expect(result.shakes.allSatisfy { $0 >= 2.5 && $0 <= 3.1 }, "\(result.shakes)")
    }

    @Test func aRealShakeWithFlakyReadsIsStillOneShake() {
        var trace = Trace(seed: 2)
        trace.rest(1)
        trace.handShake(2.5)
        trace.rest(1)
        trace.failRandomly(fraction: 0.15, seed: 3)
        #expect(trace.detect().shakes.count == 1)
    }

    @Test func aKnockOnTheClockIsNotAShake() {
        var trace = Trace(seed: 4)
        trace.rest(2)
        trace.bump(peak: 45)
        trace.rest(3)
        #expect(trace.detect().shakes.isEmpty)
    }

    @Test func aBumpedNightstandWobblesAboveTheThresholdButIsNotAShake() {
        var trace = Trace(seed: 15)
        trace.rest(2)
        trace.wobble(peak: 22)
        trace.rest(3)
        let result = trace.detect()
        #expect(result.shakes.isEmpty)
        #expect(result.peakMovement > ShakeSettings().threshold)  // refused for its duration, not its size
    }

    @Test func aDoorSlamIsNotAShake() {
        var trace = Trace(seed: 5)
        trace.rest(2)
        trace.doorSlam()
        trace.rest(3)
        let result = trace.detect()
        #expect(result.shakes.isEmpty)
        #expect(result.peakMovement > 1)
    }

    @Test func someoneWalkingPastIsNotAShake() {
        var trace = Trace(seed: 6)
        trace.rest(1)
        trace.footsteps(seconds: 6, nearestPeak: 1.2)
        trace.rest(1)
        let result = trace.detect()
        #expect(result.shakes.isEmpty)
        #expect(result.peakMovement < 1)
    }

    @Test func heavyFootstepsRightByTheBedAreNotAShake() {
        var trace = Trace(seed: 7)
        trace.footsteps(seconds: 8, nearestPeak: 6)
        #expect(trace.detect().shakes.isEmpty)
    }

    @Test func aMinuteOfSensorNoiseWithGlitchesIsNotAShake() {
        var trace = Trace(seed: 8, noise: 0.15)
        trace.rest(60)
        trace.glitch(every: 1.7, size: 40, seed: 9)
        let result = trace.detect()
        #expect(result.shakes.isEmpty)
        #expect(result.peakMovement < 1)
    }

    @Test func readErrorsZerosAndGarbageAtRestAreNotAShake() {
        var trace = Trace(seed: 10)
        trace.rest(20)
        trace.failRandomly(fraction: 0.25, seed: 11)
        trace.corrupt(fraction: 0.05, with: (0, 0, 0), seed: 12)  // failed I2C transfers read as zeros
        trace.corrupt(fraction: 0.02, with: (.nan, .nan, .nan), seed: 13)
        trace.failRun(from: 5, seconds: 0.3)
        trace.failRun(from: 12, seconds: 2)
        #expect(trace.detect().shakes.isEmpty)
    }

    @Test func pickingTheClockUpAndPuttingItDownIsNotAShake() {
        var trace = Trace(seed: 14)
        trace.rest(1)
        trace.carry(seconds: 1.2)
        trace.bump(peak: 15)
        trace.rest(2)
        #expect(trace.detect().shakes.isEmpty)
    }

    // MARK: vibration switch (SW-420-like: a pulse per contact opening, with chatter)

    @Test func vibrationSwitchTraces() {
        var rng = SplitMix(seed: 20)
        // A shake: contacts chatter at irregular 8–30 Hz for 2 s.
        var shake: [Double] = []
        var t = 1.0
        while t < 3 {
            shake.append(t)
            t += 1 / rng.uniform(8, 30)
        }
        // A knock: one chatter burst of 20 pulses within 80 ms.
        var knock: [Double] = []
        for i in 0..<20 { knock.append(1 + Double(i) * 0.004 + rng.uniform(0, 0.002)) }
        // Footsteps a few metres away: one or two pulses per step for 6 s.
        var steps: [Double] = []
        for i in 0..<11 {
            let step: Double = 1 + Double(i) * 0.53
            steps += [step, step + 0.004]
        }
        #expect(Self.vibrationShakes(shake).count == 1)
        #expect(Self.vibrationShakes(knock).isEmpty)
        let doubleKnock: [Double] = knock + knock.map { $0 + 0.7 }
        #expect(Self.vibrationShakes(doubleKnock).isEmpty)
        #expect(Self.vibrationShakes(steps).isEmpty)
    }

    static func vibrationShakes(_ times: [Double]) -> [Double] {
        var d = VibrationShakeDetector()
        return times.sorted().filter { d.pulse(at: .nanoseconds(Int64($0 * 1e9))) }
    }
}

/// A small deterministic generator (SplitMix64): the same seed gives the same trace on every machine.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }
    mutating func gaussian() -> Double {
        let u = max(unit(), 1e-12), v = unit()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}

/// A synthetic recording: motion segments appended one after another, then sensor effects.
struct Trace {
    static let g = ShakeSettings.gravity
    static let rest = (x: 0.31, y: -0.22, z: 9.79)  // slightly tilted
    static let lsb = 0.0383  // 3.9 mg

    let rate: Double
    let noise: Double
    private var rng: SplitMix
    private(set) var readings: [AccelerationReading] = []
    private var clock = 0.0

    init(seed: UInt64, rate: Double = 50, noise: Double = 0.04) {
        rng = SplitMix(seed: seed)
        self.rate = rate
        self.noise = noise
    }

    /// Appends `seconds` of motion: `f(τ)` is the acceleration added to the resting one, τ from 0.
    mutating func append(_ seconds: Double, _ f: (Double) -> (Double, Double, Double)) {
        let n = Int((seconds * rate).rounded())
        for i in 0..<n {
            let nominal = clock + Double(i) / rate
            let jitter = rng.uniform(-0.0015, 0.0015)
            let (dx, dy, dz) = f(nominal - clock + jitter)
            func q(_ v: Double) -> Double { (v / Trace.lsb).rounded() * Trace.lsb }
            let s = AccelerationSample(
                time: .nanoseconds(Int64((nominal + jitter + 10) * 1e9)),
                x: q(Trace.rest.x + dx + noise * rng.gaussian()),
                y: q(Trace.rest.y + dy + noise * rng.gaussian()),
                z: q(Trace.rest.z + dz + noise * rng.gaussian()))
            readings.append(.sample(s))
        }
        clock += Double(n) / rate
    }

    mutating func rest(_ seconds: Double) { append(seconds) { _ in (0, 0, 0) } }

    /// A person shaking the clock side to side: about 4 Hz (wandering 3.6–4.4 Hz), ~13 m/s² peak on x
    /// with wrist motion on y and z, ramping up and down at the ends.
    mutating func handShake(_ seconds: Double) {
        var phase = 0.0
        var last = 0.0
        append(seconds) { t in
            let hz: Double = 4 + 0.4 * sin(2 * Double.pi * 0.7 * t)
            phase += 2 * Double.pi * hz * (t - last)
            last = t
            let ramp: Double = min(1, t / 0.25, (seconds - t) / 0.2)
            let a: Double = 13 * ramp
            let x: Double = a * sin(phase)
            let y: Double = 0.35 * a * sin(phase + 0.7)
            let z: Double = 0.25 * a * sin(2 * phase)
            return (x, y, z)
        }
    }

    /// A knock on the table or the clock: a damped 30 Hz ring, mostly vertical.
    mutating func bump(peak: Double) {
        append(0.5) { t in
            let ring = peak * exp(-t / 0.03) * sin(2 * .pi * 30 * t)
            return (0.3 * ring, 0.15 * ring, ring)
        }
    }

    /// Someone bumps the nightstand: it wobbles at ~7 Hz, dying out in about half a second.
    mutating func wobble(peak: Double) {
        append(1) { t in
            let w = peak * exp(-t / 0.15) * sin(2 * .pi * 7 * t)
            return (w, 0.4 * w, 0.1 * w)
        }
    }

    /// A door slammed in the room: a horizontal shock, a rebound 90 ms later, then the furniture rattling.
    mutating func doorSlam() {
        append(1.2) { t in
            let shock = 18 * exp(-t / 0.05) * sin(2 * .pi * 12 * t)
            let rebound = t > 0.09 ? 9 * exp(-(t - 0.09) / 0.04) * sin(2 * .pi * 14 * (t - 0.09)) : 0
            let rattle = 4 * exp(-t / 0.2) * sin(2 * .pi * 20 * t)
            return (0.2 * shock, shock + rebound, rattle)
        }
    }

    /// Footsteps at ~1.9 Hz passing by: each a damped 18 Hz thump, strongest at the middle of the walk.
    mutating func footsteps(seconds: Double, nearestPeak: Double) {
        append(seconds) { t in
            let step = t.truncatingRemainder(dividingBy: 0.53)
            let closeness = exp(-pow((t - seconds / 2) / (seconds / 4), 2))
            let thump = nearestPeak * closeness * exp(-step / 0.04) * sin(2 * .pi * 18 * step)
            return (0.1 * thump, 0.1 * thump, thump)
        }
    }

    /// Lifted, carried at an angle with a little hand tremor, and set down (the caller adds the landing bump).
    mutating func carry(seconds: Double) {
        var tremor = SplitMix(seed: 99)
        append(seconds) { t in
            let lift = t < 0.3 ? 3 * sin(.pi * t / 0.3) : 0
            let tilt = min(1, t / 0.4) * 0.5  // ~30°
            let shake = 0.5 * tremor.gaussian()
            return (Trace.g * sin(tilt) + shake, shake, lift - Trace.g * (1 - cos(tilt)) + shake)
        }
    }

    /// Replaces a random `fraction` of the readings by read failures.
    mutating func failRandomly(fraction: Double, seed: UInt64) {
        var r = SplitMix(seed: seed)
        readings = readings.map { r.unit() < fraction ? .failed(time: $0.time, reason: "EIO") : $0 }
    }

    /// Replaces a random `fraction` of the samples by a fixed (bad) value.
    mutating func corrupt(fraction: Double, with value: (Double, Double, Double), seed: UInt64) {
        var r = SplitMix(seed: seed)
        readings = readings.map { reading in
            guard r.unit() < fraction else { return reading }
            return .sample(AccelerationSample(time: reading.time, x: value.0, y: value.1, z: value.2))
        }
    }

    /// Every reading within [from, from + seconds) of the trace fails.
    mutating func failRun(from start: Double, seconds: Double) {
        let lo = Duration.seconds(start + 10), hi = Duration.seconds(start + 10 + seconds)
        readings = readings.map { $0.time >= lo && $0.time < hi ? .failed(time: $0.time, reason: "EIO") : $0 }
    }

    /// Adds a single-sample glitch of `size` m/s² on a random axis about every `every` seconds.
    mutating func glitch(every period: Double, size: Double, seed: UInt64) {
        var r = SplitMix(seed: seed)
        let stride = max(1, Int(period * rate))
        for i in Swift.stride(from: stride / 2, to: readings.count, by: stride) {
            guard case .sample(var s) = readings[i] else { continue }
            let v = r.unit() < 0.5 ? size : -size
            switch r.next() % 3 {
            case 0: s.x += v
            case 1: s.y += v
            default: s.z += v
            }
            readings[i] = .sample(s)
        }
    }

    /// Runs the detector: shake times in seconds from the trace's start, and the largest movement seen.
    func detect(_ settings: ShakeSettings = ShakeSettings()) -> (shakes: [Double], peakMovement: Double) {
        var d = ShakeDetector(settings: settings)
        var shakes: [Double] = []
        var peak = 0.0
        for r in readings {
            if d.process(r) { shakes.append(Double(r.time / .nanoseconds(1)) / 1e9 - 10) }
            peak = max(peak, d.movement)
        }
        return (shakes, peak)
    }
}
