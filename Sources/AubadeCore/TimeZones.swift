import Foundation

extension LocalDate {
    /// The local date of `instant` in `zone`, clamped to the range `LocalDate` accepts (1970…9999): a Pi
    /// without a real-time clock boots at 1970-01-01 UTC, which is still 1969 west of Greenwich.
    public init(_ instant: Date, in zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day], from: instant)
        if let date = try? LocalDate(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1) {
            self = date
        } else {
            self = (c.year ?? 1970) < 1970 ? LocalDate.earliest : LocalDate.latest
        }
    }

    static let earliest = LocalDate(unchecked: 1970, 1, 1)
    static let latest = LocalDate(unchecked: 9999, 12, 31)

    /// The date `days` later (or earlier, when negative).
    public func adding(days: Int) -> LocalDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
        return LocalDate(calendar.date(byAdding: .day, value: days, to: start)!, in: calendar.timeZone)
    }
}

extension LocalTime {
    /// The local time of day of `instant` in `zone`, seconds dropped.
    public init(_ instant: Date, in zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.hour, .minute], from: instant)
        self = (try? LocalTime(hour: c.hour ?? 0, minute: c.minute ?? 0)) ?? LocalTime(unchecked: 0, 0)
    }
}

extension LocalDate {
    /// The first local date, today or later, on which `time` is still ahead of `now` in `zone`:
    /// the default date of a one-shot alarm.
    public static func nextDate(for time: LocalTime, after now: Date, in zone: TimeZone) -> LocalDate {
        let today = LocalDate(now, in: zone)
        return LocalTime(now, in: zone) < time ? today : today.adding(days: 1)
    }
}
