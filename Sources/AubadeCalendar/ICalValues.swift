/// A DATE or DATE-TIME value as an iCalendar file states it: the wall-clock fields, and what anchors them —
/// nothing (a "floating" time, read in the clock's zone), UTC ("…Z"), or a TZID. `LibICal` fills it in;
/// turning it into an instant is `ZoneCalendar`'s job, never libical's (one DST rule for the whole clock).
public struct ICalTime: Hashable, Sendable, CustomStringConvertible {
    public enum Anchor: Hashable, Sendable {
        case floating
        case utc
        case zone(String)
    }

    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// A DATE value (no time of day): an all-day event.
    public var isDate: Bool
    public var anchor: Anchor

    public init(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, isDate: Bool = false,
        anchor: Anchor = .floating
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.isDate = isDate
        self.anchor = anchor
    }

    /// "20270328T070000" (with "Z" for UTC), or "20270328" for a date: as the file would write it.
    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let date = "\(year)\(two(month))\(two(day))"
        if isDate { return date }
        return date + "T\(two(hour))\(two(minute))\(two(second))" + (anchor == .utc ? "Z" : "")
    }
}

/// One VEVENT as libical read it (unfolded, unescaped), with the lines it came from.
public struct ICalEvent: Sendable {
    /// The line of its BEGIN:VEVENT.
    public var line: Int
    /// The first line of each property it has, by upper-cased name ("DTSTART" → 12), for error sentences.
    public var propertyLines: [String: Int]
    public var uid: String?
    public var summary: String?
    public var description: String?
    public var location: String?
    public var url: String?
    /// CONTACT, else the CN of ORGANIZER.
    public var host: String?
    public var cancelled: Bool
    public var start: ICalTime?
    public var end: ICalTime?
    /// DURATION in seconds, when given instead of DTEND.
    public var durationSeconds: Int?
    /// Each RRULE as libical normalised it (e.g. "FREQ=WEEKLY;COUNT=5;BYDAY=MO,WE"), with its frequency.
    public var rules: [ICalRule]
    public var exceptionDates: [ICalTime]
    public var extraDates: [ICalTime]
    /// RECURRENCE-ID: this event replaces that one occurrence of the event with the same UID.
    public var recurrenceID: ICalTime?

    /// The line of property `name` (upper case), else the event's own line.
    public func line(of name: String) -> Int { propertyLines[name] ?? line }
}

/// An RRULE: its text (for `LibICal.expand`), how often it repeats, its end.
public struct ICalRule: Sendable, Hashable {
    public enum Frequency: Int, Sendable, Hashable, Comparable {
        case secondly, minutely, hourly, daily, weekly, monthly, yearly

        public static func < (a: Frequency, b: Frequency) -> Bool { a.rawValue < b.rawValue }
    }

    public var text: String
    public var frequency: Frequency
    /// UNTIL, when set (a DATE, or a DATE-TIME that RFC 5545 wants in UTC when DTSTART has a zone).
    public var until: ICalTime?
    /// COUNT, when set.
    public var count: Int?
    public var line: Int
}

/// A calendar file as libical read it: its events, the TZIDs its VTIMEZONEs define (with their
/// X-LIC-LOCATION, the tz database name some producers add), and the problems libical marked in it.
public struct ICalCalendar: Sendable {
    public var events: [ICalEvent]
    public var zones: [String: String?]
    /// libical's X-LIC-ERROR marks in the calendar, its events and time zones, in file order.
    public var problems: [CalendarError]
    /// Whether a VCALENDAR was found at all.
    public var hasCalendar: Bool
}
