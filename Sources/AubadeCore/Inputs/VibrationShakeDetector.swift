/// Recognises a shake from a vibration switch (e.g. an SW-420 module on a GPIO line), which gives no
/// amplitude, only pulses: every edge of the line is one pulse.
///
/// Movement at a pulse = at least `minimumPulses` pulses within the last `pulseWindow` (including it). A
/// shake is movement sustained for `sustain` with pauses of at most `toleratedDip` (`SustainTracker`),
/// exactly as for an accelerometer. A knock makes one short burst of pulses and is not a shake; a line
/// stuck high or low makes no pulses at all. Pure: pulse times come from the kernel's event timestamps.
public struct VibrationShakeDetector: Hashable, Sendable {
    public let settings: ShakeSettings
    private var tracker: SustainTracker
    private var pulses: [Duration] = []

    public init(settings: ShakeSettings = ShakeSettings()) {
        self.settings = settings
        tracker = SustainTracker(sustain: settings.sustain, toleratedDip: settings.toleratedDip)
    }

    /// Pulses counted in the window ending at the last pulse.
    public var recentPulses: Int { pulses.count }

    /// Feeds one pulse; returns true exactly when a shake is recognised. Out-of-order pulses are ignored.
    public mutating func pulse(at time: Duration) -> Bool {
        if let last = pulses.last, time < last { return false }
        pulses.append(time)
        pulses.removeAll { time - $0 >= settings.pulseWindow }
        return tracker.update(active: pulses.count >= settings.minimumPulses, at: time)
    }

    public mutating func reset() {
        self = VibrationShakeDetector(settings: settings)
    }
}
