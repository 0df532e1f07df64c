import AubadeCore
import Foundation

/// One occurrence of an event: its start as wall-clock fields of `zone`, its length, and the event whose texts
/// it carries (the series' own, or the one that overrides this occurrence).
struct ICalOccurrence {
    var start: ICalTime
    var zone: TimeZone
    var zoneID: String?
    /// The exact length of a timed occurrence, in seconds.
    var seconds: Int
    /// The number of dates an all-day occurrence covers (at least 1).
    var days: Int
    var event: ICalEvent
}

/// The events that share a UID: the series itself and the occurrences it overrides (RECURRENCE-ID).
struct ICalSeries {
    var master: ICalEvent?
    var overrides: [ICalEvent] = []
}

/// Expands a series into its occurrences: DTSTART, each RRULE through libical (on the wall clock of DTSTART's
/// zone; a UTC UNTIL is read on that wall clock first), the RDATEs, less the EXDATEs and the overridden ones,
/// plus the overriding events. Occurrences before `options.firstDay` are dropped; open-ended rules stop at
/// `options.lastDay` and say so in `truncated`.
struct ICalExpansion {
    let zones: ICalZones
    let options: CalendarReadOptions
    /// Whether some recurrence goes on past `options.lastDay` (the clock expands it again before then).
    private(set) var truncated = false

    init(zones: ICalZones, options: CalendarReadOptions) {
        self.zones = zones
        self.options = options
    }

    mutating func occurrences(of series: ICalSeries) throws(CalendarError) -> [ICalOccurrence] {
        var out: [ICalOccurrence] = []
        var removed: Set<String> = []
        var masterZone: (zone: TimeZone, id: String?)?
        if let master = series.master {
            masterZone = try zones.resolve(try ICalExpansion.start(of: master).anchor, line: master.line(of: "DTSTART"))
        }
        for o in series.overrides {
            guard let id = o.recurrenceID else { continue }
            if let master = series.master, let start = master.start, let mz = masterZone {
                if let key = try key(of: id, on: start, zone: mz.zone, line: o.line(of: "RECURRENCE-ID")) { removed.insert(key) }
            }
            if !o.cancelled, o.start != nil { out += try single(o) }
        }
        if let master = series.master, !master.cancelled, let mz = masterZone {
            out += try expand(master, zone: mz, removing: removed)
        }
        let first = options.firstDay
        return out.filter { o in
            guard let date = ICalClock.date(o.start) else { return false }
            let lastDate = o.start.isDate ? date.adding(days: o.days - 1) : date
            return lastDate >= first
        }.sorted { ICalExpansion.order($0.start).lexicographicallyPrecedes(ICalExpansion.order($1.start)) }
    }

    static func start(of e: ICalEvent) throws(CalendarError) -> ICalTime {
        guard let start = e.start else {
            throw CalendarError(line: e.line, "the event\(named(e)) has no DTSTART, so it has no time.")
        }
        return start
    }

    /// " '<summary>'" for a sentence about the event: its summary made plain (`OutsideText`), at most 60 characters.
    static func named(_ e: ICalEvent) -> String { e.summary.map { " '\(OutsideText.clean($0, limit: 60))'" } ?? "" }

    static func order(_ t: ICalTime) -> [Int] { [t.year, t.month, t.day, t.hour, t.minute, t.second] }

    /// The occurrences of a series' own event.
    private mutating func expand(_ e: ICalEvent, zone: (zone: TimeZone, id: String?), removing removed: Set<String>)
        throws(CalendarError) -> [ICalOccurrence]
    {
        let start = try ICalExpansion.start(of: e)
        let length = try ICalExpansion.length(of: e, start: start, zones: zones)
        var starts: [ICalTime] = [start]
        for rule in e.rules {
            guard rule.frequency >= .daily else {
                throw CalendarError(
                    line: rule.line,
                    "the event\(ICalExpansion.named(e)) repeats more than once a day (\(rule.text)); a programme or a day off repeats at most daily."
                )
            }
            let until = try wallUntil(rule, start: start, zone: zone.zone, line: rule.line)
            // From a few days before the first date kept (an occurrence that began earlier may still run into it).
            let (first, last) = (options.firstDay.adding(days: -2), options.lastDay)
            let expanded = LibICal.expand(
                rule, start: start, until: until, from: (first.year, first.month, first.day),
                through: (last.year, last.month, last.day),
                limit: CalendarReadOptions.maxOccurrencesPerEvent)
            if !expanded.reachedEnd { truncated = true }
            starts += expanded.occurrences
        }
        for extra in e.extraDates {
            guard let wall = try wall(extra, on: start, zone: zone.zone, line: e.line(of: "RDATE")) else { continue }
            starts.append(wall)
        }
        var excluded = removed
        for ex in e.exceptionDates {
            if let key = try key(of: ex, on: start, zone: zone.zone, line: e.line(of: "EXDATE")) { excluded.insert(key) }
        }
        var seen: Set<String> = []
        var out: [ICalOccurrence] = []
        for s in starts {
            let full = ICalExpansion.key(s, dateOnly: false)
            guard seen.insert(full).inserted, !excluded.contains(full), !excluded.contains(ICalExpansion.key(s, dateOnly: true))
            else {
                continue
            }
            out.append(
                ICalOccurrence(start: s, zone: zone.zone, zoneID: zone.id, seconds: length.seconds, days: length.days, event: e))
        }
        return out
    }

