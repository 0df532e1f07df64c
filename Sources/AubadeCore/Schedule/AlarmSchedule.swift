public import Foundation

/// The recurrence arithmetic of alarms (R1–R4): from a local rule to the instants it fires at.
///
/// Every answer is computed per local date — walk the candidate dates, resolve HH:MM on each with
/// `ZoneCalendar` — so DST gaps ring once at the same minutes after the gap, overlaps ring once at the first
/// occurrence, and a zone's change of offset or a skipped date never shifts an alarm to another day's rule.
/// No function here reads the clock; "now" is always an argument. `enabled` is ignored except by `upcoming`.
public enum AlarmSchedule {
    /// How far a search walks, in local dates, before giving up (a weekly rule fires within 8 dates).
    static let searchDays = 16

    /// The zone an alarm's rule is read in: its own, else `defaultZone` (also when its id is unknown).
    public static func zone(of alarm: Alarm, defaultZone: TimeZone) -> TimeZone {
        alarm.timeZoneID.flatMap { TimeZone(identifier: $0) } ?? defaultZone
    }

    /// Whether the rule names `date` at all (its weekday is one of the days, or it is the one-shot date).
    public static func fires(_ recurrence: Recurrence, on date: LocalDate) -> Bool {
        switch recurrence {
        case .weekly(let days): days.contains(date.weekday)
        case .once(let day): day == date
        case .dates(let dates): dates.containsSorted(date)
        }
    }

    /// The occurrence of `alarm` on local `date`, or nil when the rule does not name that date.
    public static func occurrence(of alarm: Alarm, on date: LocalDate, defaultZone: TimeZone) -> Occurrence? {
        guard fires(alarm.recurrence, on: date) else { return nil }
        let calendar = ZoneCalendar(zone(of: alarm, defaultZone: defaultZone))
        return Occurrence(date: date, instant: calendar.instant(of: date, at: alarm.time))
    }

    /// Why the occurrence of `alarm` on `date` passes over without ringing: its skip-next date, or a day off
    /// (for a repeating alarm that skips days off); nil when it rings.
    public static func skipReason(of alarm: Alarm, on date: LocalDate, daysOff: DaysOff) -> SkipReason? {
        if date == alarm.skipDate { return .skipNext }
        return daysOff.skips(alarm, on: date).map(SkipReason.dayOff)
    }

    /// The first occurrence strictly after `instant`. With `honouringSkip`, occurrences that pass over are
    /// passed over: the one on the alarm's `skipDate`, and those on `daysOff` when the alarm skips days off.
    /// Nil when the rule has no later occurrence (a past one-shot date, the end of a list of dates).
    public static func next(
        of alarm: Alarm, after instant: Date, defaultZone: TimeZone,
        honouringSkip: Bool = false, daysOff: DaysOff = .none
    ) -> Occurrence? {
        let skipped: (LocalDate) -> Bool = { date in
            honouringSkip && skipReason(of: alarm, on: date, daysOff: daysOff) != nil
        }
        if case .once(let date) = alarm.recurrence {
            guard !skipped(date),
                let o = occurrence(of: alarm, on: date, defaultZone: defaultZone), o.instant > instant
            else { return nil }
            return o
        }
        let calendar = ZoneCalendar(zone(of: alarm, defaultZone: defaultZone))
        let first = calendar.localDayNumber(of: instant) - 1
        var best: Occurrence?
        /// Looks at one candidate date; false once the dates are past the best found (nothing later can beat it).
        func consider(_ date: LocalDate) -> Bool {
            if let found = best, date.dayNumber > found.date.dayNumber + 2 { return false }
            guard fires(alarm.recurrence, on: date), !skipped(date) else { return true }
            let o = Occurrence(date: date, instant: calendar.instant(of: date, at: alarm.time))
            if o.instant > instant, best.map({ o < $0 }) ?? true { best = o }
            return true
        }
        if case .dates(let dates) = alarm.recurrence {
            // A list's own dates, however far apart.
            guard let start = LocalDate(dayNumber: first), let index = dates.firstIndexSorted(atOrAfter: start) else {
                return nil
            }
            for date in dates[index...] where !consider(date) { break }
        } else {
            // Every date for `searchDays` — for a year and a little more when passing over skipped dates (days off
            // may fill weeks: a holiday away). The walk stops two dates after the first occurrence found.
            let span = honouringSkip ? DayOff.maxDays + searchDays : searchDays
            for day in first...(first + span) {
                guard let date = LocalDate(dayNumber: day) else { continue }
                if !consider(date) { break }
            }
        }
        return best
    }

