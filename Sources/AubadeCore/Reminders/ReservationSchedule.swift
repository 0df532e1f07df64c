import Foundation

/// When reserved programmes start: the recurrence arithmetic of reservations, pure (no clock is read).
///
/// Only programmes with `reserved == true`, an `id` and a `stationID` count. A programme with a `weekday`
/// starts weekly, one with a `date` once, one with neither daily, at its `begin` on the wall clock of
/// `zone`. Each date is resolved with `ZoneCalendar`, exactly as alarms are (R2, R3): a begin inside a DST
/// gap starts the same minutes after the gap, one inside an overlap at the first instant, and a programme
/// starts once per date even when two dates resolve to one instant (a skipped date).
public enum ReservationSchedule {
    /// Dates walked by `next` past the local date of its start (a weekly programme starts within 8).
    static let searchDays = 9

    /// The first reservation start strictly after `instant`; when two programmes start together, the one
    /// with the smaller id. Nil when no reserved programme starts again.
    public static func next(after instant: Date, programmes: [Programme], zone: TimeZone) -> ReservationStart? {
        let calendar = ZoneCalendar(zone)
        let first = calendar.localDayNumber(of: instant) - 1
        let days = first...(first + searchDays)
        return reservable(programmes)
            .flatMap { starts(of: $0, days: days, datedThrough: Int.max, calendar: calendar) }
            .filter { $0.start > instant }
            .min(by: ordered)
    }

    /// Every reservation start in (`from`, `through`], in order of start, then programme id: consecutive
    /// windows (the previous check's `through` as the next `from`) never list a start twice. The work grows
    /// with the window's length in days; the daemon asks about the time since its last check.
    public static func due(from: Date, through: Date, programmes: [Programme], zone: TimeZone) -> [ReservationStart] {
        guard from < through else { return [] }
        let calendar = ZoneCalendar(zone)
        let days = (calendar.localDayNumber(of: from) - 1)...(calendar.localDayNumber(of: through) + 1)
        return reservable(programmes)
            .flatMap { starts(of: $0, days: days, datedThrough: days.upperBound, calendar: calendar) }
            .filter { $0.start > from && $0.start <= through }
            .sorted(by: ordered)
    }

    /// A reserved programme reduced to what a start needs.
    private struct Reservable {
        var id: Int64
        var stationID: Int64
        var programme: Programme
    }

    private static func reservable(_ programmes: [Programme]) -> [Reservable] {
        programmes.compactMap { p in
            guard p.reserved, let id = p.id, let station = p.stationID else { return nil }
            return Reservable(id: id, stationID: station, programme: p)
        }
    }

    /// Whether the programme's rule names `date`: its weekday, its one date, or every date.
    static func startsOn(_ programme: Programme, _ date: LocalDate) -> Bool {
        if let day = programme.date { return day == date }
        if let weekday = programme.weekday { return weekday == date.weekday }
        return true
    }

    /// The starts of `r` on the local dates numbered `days`, one per distinct instant, ascending; a dated
    /// programme's date may lie beyond `days`, up to the day numbered `datedThrough`.
    private static func starts(of r: Reservable, days: ClosedRange<Int>, datedThrough: Int,
                               calendar: ZoneCalendar) -> [ReservationStart] {
        let dates: [LocalDate]
        if let date = r.programme.date {
            dates = date.dayNumber >= days.lowerBound && date.dayNumber <= datedThrough ? [date] : []
        } else {
            dates = days.compactMap { LocalDate(dayNumber: $0) }.filter { startsOn(r.programme, $0) }
        }
        var out: [ReservationStart] = []
        for date in dates {
            let t = calendar.instant(of: date, at: r.programme.begin)
            guard out.last?.start != t else { continue }
            out.append(ReservationStart(programmeID: r.id, name: r.programme.name, stationID: r.stationID, start: t))
        }
        return out
    }

    private static func ordered(_ a: ReservationStart, _ b: ReservationStart) -> Bool {
        (a.start, a.programmeID) < (b.start, b.programmeID)
    }
}
