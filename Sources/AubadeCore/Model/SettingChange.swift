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
        switch value {
        case .text(let text): try set(text, in: &settings)
        case .bool(let b): try set(b ? "true" : "false", in: &settings)
        case .number(let n): try set(!isDuration ? String(n) : n >= 0 ? DurationText.format(n) : "\(n)s", in: &settings)
        }
    }
}
