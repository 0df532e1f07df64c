import Foundation

extension LocalDate {
    /// The local date of `instant` in `zone`.
    public init(_ instant: Date, in zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day], from: instant)
        // Calendar always yields a real date; the initialiser cannot fail for it.
        self = try! LocalDate(year: c.year!, month: c.month!, day: c.day!)
    }

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
        self = try! LocalTime(hour: c.hour!, minute: c.minute!)
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
