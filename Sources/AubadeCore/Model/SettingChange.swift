/// One setting to change: its name (`SettingKey`) and its new value, as `aubade settings set` gives it (text)
/// or as `PATCH /api/v1/settings` does (the JSON of `settings get --json`: true/false, a number — seconds for
/// a duration — or text).
public struct SettingChange: Sendable, Hashable, Codable {
    public var key: String
    public var value: SettingValue

    public init(key: String, value: SettingValue) {
        self.key = key
        self.value = value
    }
}

/// A setting's value as a client wrote it.
public enum SettingValue: Sendable, Hashable, Codable {
    case text(String)
    case bool(Bool)
    case number(Int)

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Int.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .text(s)
        } else {
            throw ValidationError("A setting's value must be true or false, a whole number or text.")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .text(let s): try c.encode(s)
        case .bool(let b): try c.encode(b)
        case .number(let n): try c.encode(n)
        }
    }
}

extension SettingKey {
    /// Sets the key from a client's value: text is parsed as `settings set` parses it; a JSON number is the
    /// number, or for a duration its seconds; true/false is the text "true"/"false". So a value out of range
    /// or of the wrong kind is refused with the same sentence whichever client sent it.
    public func set(_ value: SettingValue, in settings: inout AppSettings) throws(ValidationError) {
        try set(text(of: value), in: &settings)
    }

    /// A client's value as the text `settings set` takes.
    func text(of value: SettingValue) -> String {
        switch value {
        case .text(let text): text
        case .bool(let b): b ? "true" : "false"
        case .number(let n): !isDuration ? String(n) : n >= 0 ? DurationText.format(n) : "\(n)s"
        }
    }
}

extension AppSettings {
    /// Applies `changes` as one change: each key is parsed and range-checked in turn (the first bad one
    /// throws its sentence and nothing changes), and the night-dimming keys are checked together at the end —
    /// so `dimFrom 07:00` with `dimUntil 22:00` turns a 22:00–07:00 night around whatever order they come in.
    public mutating func apply(_ changes: [SettingChange]) throws(ValidationError) {
        var copy = self
        var dimming: [(NightDimmingKey, String)] = []
        for change in changes {
            let key = try SettingKey(parsing: change.key)
            if let dimKey = key.nightDimmingKey {
                dimming.append((dimKey, key.text(of: change.value)))
            } else {
                try key.set(change.value, in: &copy)
            }
        }
        if !dimming.isEmpty {
            var from = copy.nightDimming.from, until = copy.nightDimming.until, level = copy.nightDimming.level
            for (key, text) in dimming {
                switch key {
                case .dimFrom: from = try NightDimmingKey.parseTime(text, key: key)
                case .dimUntil: until = try NightDimmingKey.parseTime(text, key: key)
                case .dimLevel: level = try NightDimmingKey.parseLevel(text)
                }
            }
            copy.nightDimming = try NightDimmingSettings(from: from, until: until, level: level)
        }
        self = copy
    }
}
