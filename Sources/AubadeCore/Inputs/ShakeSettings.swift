/// Tuning of the shake detectors. The defaults are the config's (`[shake] threshold`, `sustain_seconds`,
/// `pulses_per_window`, `pulse_window_seconds`); the rest are fixed by the algorithm's documentation in
/// `ShakeDetector`. The accelerometer detector needs samples at least every `toleratedDip` and three within
/// `window`: 5 Hz or more (the config's minimum).
public struct ShakeSettings: Hashable, Sendable {
    /// Standard gravity, m/s².
    public static let gravity = 9.80665

    /// Movement (RMS of the acceleration's deviation from its mean over `window`, m/s²) that counts.
    public var threshold: Double
    /// How long movement must last (R15: 1.5 s).
    public var sustain: Duration
    /// The stretch of accelerometer samples the movement is measured over.
    public var window: Duration
    /// Longest pause in the movement (or run of read errors) that does not start the count over.
    public var toleratedDip: Duration
    /// |a| above this is not physical for a bedside clock (saturated or garbage read): a read error.
    public var maximumMagnitude: Double

    /// Vibration switch: pulses (edges) within `pulseWindow` that count as movement.
    public var minimumPulses: Int
    /// Vibration switch: the stretch of pulses counted (independent of the accelerometer's `window`).
    public var pulseWindow: Duration

    public init(
        threshold: Double = 4.0, sustain: Duration = .milliseconds(1500),
        window: Duration = .milliseconds(500), toleratedDip: Duration = .milliseconds(400),
        maximumMagnitude: Double = 16 * ShakeSettings.gravity, minimumPulses: Int = 4,
        pulseWindow: Duration = .milliseconds(500)
    ) {
        self.threshold = threshold
        self.sustain = sustain
        self.window = window
        self.toleratedDip = toleratedDip
        self.maximumMagnitude = maximumMagnitude
        self.minimumPulses = minimumPulses
        self.pulseWindow = pulseWindow
    }
}
