public import AubadeCore
public import Foundation

/// How a calendar is read: the clock's zone (for floating times and days), the instant it is read at, and how
/// far ahead recurrences are expanded. Occurrences that ended before the day before `now` are left out; an
/// open-ended recurrence is expanded through `horizonDays` after it, and the clock expands it again from the
/// cached copy before that runs out (`CalendarImport.expandedThrough`).
public struct CalendarReadOptions: Sendable {
    public static let defaultHorizonDays = 400
    public static let horizonRange = 14...3660
    /// The most occurrences one event may give (a daily rule over ten years is 3,650).
    public static let maxOccurrencesPerEvent = 10_000

    public var clockZone: TimeZone
    public var now: Date
    public var horizonDays: Int

    public init(clockZone: TimeZone, now: Date, horizonDays: Int = CalendarReadOptions.defaultHorizonDays) {
        self.clockZone = clockZone
        self.now = now
        self.horizonDays = horizonDays
    }

    /// The first local date kept: the day before today (a programme that began yesterday evening may still be
    /// on air).
    public var firstDay: LocalDate { LocalDate(now, in: clockZone).adding(days: -1) }

    /// The last local date open-ended recurrences are expanded to.
    public var lastDay: LocalDate { LocalDate(now, in: clockZone).adding(days: horizonDays) }
}
