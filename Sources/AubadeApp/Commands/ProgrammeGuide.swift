import AubadeCore
import Foundation

/// Which programme is on air and which begins next, from the weekly, daily and dated rows — each local
/// date resolved through `ZoneCalendar` as alarms and reservations are (a begin inside a DST gap starts the
/// same minutes after it; an overlap takes its first instant). An end earlier than the begin runs past
/// midnight. Pure.
struct ProgrammeGuide {
    let programmes: [Programme]
    let calendar: ZoneCalendar

    init(programmes: [Programme], zone: TimeZone) {
        self.programmes = programmes
        calendar = ZoneCalendar(zone)
    }

    /// One airing: the programme, from `begin` until `end`.
    struct Airing {
        var programme: Programme
        var begin: Date
        var end: Date
    }

    /// The programme on air at `instant` (the one that began last, when two overlap).
    func onAir(at instant: Date) -> Programme? {
        let today = calendar.localDayNumber(of: instant)
        return airings(days: (today - 1)...today)
            .filter { $0.begin <= instant && instant < $0.end }
            .max { ($0.begin, $0.programme.id ?? 0) < ($1.begin, $1.programme.id ?? 0) }?.programme
    }

    /// The programme that begins first after `instant`.
    func next(after instant: Date) -> Programme? {
        let today = calendar.localDayNumber(of: instant)
        return airings(days: today...(today + 8))
            .filter { $0.begin > instant }
            .min { ($0.begin, $0.programme.id ?? 0) < ($1.begin, $1.programme.id ?? 0) }?.programme
    }

    /// Every airing that begins on a local date numbered in `days`.
    private func airings(days: ClosedRange<Int>) -> [Airing] {
        var out: [Airing] = []
        for day in days {
            guard let date = LocalDate(dayNumber: day) else { continue }
            for p in programmes where ProgrammeGuide.airs(p, on: date) {
                let begin = calendar.instant(of: date, at: p.begin)
                let endDate = p.end > p.begin ? date : LocalDate(dayNumber: day + 1) ?? date
                out.append(Airing(programme: p, begin: begin, end: calendar.instant(of: endDate, at: p.end)))
            }
        }
        return out
    }

    /// Whether the programme's rule names `date`: its one date, its weekday, or every date.
    static func airs(_ p: Programme, on date: LocalDate) -> Bool {
        if let day = p.date { return day == date }
        if let weekday = p.weekday { return weekday == date.weekday }
        return true
    }
}
