/// What the user chose for night dimming: the run-time settings `dimFrom`, `dimUntil` and `dimLevel`.
///
/// Dimming is on when both times are set (and differ); `dimFrom off` — the default — turns it off, and
/// `dimUntil` keeps its 07:00 so that one `settings set dimFrom 22:00` turns it on.
///
/// `level` is the screen's backlight while dimmed, in percent of its full brightness, from 1 to 100. Zero
/// is refused, not clamped: on many panels (the Raspberry Pi touchscreen among them) brightness 0 switches
/// the light off, and a bedside clock that cannot be read at night has failed at its one job. 100 keeps the
/// backlight as it is and dims only the page. What the backlight adapter does with a small percentage on a
/// coarse panel is its business (it never writes 0 for a level of 1 or more).
public struct NightDimmingSettings: Hashable, Sendable {
    /// The levels a user may pick, in percent of full brightness.
    public static let levelRange = 1...100
    /// The level of a new clock: dark enough for a bedroom, still readable.
    public static let defaultLevel = 10
    /// The end time of a new clock, used once `dimFrom` is set.
    public static let defaultUntil = LocalTime(unchecked: 7, 0)

    /// `dimFrom`: when the night begins; nil is "off".
    public private(set) var from: LocalTime?
    /// `dimUntil`: when the night ends; nil is "off".
    public private(set) var until: LocalTime?
    /// `dimLevel`: the backlight while dimmed, in percent (1…100).
    public private(set) var level: Int

    /// A new clock's settings: off, until 07:00 once turned on, 10 %.
    public init() {
        from = nil
        until = NightDimmingSettings.defaultUntil
        level = NightDimmingSettings.defaultLevel
    }

    /// Checked settings. Throws the sentence of the first problem: a level outside 1…100 (0 has its own
    /// sentence) or two equal times.
    public init(from: LocalTime?, until: LocalTime?, level: Int) throws(ValidationError) {
        if let from, let until, from == until { throw DimmingWindow.equalTimes(from) }
        self.from = from
        self.until = until
        self.level = try NightDimmingSettings.checkedLevel(level, text: String(level))
    }

    /// The window, or nil when dimming is off (either time is off).
    public var window: DimmingWindow? {
        guard let from, let until else { return nil }
        return try? DimmingWindow(from: from, until: until)
    }

    /// Whether dimming happens at all.
    public var isOn: Bool { window != nil }

    /// The level checked against `levelRange`; `text` is what the user typed, for the sentence.
    static func checkedLevel(_ level: Int, text: String) throws(ValidationError) -> Int {
        if level == 0 {
            throw ValidationError(
                "Setting dimLevel cannot be 0%: many screens go dark at 0, and the clock must stay readable at night; use 1% to 100%."
            )
        }
        guard levelRange.contains(level) else { throw badLevel(text) }
        return level
    }

    static func badLevel(_ text: String) -> ValidationError {
        ValidationError("Setting dimLevel takes a brightness from 1% to 100%, like 10%, not '\(text)'.")
    }
}

/// Coded as the settings' text forms — `{"dimFrom": "22:00", "dimUntil": "07:00", "dimLevel": 10}`, "off" for
/// an unset time — and checked when decoded, so a message or file can never carry a level of 0 or two equal
/// times into the clock.
extension NightDimmingSettings: Codable {
    private enum CodingKeys: String, CodingKey {
        case dimFrom, dimUntil, dimLevel
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let from = try NightDimmingKey.parseTime(c.decode(String.self, forKey: .dimFrom), key: .dimFrom)
        let until = try NightDimmingKey.parseTime(c.decode(String.self, forKey: .dimUntil), key: .dimUntil)
        try self.init(from: from, until: until, level: c.decode(Int.self, forKey: .dimLevel))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(NightDimmingKey.text(of: from), forKey: .dimFrom)
        try c.encode(NightDimmingKey.text(of: until), forKey: .dimUntil)
        try c.encode(level, forKey: .dimLevel)
    }
}
