public import Foundation

/// Which programme is on air and which begins next — weekly, daily, dated and imported rows alike, each local
/// date resolved through `ZoneCalendar` in the programme's own zone (else the clock's) as alarms and
/// reservations are: a weekly 07:00 show is at 07:00 local on both sides of a DST change, a begin inside a DST
/// gap starts the same minutes after it, an overlap takes its first instant. An end earlier than the begin runs
/// past midnight. Pure.
public struct ProgrammeGuide: Sendable {
    /// Dates looked at past today for the next airing of a weekly or daily programme (a weekly one airs within 8);
    /// a dated programme's next date counts however far ahead it is.
    static let searchDays = 8

    public let programmes: [Programme]
    public let clockZone: TimeZone

    public init(programmes: [Programme], zone: TimeZone) {
        self.programmes = programmes
        clockZone = zone
    }

    /// One airing: the programme, from `begin` until `end`.
    public struct Airing: Sendable, Hashable {
        public var programme: Programme
        public var begin: Date
        public var end: Date
    }

    /// The airing on air at `instant` (begin ≤ instant < end; the one that began last when two overlap).
    public func onAir(at instant: Date) -> Airing? {
        programmes.flatMap { airings(of: $0, around: instant, ahead: false) }
            .filter { $0.begin <= instant && instant < $0.end }
            .max { ($0.begin, $0.programme.id ?? 0) < ($1.begin, $1.programme.id ?? 0) }
    }

    /// The airing that begins first after `instant`.
    public func next(after instant: Date) -> Airing? {
        programmes.flatMap { airings(of: $0, around: instant, ahead: true) }
            .filter { $0.begin > instant }
            .min { ($0.begin, $0.programme.id ?? 0) < ($1.begin, $1.programme.id ?? 0) }
    }

    /// The airing of `programme` on air at `instant`, else its next one.
    public func current(of programme: Programme, at instant: Date) -> Airing? {
        let all = airings(of: programme, around: instant, ahead: false) + airings(of: programme, around: instant, ahead: true)
        if let now = all.filter({ $0.begin <= instant && instant < $0.end }).max(by: { $0.begin < $1.begin }) { return now }
        return all.filter { $0.begin > instant }.min { $0.begin < $1.begin }
    }

    /// The airings of `p` beginning on the local dates (of its zone) around `instant`: yesterday and today, or
    /// from today on (`ahead`).
    private func airings(of p: Programme, around instant: Date, ahead: Bool) -> [Airing] {
        let calendar = ZoneCalendar(p.zone(clockZone: clockZone))
        let today = calendar.localDayNumber(of: instant)
        let dates =
            ahead
            ? p.airingDates(from: today, through: nil, searchDays: ProgrammeGuide.searchDays)
            : p.airingDates(from: today - 1, through: today, searchDays: 1)
        return dates.map { date in
            let begin = calendar.instant(of: date, at: p.begin)
            let endDate = p.end > p.begin ? date : date.adding(days: 1)
            return Airing(programme: p, begin: begin, end: calendar.instant(of: endDate, at: p.end))
        }
    }
}
