/// A set of weekdays on which a repeating alarm rings.
public struct Weekdays: OptionSet, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue & 0x7F
    }

    public init(_ day: Weekday) {
        self.init(rawValue: 1 << (day.rawValue - 1))
    }

    public init(_ days: some Sequence<Weekday>) {
        self.init(rawValue: days.reduce(0) { $0 | (1 << ($1.rawValue - 1)) })
    }

    public static let all = Weekdays(rawValue: 0x7F)
    public static let workdays = Weekdays([.monday, .tuesday, .wednesday, .thursday, .friday])
    public static let weekend = Weekdays([.saturday, .sunday])

    public func contains(_ day: Weekday) -> Bool { rawValue & (1 << (day.rawValue - 1)) != 0 }

    public var days: [Weekday] { Weekday.allCases.filter(contains) }

    /// Canonical storage form: "mon,tue,wed" in weekday order.
    public var description: String { days.map(\.shortName).joined(separator: ",") }

    /// Parses a user's list: day names, ranges ("mon-fri", "fri-mon" wraps), "daily", "weekdays",
    /// "weekends", separated by commas or spaces.
    public init(parsing text: String) throws(ValidationError) {
        var set = Weekdays()
        let tokens = text.lowercased().split(whereSeparator: { $0 == "," || $0 == " " })
        guard !tokens.isEmpty else {
            throw ValidationError("Days are empty; use mon…sun, ranges like mon-fri, daily, weekdays, weekends or once.")
        }
        for token in tokens {
            set.formUnion(try Weekdays.parseToken(String(token)))
        }
        self = set
    }

    private static func parseToken(_ token: String) throws(ValidationError) -> Weekdays {
        switch token {
        case "daily", "everyday", "all": return .all
        case "weekdays", "workdays": return .workdays
        case "weekends", "weekend": return .weekend
        default: break
        }
        let ends = token.split(separator: "-", omittingEmptySubsequences: false)
        if ends.count == 2, let a = Weekday(name: String(ends[0])), let b = Weekday(name: String(ends[1])) {
            var days: [Weekday] = []
            var d = a
            while true {
                days.append(d)
                if d == b { break }
                d = Weekday(rawValue: d.rawValue % 7 + 1)!
            }
            return Weekdays(days)
        }
        if ends.count == 1, let day = Weekday(name: token) { return Weekdays(day) }
        throw ValidationError(
            "Unknown day '\(token)'; use mon…sun, ranges like mon-fri, daily, weekdays, weekends or once.")
    }
}
