/// Recognises a deliberate shake in accelerometer readings (R15).
///
/// The algorithm, per reading:
/// 1. **Plausibility.** A failed read, a non-finite value, an all-zero sample (the usual result of a
///    failed I2C transfer), |a| above `maximumMagnitude`, or a time not after the previous sample's is a
///    read error. An error is "no movement": it never adds to a shake.
/// 2. **Glitch filter.** Each axis goes through a median of the last three valid samples, so a single
///    garbage sample cannot look like movement.
/// 3. **Movement** = √(var x + var y + var z) over the filtered samples of the last `window` (0.5 s):
///    the RMS distance of the acceleration vector from its own mean. Subtracting the mean removes gravity
///    whatever the clock's orientation (so tilting it or a sensor with an offset is not movement) and
///    a stuck sensor gives zero. A hand shake at ~4 Hz of ±1–2 cm gives 4–9 m/s²; a person walking past,
///    sensor noise and a clock at rest give well under 1; a bump or a door slam is an impulse that
///    raises the RMS for less than one window.
/// 4. **Sustain.** Movement ≥ `threshold` must continue for `sustain` (1.5 s), with pauses or error runs of
///    at most `toleratedDip` (0.4 s) bridged (`SustainTracker`). Then one `.shake` is reported; continued
///    shaking does not report again until the movement has paused for more than `toleratedDip`.
///    Samples more than `toleratedDip` apart (a stalled sensor) start everything over.
///
/// Pure: the samples carry their own times; nothing here reads a clock.
public struct ShakeDetector: Hashable, Sendable {
    public let settings: ShakeSettings
    private var tracker: SustainTracker
    private var recent: [AccelerationSample] = []  // last ≤ 3 valid raw samples, for the median
    private var window: [AccelerationSample] = []  // filtered samples within `settings.window`
    private var lastTime: Duration?
    /// The movement measured at the last valid sample, m/s² (for diagnostics).
    public private(set) var movement = 0.0

    public init(settings: ShakeSettings = ShakeSettings()) {
        self.settings = settings
        tracker = SustainTracker(sustain: settings.sustain, toleratedDip: settings.toleratedDip)
    }

    /// Feeds one reading; returns true exactly when a shake is recognised.
    public mutating func process(_ reading: AccelerationReading) -> Bool {
        guard case .sample(let sample) = reading, isPlausible(sample) else {
            return noMovement(at: reading.time)
        }
        if let last = lastTime, sample.time - last > settings.toleratedDip {
            recent.removeAll()
            window.removeAll()
        }
        lastTime = sample.time
        recent.append(sample)
        if recent.count > 3 { recent.removeFirst() }
        guard recent.count == 3 else { return tracker.update(active: false, at: sample.time) }
        window.append(median(recent, at: sample.time))
        window.removeAll { sample.time - $0.time > settings.window }
        movement = window.count >= 3 ? ShakeDetector.rms(window) : 0
        return tracker.update(active: movement >= settings.threshold, at: sample.time)
    }

    /// Starts over (e.g. when an alarm starts ringing).
    public mutating func reset() {
        self = ShakeDetector(settings: settings)
    }

    private mutating func noMovement(at time: Duration) -> Bool {
        guard lastTime.map({ time > $0 }) ?? true else { return false }  // out-of-order: ignore
        return tracker.update(active: false, at: time)
    }

    private func isPlausible(_ s: AccelerationSample) -> Bool {
        guard s.x.isFinite, s.y.isFinite, s.z.isFinite else { return false }
        guard !(s.x == 0 && s.y == 0 && s.z == 0) else { return false }
        guard s.magnitude <= settings.maximumMagnitude else { return false }
        return lastTime.map { s.time > $0 } ?? true
    }

    private func median(_ three: [AccelerationSample], at time: Duration) -> AccelerationSample {
        func mid(_ a: Double, _ b: Double, _ c: Double) -> Double { max(min(a, b), min(max(a, b), c)) }
        let (a, b, c) = (three[0], three[1], three[2])
        return AccelerationSample(time: time, x: mid(a.x, b.x, c.x), y: mid(a.y, b.y, c.y), z: mid(a.z, b.z, c.z))
    }

    static func rms(_ samples: [AccelerationSample]) -> Double {
        let n = Double(samples.count)
        let mx = samples.reduce(0) { $0 + $1.x } / n
        let my = samples.reduce(0) { $0 + $1.y } / n
        let mz = samples.reduce(0) { $0 + $1.z } / n
        let sum = samples.reduce(0) { acc, s in
            acc + (s.x - mx) * (s.x - mx) + (s.y - my) * (s.y - my) + (s.z - mz) * (s.z - mz)
        }
        return (sum / n).squareRoot()
    }
}