    /// The latest occurrence at or before `instant`; nil when there is none (a weekly rule always has one
    /// within the last 8 dates, a one-shot rule only if its date is past).
    public static func previous(of alarm: Alarm, atOrBefore instant: Date, defaultZone: TimeZone) -> Occurrence? {
        if case .once(let date) = alarm.recurrence {
            guard let o = occurrence(of: alarm, on: date, defaultZone: defaultZone), o.instant <= instant else { return nil }
            return o
        }
        let calendar = ZoneCalendar(zone(of: alarm, defaultZone: defaultZone))
        let last = calendar.localDayNumber(of: instant) + 1
        var best: Occurrence?
        var days = Array(stride(from: last, through: last - searchDays, by: -1))
        if case .dates(let dates) = alarm.recurrence {
            // The dates up to the day numbered `last`, latest first.
            let end = LocalDate(dayNumber: last + 1).flatMap { dates.firstIndexSorted(atOrAfter: $0) } ?? dates.count
            days = dates[..<end].suffix(searchDays).reversed().map(\.dayNumber)
        }
        for day in days {
            if let found = best, day < found.date.dayNumber - 2 { break }
            guard let date = LocalDate(dayNumber: day), fires(alarm.recurrence, on: date) else { continue }
            let o = Occurrence(date: date, instant: calendar.instant(of: date, at: alarm.time))
            if o.instant <= instant, best.map({ $0 < o }) ?? true { best = o }
        }
        return best
    }

    /// Every occurrence in (`lower`, `upper`], ascending; when two dates resolve to one instant (a skipped
    /// date), only the first date's occurrence is kept, so an instant fires once.
    public static func occurrences(
        of alarm: Alarm, after lower: Date, through upper: Date,
        defaultZone: TimeZone
    ) -> [Occurrence] {
        guard lower < upper else { return [] }
        let calendar = ZoneCalendar(zone(of: alarm, defaultZone: defaultZone))
        let first = calendar.localDayNumber(of: lower) - 1
        let last = calendar.localDayNumber(of: upper) + 1
        var found: [Occurrence] = []
        for day in first...max(first, last) {
            guard let date = LocalDate(dayNumber: day), fires(alarm.recurrence, on: date) else { continue }
            let t = calendar.instant(of: date, at: alarm.time)
            if t > lower, t <= upper { found.append(Occurrence(date: date, instant: t)) }
        }
        var unique: [Occurrence] = []
        for o in found.sorted() where unique.last?.instant != o.instant { unique.append(o) }
        return unique
    }

    /// The occurrences of `alarm` that fall on local date `date` of `zone` (from its midnight to the next), each
    /// with the date its rule names, whether or not it will be passed over.
    public static func occurrences(of alarm: Alarm, onLocalDate date: LocalDate, in zone: TimeZone) -> [Occurrence] {
        guard let nextDay = LocalDate(dayNumber: date.dayNumber + 1) else { return [] }
        let calendar = ZoneCalendar(zone)
        let start = calendar.instant(of: date, at: .midnight)
        let end = calendar.instant(of: nextDay, at: .midnight)
        return occurrences(
            of: alarm, after: start.addingTimeInterval(-0.001), through: end.addingTimeInterval(-0.001), defaultZone: zone)
    }
}

extension AlarmSchedule {
    /// The local date `skip-next` should store as `skipDate`: the date of the first occurrence after `now`
    /// (and after `lastHandled`, the run state's `lastHandledOccurrence`, so an occurrence that is ringing
    /// or snoozed is not the one skipped). Nil when the rule has no later occurrence.
    public static func skipNextDate(
        of alarm: Alarm, after now: Date, lastHandled: Date?,
        defaultZone: TimeZone
    ) -> LocalDate? {
        next(of: alarm, after: max(now, lastHandled ?? now), defaultZone: defaultZone)?.date
    }
}
