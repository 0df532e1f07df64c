public import Foundation

extension LocalDate {
    /// The local date of `instant` in `zone`, clamped to the range `LocalDate` accepts (1970…9999): a Pi
    /// without a real-time clock boots at 1970-01-01 UTC, which is still 1969 west of Greenwich.
    public init(_ instant: Date, in zone: TimeZone) {
        let day = ZoneCalendar(zone).localDayNumber(of: instant)
        self = LocalDate(clampingDayNumber: day)
    }

    /// The date `days` later (or earlier, when negative), clamped to 1970…9999.
    public func adding(days: Int) -> LocalDate {
        LocalDate(clampingDayNumber: dayNumber + days)
    }

    private init(clampingDayNumber day: Int) {
        self = LocalDate(dayNumber: day) ?? (day < 0 ? LocalDate.earliest : LocalDate.latest)
    }

    static let earliest = LocalDate(unchecked: 1970, 1, 1)
    static let latest = LocalDate(unchecked: 9999, 12, 31)

    /// The first local date, today or later, on which `time` is still ahead of `now` in `zone`:
    /// the default date of a one-shot alarm.
    public static func nextDate(for time: LocalTime, after now: Date, in zone: TimeZone) -> LocalDate {
        let today = LocalDate(now, in: zone)
        return LocalTime(now, in: zone) < time ? today : today.adding(days: 1)
    }
}

extension LocalTime {
    /// The local time of day of `instant` in `zone`, seconds dropped.
    public init(_ instant: Date, in zone: TimeZone) {
        let calendar = ZoneCalendar(zone)
        let local = Int(instant.timeIntervalSince1970.rounded(.down)) + calendar.offset(at: instant)
        let minuteOfDay = (local - calendar.localDayNumber(of: instant) * 86_400) / 60
        self = LocalTime(unchecked: minuteOfDay / 60, minuteOfDay % 60)
    }
}