    /// An overriding event: one occurrence, in its own zone, with its own length.
    private func single(_ e: ICalEvent) throws(CalendarError) -> [ICalOccurrence] {
        let start = try ICalExpansion.start(of: e)
        let zone = try zones.resolve(start.anchor, line: e.line(of: "DTSTART"))
        let length = try ICalExpansion.length(of: e, start: start, zones: zones)
        return [
            ICalOccurrence(start: start, zone: zone.zone, zoneID: zone.id, seconds: length.seconds, days: length.days, event: e)
        ]
    }

    /// The length of an event: DTEND − DTSTART (as instants for timed events, in dates for all-day ones), else
    /// DURATION, else none for a timed event and one date for an all-day one.
    static func length(of e: ICalEvent, start: ICalTime, zones: ICalZones) throws(CalendarError) -> (seconds: Int, days: Int) {
        if let end = e.end {
            if start.isDate {
                guard let a = ICalClock.date(start), let b = ICalClock.date(end) else { return (0, 1) }
                return (0, max(1, b.dayNumber - a.dayNumber))
            }
            let startZone = try zones.resolve(start.anchor, line: e.line(of: "DTSTART")).zone
            let endZone = try zones.resolve(end.anchor, line: e.line(of: "DTEND")).zone
            guard let a = ICalClock.instant(start, in: startZone), let b = ICalClock.instant(end, in: endZone) else {
                return (0, 1)
            }
            return (Int(b.timeIntervalSince(a)), 1)
        }
        if let seconds = e.durationSeconds {
            return start.isDate ? (0, max(1, seconds / 86_400)) : (seconds, 1)
        }
        return (0, 1)
    }

    /// A UTC UNTIL read on the wall clock of the series' zone (libical iterates on that wall clock); nil keeps the
    /// rule's own (a DATE, or the same anchor as DTSTART).
    private func wallUntil(_ rule: ICalRule, start: ICalTime, zone: TimeZone, line: Int) throws(CalendarError) -> ICalTime? {
        guard let until = rule.until, !until.isDate, until.anchor != start.anchor, !start.isDate else { return nil }
        guard let instant = ICalClock.instant(until, in: try zones.resolve(until.anchor, line: line).zone) else { return nil }
        return ICalClock.fields(of: instant, in: zone, anchor: start.anchor)
    }

    /// `t` on the wall clock of the series (a DATE stays a date); nil before 1970.
    private func wall(_ t: ICalTime, on start: ICalTime, zone: TimeZone, line: Int) throws(CalendarError) -> ICalTime? {
        if t.isDate || start.isDate || t.anchor == start.anchor {
            var same = t
            same.anchor = start.anchor
            if start.isDate { same.isDate = true }
            return same
        }
        guard let instant = ICalClock.instant(t, in: try zones.resolve(t.anchor, line: line).zone) else { return nil }
        return ICalClock.fields(of: instant, in: zone, anchor: start.anchor)
    }

    private func key(of t: ICalTime, on start: ICalTime, zone: TimeZone, line: Int) throws(CalendarError) -> String? {
        try wall(t, on: start, zone: zone, line: line).map { ICalExpansion.key($0, dateOnly: t.isDate) }
    }

    static func key(_ t: ICalTime, dateOnly: Bool) -> String {
        dateOnly ? "\(t.year)-\(t.month)-\(t.day)" : "\(t.year)-\(t.month)-\(t.day)T\(t.hour):\(t.minute)"
    }
}
