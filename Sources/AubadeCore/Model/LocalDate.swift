/// A calendar date without a time zone ("2026-12-24"): a one-shot alarm's day, a skipped day,
/// a dated programme. Compared as (year, month, day).
public struct LocalDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(year: Int, month: Int, day: Int) throws(ValidationError) {
        guard (1970...9999).contains(year), (1...12).contains(month),
            (1...LocalDate.daysIn(month: month, year: year)).contains(day)
        else {
            throw ValidationError("Date \(year)-\(month)-\(day) does not exist; use YYYY-MM-DD.")
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// For constants known to be valid.
    init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses ISO "YYYY-MM-DD".
    public init(parsing text: String, field: String = "Date") throws(ValidationError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            (1970...9999).contains(y), (1...12).contains(m), (1...LocalDate.daysIn(month: m, year: y)).contains(d)
        else {
            throw ValidationError("\(field) '\(text)' is not a valid date; use YYYY-MM-DD, e.g. 2026-12-24.")
        }
        self.year = y
        self.month = m
        self.day = d
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// ISO weekday of this date (1970-01-01, day number 0, was a Thursday).
    public var weekday: Weekday {
        let fromMonday = ((dayNumber % 7) + 7 + 3) % 7  // 0 = Monday
        return Weekday.allCases[fromMonday]
    }

    public var description: String {
        let m = month < 10 ? "0\(month)" : "\(month)"
        let d = day < 10 ? "0\(day)" : "\(day)"
        return "\(year)-\(m)-\(d)"
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public init(from decoder: any Decoder) throws {
        try self.init(parsing: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
