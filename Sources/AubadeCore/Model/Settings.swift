/// The built-in alarm sounds, synthesised in the binary (R17).
public enum ToneName: String, CaseIterable, Sendable, Codable {
    case classic, chime, rising
}

/// What a user changes at run time (the single row of `appSet`). Deployment facts live in the config file.
public struct AppSettings: Hashable, Sendable, Codable {
    /// Wi-Fi-only: refuse to stream unless the default route is wireless (`isWifi`).
    public var isWifi = false
    public var defaultVolume = 60
    public var snoozeMinutes = 9
    public var maxSnoozes = 3
    public var alarmDurationSeconds = 900
    public var fadeInSeconds = 30
    public var fallbackTone = ToneName.classic
    public var toneVolume = 90
    /// G of R6: how late a missed occurrence may still ring.
    public var catchUpSeconds = 1800
    public var sleepSeconds = 1800
    public var sleepFadeSeconds = 60
    public var sleepVolume = 30
    /// Night dimming of the kiosk's page and backlight (`dimFrom`, `dimUntil`, `dimLevel`).
    public var nightDimming = NightDimmingSettings()

    public init() {}

    /// A new alarm's fields that the user did not give.
    public func newAlarm(name: String, time: LocalTime, recurrence: Recurrence) -> Alarm {
        Alarm(
            name: name, time: time, recurrence: recurrence, durationSeconds: alarmDurationSeconds,
            volume: defaultVolume, fadeInSeconds: fadeInSeconds, snoozeMinutes: snoozeMinutes,
            maxSnoozes: maxSnoozes)
    }
}

/// A setting's name as `aubade settings get|set` and the API use it, with its type, range and parser.
public enum SettingKey: String, CaseIterable, Sendable {
    case isWifi, defaultVolume, snoozeMinutes, maxSnoozes, alarmDuration, fadeIn, fallbackTone, toneVolume,
        catchUp, sleepDuration, sleepFade, sleepVolume, dimFrom, dimUntil, dimLevel

    public init(parsing name: String) throws(ValidationError) {
        guard let key = SettingKey(rawValue: name) else {
            let known = SettingKey.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("Unknown setting '\(name)'; known settings are \(known).")
        }
        self = key
    }

    private enum Kind {
        case bool(WritableKeyPath<AppSettings, Bool>)
        case number(WritableKeyPath<AppSettings, Int>, ClosedRange<Int>)
        case duration(WritableKeyPath<AppSettings, Int>, ClosedRange<Int>)
        case tone(WritableKeyPath<AppSettings, ToneName>)
        case dimming(NightDimmingKey)
    }

    private var kind: Kind {
        switch self {
        case .isWifi: .bool(\.isWifi)
        case .defaultVolume: .number(\.defaultVolume, Alarm.volumeRange)
        case .snoozeMinutes: .number(\.snoozeMinutes, Alarm.snoozeMinutesRange)
        case .maxSnoozes: .number(\.maxSnoozes, Alarm.maxSnoozesRange)
        case .alarmDuration: .duration(\.alarmDurationSeconds, Alarm.durationRange)
        case .fadeIn: .duration(\.fadeInSeconds, Alarm.fadeInRange)
        case .fallbackTone: .tone(\.fallbackTone)
        case .toneVolume: .number(\.toneVolume, 50...100)
        case .catchUp: .duration(\.catchUpSeconds, 60...(6 * 3600))
        case .sleepDuration: .duration(\.sleepSeconds, 60...(12 * 3600))
        case .sleepFade: .duration(\.sleepFadeSeconds, 0...600)
        case .sleepVolume: .number(\.sleepVolume, 1...100)
        case .dimFrom: .dimming(.dimFrom)
        case .dimUntil: .dimming(.dimUntil)
        case .dimLevel: .dimming(.dimLevel)
        }
    }

    /// The JSON type the key's value has in `settings get --json` and takes in the API (durations are seconds).
    public var jsonType: SettingJSONType {
        switch kind {
        case .bool: .boolean
        case .number, .duration: .integer
        case .tone: .text
        case .dimming(let key): key == .dimLevel ? .integer : .text
        }
    }

    /// Whether the value is a duration (text like "30m"; seconds in JSON).
    public var isDuration: Bool {
        if case .duration = kind { return true }
        return false
    }

    /// The value as text, the form `set` accepts back.
    public func value(in settings: AppSettings) -> String {
        switch kind {
        case .bool(let path): settings[keyPath: path] ? "true" : "false"
        case .number(let path, _): String(settings[keyPath: path])
        case .duration(let path, _): DurationText.format(settings[keyPath: path])
        case .tone(let path): settings[keyPath: path].rawValue
        case .dimming(let key): key.value(in: settings.nightDimming)
        }
    }

    /// A JSON-ready value: Bool, Int (seconds for durations) or String.
    public func jsonValue(in settings: AppSettings) -> any Sendable {
        switch kind {
        case .bool(let path): settings[keyPath: path]
        case .number(let path, _), .duration(let path, _): settings[keyPath: path]
        case .tone(let path): settings[keyPath: path].rawValue
        case .dimming(let key): key.jsonValue(in: settings.nightDimming)
        }
    }

    /// The night-dimming setting this key is, if it is one.
    public var nightDimmingKey: NightDimmingKey? {
        if case .dimming(let key) = kind { return key }
        return nil
    }

    /// Parses `text` and stores it in `settings`; throws a sentence naming the key when it doesn't fit.
    public func set(_ text: String, in settings: inout AppSettings) throws(ValidationError) {
        let t = text.trimmingSpaces
        switch kind {
        case .bool(let path):
            switch t.lowercased() {
            case "true", "on", "yes", "1": settings[keyPath: path] = true
            case "false", "off", "no", "0": settings[keyPath: path] = false
            default: throw ValidationError("Setting \(rawValue) takes true or false, not '\(text)'.")
            }
        case .number(let path, let range):
            guard let n = Int(t), range.contains(n) else {
                throw ValidationError(
                    "Setting \(rawValue) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'.")
            }
            settings[keyPath: path] = n
        case .duration(let path, let range):
            settings[keyPath: path] = try DurationText.seconds(parsing: t, field: "Setting \(rawValue)", in: range)
        case .tone(let path):
            guard let tone = ToneName(rawValue: t.lowercased()) else {
                let names = ToneName.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("Setting \(rawValue) takes one of \(names), not '\(text)'.")
            }
            settings[keyPath: path] = tone
        case .dimming(let key):
            try key.set(text, in: &settings.nightDimming)
        }
    }
}

/// The JSON type of a setting's value.
public enum SettingJSONType: String, Sendable {
    case boolean, integer, text

    /// Whether `value` is of this type.
    public func admits(_ value: SettingValue) -> Bool {
        switch (self, value) {
        case (.boolean, .bool), (.integer, .number), (.text, .text): true
        default: false
        }
    }
}
