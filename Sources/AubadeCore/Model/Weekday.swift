/// A day of the week, numbered as ISO 8601 does (Monday = 1 … Sunday = 7).
public enum Weekday: Int, CaseIterable, Sendable, Codable, Comparable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    public init?(isoNumber: Int) {
        self.init(rawValue: isoNumber)
    }

    /// Foundation's `Calendar` numbers Sunday = 1 … Saturday = 7.
    public init?(gregorianCalendarWeekday n: Int) {
        guard (1...7).contains(n) else { return nil }
        self.init(rawValue: n == 1 ? 7 : n - 1)
    }

    public var gregorianCalendarWeekday: Int { self == .sunday ? 1 : rawValue + 1 }

    public var shortName: String {
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue - 1]
    }

    /// Accepts "mon", "monday", "Mon", "tues", "thurs".
    public init?(name: String) {
        let n = name.lowercased()
        let aliases = ["tues": "tue", "weds": "wed", "thur": "thu", "thurs": "thu"]
        let key = aliases[n] ?? n
        guard
            let day = Weekday.allCases.first(where: {
                key == $0.shortName || key == $0.longName
            })
        else { return nil }
        self = day
    }

    var longName: String {
        ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][rawValue - 1]
    }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}
