public import Foundation

/// When reserved programmes start, and when their reminders chime: the recurrence arithmetic of reservations,
/// pure (no clock is read).
///
/// Only programmes with `reserved == true`, an `id` and a `stationID` count. A programme airs on its dates,
/// its one date, its weekday, or daily (`Programme.airs(on:)`), at its `begin` on the wall clock of its own
/// zone (else `zone`, the clock's). Each date is resolved with `ZoneCalendar`, exactly as alarms are (R2, R3):
/// a begin inside a DST gap starts the same minutes after the gap, one inside an overlap at the first instant,
/// and a programme starts once per date even when two dates resolve to one instant (a skipped date). With a
/// reminder lead (`remindSeconds` > 0) each airing gives two events: the reminder `remindSeconds` before the
/// start (a chime) and the start itself (the tune-in); without one, the start does both.
public enum ReservationSchedule {
    /// Dates walked by `next` past the local date of its start (a weekly programme starts within 8).
    static let searchDays = 9

    /// The first reservation event strictly after `instant`; when two come together, the one of the smaller
    /// programme id (a reminder before a start). Nil when no reserved programme starts again soon.
    public static func next(after instant: Date, programmes: [Programme], zone: TimeZone) -> ReservationStart? {
        reservable(programmes)
            .flatMap { events(of: $0, from: instant, through: nil, clockZone: zone) }
            .filter { $0.start > instant }
            .min(by: ordered)
    }

    /// Every reservation event in (`from`, `through`], in order of time, then programme id: consecutive windows
    /// (the previous check's `through` as the next `from`) never list one twice. The work grows with the
    /// window's length in days; the daemon asks about the time since its last check.
    public static func due(from: Date, through: Date, programmes: [Programme], zone: TimeZone) -> [ReservationStart] {
        guard from < through else { return [] }
        return reservable(programmes)
            .flatMap { events(of: $0, from: from, through: through, clockZone: zone) }
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

    /// The events of `r` whose airing begins on the local dates from a day before `from` to a day after
    /// `through` — or, for `next` (no `through`), on the next `searchDays` dates, and on the next dates of a
    /// dated programme however far ahead — one per distinct start instant, ascending. A reminder's lead (at most
    /// a day) is covered by the extra day.
    private static func events(of r: Reservable, from: Date, through: Date?, clockZone: TimeZone) -> [ReservationStart] {
        let calendar = ZoneCalendar(r.programme.zone(clockZone: clockZone))
        let first = calendar.localDayNumber(of: from) - 1
        let dates = r.programme.airingDates(
            from: first, through: through.map { calendar.localDayNumber(of: $0) + 2 },
            searchDays: searchDays)
        let lead = r.programme.remindSeconds ?? 0
        var out: [ReservationStart] = []
        var lastStart: Date?
        for date in dates {
            let t = calendar.instant(of: date, at: r.programme.begin)
            guard lastStart != t else { continue }
            lastStart = t
            if lead > 0 {
                out.append(
                    ReservationStart(
                        programmeID: r.id, name: r.programme.name, stationID: r.stationID,
                        start: t.addingTimeInterval(-TimeInterval(lead)), reminderFor: t))
            }
            out.append(
                ReservationStart(
                    programmeID: r.id, name: r.programme.name, stationID: r.stationID, start: t,
                    chimes: lead == 0))
        }
        return out
    }

    private static func ordered(_ a: ReservationStart, _ b: ReservationStart) -> Bool {
        (a.start, a.programmeID, a.reminderFor == nil ? 1 : 0) < (b.start, b.programmeID, b.reminderFor == nil ? 1 : 0)
    }
}
