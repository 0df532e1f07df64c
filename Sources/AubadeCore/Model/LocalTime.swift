/// A wall-clock time of day, minute precision ("06:45"), as an alarm or programme states it.
public struct LocalTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public init(hour: Int, minute: Int) throws(ValidationError) {
        guard (0...23).contains(hour), (0...59).contains(minute) else {
            throw ValidationError("Time \(hour):\(minute) is out of range; use HH:MM from 00:00 to 23:59.")
        }
        self.hour = hour
        self.minute = minute
    }

    /// 00:00, the start of a local date.
    public static let midnight = LocalTime(unchecked: 0, 0)

    /// For constants known to be valid.
    init(unchecked hour: Int, _ minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    /// Parses "H:MM" or "HH:MM" (24-hour clock).
    public init(parsing text: String, field: String = "Time") throws(ValidationError) {
        let parts = text.trimmingSpaces.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            let h = Int(parts[0]), let m = Int(parts[1]), parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            (0...23).contains(h), (0...59).contains(m)
        else {
            throw ValidationError("\(field) '\(text)' is not a valid time; use HH:MM from 00:00 to 23:59.")
        }
        self.hour = h
        self.minute = m
    }

    public var minutesSinceMidnight: Int { hour * 60 + minute }

    public var description: String {
        (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    public static func < (a: LocalTime, b: LocalTime) -> Bool { a.minutesSinceMidnight < b.minutesSinceMidnight }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(parsing: text)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension StringProtocol {
    /// The text without leading and trailing white space — Unicode's White_Space property, scalar by scalar, as
    /// `Grammar`'s patterns allow it (scanned from both ends, no reversed copies).
    var trimmingSpaces: String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
