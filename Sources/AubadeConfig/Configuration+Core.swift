public import AubadeCore

// The config's values as the pure Core types the daemon runs with (the hardware side is in the executable,
// which alone links AubadeHardware).

extension Configuration.Buttons {
    /// Debounce, long-press time and the button mapping for `ButtonPanel`.
    public var panelSettings: ButtonPanel.Settings {
        ButtonPanel.Settings(
            debounce: .milliseconds(debounceMilliseconds), longPress: .milliseconds(longPressMilliseconds),
            mapping: mapping)
    }
}

extension Configuration.Shake {
    /// The detectors' tuning from `threshold`, `sustain_seconds`, `pulses_per_window` and `pulse_window_seconds`.
    public var detectorSettings: ShakeSettings {
        ShakeSettings(
            threshold: threshold, sustain: Self.duration(sustainSeconds), minimumPulses: pulsesPerWindow,
            pulseWindow: Self.duration(pulseWindowSeconds))
    }

    private static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int64((seconds * 1000).rounded()))
    }
}

extension ButtonRole {
    /// The button's name in the config file: the key of its line in `[buttons]` and of its action in
    /// `[buttons.short_press]` / `[buttons.long_press]` ("play_pause").
    public var configKey: String {
        String(rawValue.map { $0 == "-" ? "_" : $0 })
    }
}
