import AubadeCore
import Foundation

/// Which tz database zone an iCalendar time is read in. A TZID that is a tz database name is that zone; one
/// that is not (producers write "/mozilla.org/20050126_1/Europe/Berlin" or "/citadel.org/…/Europe/Berlin") is
/// the zone its VTIMEZONE names in X-LIC-LOCATION, else the longest tz database name its path ends with.
/// The VTIMEZONE's own rules are not used: the clock has one DST rule, the tz database's, for alarms and
/// programmes alike — so a made-up zone ("Custom Standard Time" with no tz name anywhere) is refused.
struct ICalZones {
    let declared: [String: String?]
    let clockZone: TimeZone

    /// The zone and the id stored with a programme (nil: the clock's zone, for a floating time).
    func resolve(_ anchor: ICalTime.Anchor, line: Int) throws(CalendarError) -> (zone: TimeZone, id: String?) {
        switch anchor {
        case .floating:
            return (clockZone, nil)
        case .utc:
            return (TimeZone(identifier: "UTC")!, "UTC")
        case .zone(let tzid):
            guard let zone = ICalZones.tzDatabaseZone(tzid, location: declared[tzid] ?? nil) else {
                throw CalendarError(
                    line: line,
                    "the time zone '\(tzid)' is not a tz database name and its VTIMEZONE names none; use one such as Europe/Berlin."
                )
            }
            return (zone, zone.identifier)
        }
    }

    static func tzDatabaseZone(_ tzid: String, location: String?) -> TimeZone? {
        let trimmed = tzid.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        if trimmed.uppercased() == "UTC" || trimmed.uppercased() == "Z" { return TimeZone(identifier: "UTC") }
        if trimmed.contains("/"), let zone = TimeZone(identifier: trimmed) { return zone }
        if let location, let zone = TimeZone(identifier: location) { return zone }
        let parts = trimmed.split(separator: "/").map(String.init)
        for count in stride(from: min(parts.count, 3), through: 2, by: -1) {
            if let zone = TimeZone(identifier: parts.suffix(count).joined(separator: "/")) { return zone }
        }
        return nil
    }
}

/// Wall-clock readings and instants of iCalendar times, through `ZoneCalendar` (R2, R3: a time in a DST gap is
/// read the same minutes after it, one in an overlap at its first instant).
enum ICalClock {
    /// The local date of a time's fields, or nil before 1970 (nothing the clock keeps).
    static func date(_ t: ICalTime) -> LocalDate? {
        try? LocalDate(year: t.year, month: t.month, day: t.day)
    }

    static func time(_ t: ICalTime) -> LocalTime {
        (try? LocalTime(hour: t.isDate ? 0 : t.hour, minute: t.isDate ? 0 : t.minute)) ?? .midnight
    }

    /// The instant `t`'s fields name on the wall clock of `zone`.
    static func instant(_ t: ICalTime, in zone: TimeZone) -> Date? {
        guard let date = date(t) else { return nil }
        return ZoneCalendar(zone).instant(of: date, at: time(t)).addingTimeInterval(TimeInterval(t.isDate ? 0 : t.second))
    }

    /// The wall-clock reading of `instant` in `zone`, as fields with `anchor`.
    static func fields(of instant: Date, in zone: TimeZone, anchor: ICalTime.Anchor) -> ICalTime? {
        let calendar = ZoneCalendar(zone)
        guard let date = calendar.localDate(of: instant) else { return nil }
        let local = Int(instant.timeIntervalSince1970.rounded(.down)) + calendar.offset(at: instant)
        let secondOfDay = local - date.dayNumber * 86_400
        return ICalTime(
            year: date.year, month: date.month, day: date.day, hour: secondOfDay / 3600,
            minute: (secondOfDay % 3600) / 60, second: secondOfDay % 60, anchor: anchor)
    }
}
