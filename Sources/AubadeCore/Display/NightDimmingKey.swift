/// The night-dimming settings as `aubade settings get|set` and the API name them, with the text forms
/// they take: `dimFrom` and `dimUntil` a 24-hour time ("22:00") or "off", `dimLevel` a percentage ("10%",
/// or "10"). Each bad text is refused with one sentence naming the setting, and nothing changes.
///
/// JSON values: the times as their text ("22:00" or "off"), the level as a number (10).
public enum NightDimmingKey: String, CaseIterable, Sendable {
    case dimFrom, dimUntil, dimLevel

    /// The value as text, the form `set` accepts back: "22:00", "off", "10%".
    public func value(in settings: NightDimmingSettings) -> String {
        switch self {
        case .dimFrom: NightDimmingKey.text(of: settings.from)
        case .dimUntil: NightDimmingKey.text(of: settings.until)
        case .dimLevel: "\(settings.level)%"
        }
    }

    /// A JSON-ready value: the time's text ("22:00" or "off") or the level as an Int.
    public func jsonValue(in settings: NightDimmingSettings) -> any Sendable {
        switch self {
        case .dimFrom, .dimUntil: value(in: settings)
        case .dimLevel: settings.level
        }
    }

    /// Parses `text` and stores it in `settings`. Throws a sentence when the text is not a valid value or
    /// when the change would make the start and end equal; `settings` is then unchanged.
    public func set(_ text: String, in settings: inout NightDimmingSettings) throws(ValidationError) {
        var from = settings.from, until = settings.until, level = settings.level
        switch self {
        case .dimFrom: from = try NightDimmingKey.parseTime(text, key: self)
        case .dimUntil: until = try NightDimmingKey.parseTime(text, key: self)
        case .dimLevel: level = try NightDimmingKey.parseLevel(text)
        }
        settings = try NightDimmingSettings(from: from, until: until, level: level)
    }

    /// "22:00" or "7:30" (24-hour) → that time; "off" (any case) → nil.
    public static func parseTime(_ text: String, key: NightDimmingKey) throws(ValidationError) -> LocalTime? {
        let t = text.trimmingSpaces
        if t.lowercased() == "off" { return nil }
        do {
            return try LocalTime(parsing: t)
        } catch {
            throw ValidationError("Setting \(key.rawValue) takes a time from 00:00 to 23:59, like 22:00, or off, not '\(text)'.")
        }
    }

    /// "10%", "10 %" or "10" → 10, from 1 to 100. Zero is refused with its own sentence (see
    /// `NightDimmingSettings`).
    public static func parseLevel(_ text: String) throws(ValidationError) -> Int {
        var t = text.trimmingSpaces
        if t.hasSuffix("%") { t = String(t.dropLast()).trimmingSpaces }
        guard !t.isEmpty, t.count <= 4, t.allSatisfy(\.isASCIIDigit), let level = Int(t) else {
            throw NightDimmingSettings.badLevel(text)
        }
        return try NightDimmingSettings.checkedLevel(level, text: text)
    }

    /// A time's text form: "22:00", or "off" for nil.
    public static func text(of time: LocalTime?) -> String {
        time?.description ?? "off"
    }
}
