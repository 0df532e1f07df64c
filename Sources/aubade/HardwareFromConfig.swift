import AubadeConfig
import AubadeCore
import AubadeHardware
import Logging

// From the config to the hardware adapters: what `aubade doctor` checks and `aubade run` opens. The pure
// settings (`panelSettings` with the button mapping, `detectorSettings`, the shake response) come from
// AubadeConfig itself.

extension GPIOLineAddress {
    init?(_ spec: GPIOLineSpec) {
        switch spec {
        case .none: return nil
        case .named(let name): self = .named(name)
        case .chipOffset(let chip, let offset): self = .chipOffset(chip: chip, offset: offset)
        }
    }

    /// The address a config value names; nil for "" (no line). Values were validated by the config loader.
    init?(config text: String) {
        guard let spec = GPIOLineSpec(text), let address = GPIOLineAddress(spec) else { return nil }
        self = address
    }
}

extension Configuration.Buttons {
    /// The configured button lines; a button set to "" is left out.
    func lineRequests() -> [ButtonRole: GPIOLineRequest] {
        let lines: [(ButtonRole, String)] = [
            (.snooze, snooze), (.stop, stop), (.playPause, playPause), (.sleep, sleep),
            (.volumeUp, volumeUp), (.volumeDown, volumeDown),
        ]
        let bias = GPIOBias(rawValue: self.bias) ?? .pullUp
        var out: [ButtonRole: GPIOLineRequest] = [:]
        for (role, text) in lines {
            guard let address = GPIOLineAddress(config: text) else { continue }
            out[role] = GPIOLineRequest(label: role.rawValue, address: address, activeLow: activeLow, bias: bias)
        }
        return out
    }
}

extension Configuration.Shake {
    /// The vibration switch's line when `source = "gpio"` (every edge counts, so polarity does not matter).
    func vibrationSwitchLine() -> GPIOLineRequest? {
        guard source == "gpio", let address = GPIOLineAddress(config: device) else { return nil }
        return GPIOLineRequest(label: "shake", address: address, activeLow: false, bias: .asIs)
    }

    enum AccelerometerChoice {
        case notConfigured
        /// A sentence saying what was looked for.
        case missing(String)
        case found(any Accelerometer)
    }

    /// The accelerometer for `source = "iio"` or `"evdev"`: the configured device, or the first one found.
    func accelerometer(root: String = "") -> AccelerometerChoice {
        switch source {
        case "iio":
            if device.isEmpty {
                guard let first = IIOAccelerometer.all(root: root).first else {
                    return .missing("No IIO accelerometer was found under \(IIOAccelerometer.devicesDirectory).")
                }
                return .found(first)
            }
            return .found(IIOAccelerometer(devicePath: device, root: root))
        case "evdev":
            if device.isEmpty {
                guard let first = EvdevAccelerometer.all(root: root).first else {
                    return .missing("No input device reporting ABS_X, ABS_Y and ABS_Z was found under /sys/class/input.")
                }
                return .found(first)
            }
            return .found(EvdevAccelerometer(devicePath: device, root: root))
        default:
            return .notConfigured
        }
    }
}

extension Configuration.Shake {
    /// The shake sensor `aubade run` samples while an alarm rings: the accelerometer or vibration switch the
    /// config names, else none. A configured sensor that is missing is one warning (rule 8), never a failure.
    /// The shake sensor the config names, and the sentence to show when it names one that is missing.
    func sensor(gpio: any GPIOPort, logger: Logger) -> (any ShakeSensor, warning: String?) {
        if let line = vibrationSwitchLine() {
            return (VibrationSwitchShakeSensor(gpio: gpio, line: line, settings: detectorSettings, logger: logger), nil)
        }
        switch accelerometer() {
        case .notConfigured:
            return (NullShakeSensor(), nil)
        case .missing(let why):
            logger.warning("Shake to stop is off: \(why)")
            return (NullShakeSensor(), "Shake to stop is off: \(why)")
        case .found(let accelerometer):
            return (AccelerometerShakeSensor(accelerometer: accelerometer, settings: detectorSettings, rateHz: sampleRateHz), nil)
        }
    }
}
