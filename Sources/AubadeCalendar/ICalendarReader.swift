import AubadeCore
import Foundation

/// An iCalendar file (RFC 5545, read by `LibICal`) as programmes or days off.
///
/// Programmes: each VEVENT series (one UID) is expanded (`ICalExpansion`) and its occurrences grouped by what a
/// `programs` row holds — begin and end on the wall clock, zone and texts — so a weekly show is one row with its
/// airing dates, and an RDATE or an overridden occurrence at another time is a row of its own. The first row
/// of a series keeps the UID as its import key (a re-import finds it again); the others add their begin time.
/// A row ends at its begin plus the event's length (DTEND − DTSTART as an exact duration, or DURATION, as
/// RFC 5545 applies it to every member of a recurrence).
/// An all-day event, a missing DTSTART, DTEND or DURATION, a length of a day or more, or a rule repeating
/// within a day is refused with its line. Names longer than a row takes are shortened, with "…".
///
/// Days off: each occurrence of an event covers its dates (DTEND of an all-day event is exclusive); a timed
/// event covers the dates it touches on its own wall clock.
struct ICalendarReader {
    let calendar: ICalCalendar
    let options: CalendarReadOptions

    init(bytes: [UInt8], options: CalendarReadOptions) throws(CalendarError) {
        calendar = LibICal.parse(bytes)
        self.options = options
        guard calendar.hasCalendar else {
            throw CalendarError(line: 1, "this is not an iCalendar file: it has no BEGIN:VCALENDAR.")
        }
        if let first = calendar.problems.first { throw first }
    }

    private var zones: ICalZones { ICalZones(declared: calendar.zones, clockZone: options.clockZone) }

    /// The events by UID, in file order of their first event. An event without a UID is keyed by its start and
    /// summary (stable while those stay).
    func series() throws(CalendarError) -> [(key: String, series: ICalSeries)] {
        var order: [String] = []
        var byKey: [String: ICalSeries] = [:]
        var masterLines: [String: Int] = [:]
        for e in calendar.events {
            let key = e.uid ?? "\(e.start?.description ?? "")|\(e.summary ?? "")"
            if byKey[key] == nil {
                order.append(key)
                byKey[key] = ICalSeries()
            }
            if e.recurrenceID != nil {
                byKey[key]?.overrides.append(e)
            } else {
                if let first = masterLines[key] {
                    throw CalendarError(
                        line: e.line,
                        "a second event has the UID '\(key.prefix(80))' (the first is on line \(first)); each event needs its own."
                    )
                }
                masterLines[key] = e.line
                byKey[key]?.master = e
            }
        }
        return order.compactMap { key in byKey[key].map { (key, $0) } }
    }

    // MARK: Programmes

    func programmes() throws(CalendarError) -> (programmes: [Programme], expandedThrough: LocalDate?) {
        var expansion = ICalExpansion(zones: zones, options: options)
        var out: [Programme] = []
        for (key, series) in try series() {
            let occurrences = try expansion.occurrences(of: series)
            out += try programmes(key: key, occurrences)
        }
        return (out, expansion.truncated ? options.lastDay : nil)
    }

    /// One row per (begin, end, zone, texts) among a series' occurrences.
    private func programmes(key: String, _ occurrences: [ICalOccurrence]) throws(CalendarError) -> [Programme] {
        var groups: [Programme] = []
        var datesOf: [[LocalDate]] = []
        for o in occurrences {
            let e = o.event
            let line = e.line(of: "DTSTART")
            guard !o.start.isDate else {
                throw CalendarError(
                    line: line,
                    "the event\(ICalExpansion.named(e)) lasts all day (its DTSTART is a date); a programme needs a start time.")
            }
            guard o.seconds > 0 else {
                let what = e.end == nil && e.durationSeconds == nil ? "has no DTEND or DURATION" : "ends when or before it begins"
                throw CalendarError(
                    line: e.end == nil ? line : e.line(of: "DTEND"),
                    "the programme\(ICalExpansion.named(e)) \(what); give it a length.")
            }
            guard o.seconds < 86_400 else {
                throw CalendarError(
                    line: e.end == nil ? e.line(of: "DURATION") : e.line(of: "DTEND"),
                    "the programme\(ICalExpansion.named(e)) lasts a day or more; a programme lasts less than a day.")
            }
            guard let date = ICalClock.date(o.start) else { continue }
            // The end on the wall clock: the begin plus the event's length, the same for every airing (a weekly
            // 02:30 show of an hour ends at 03:30 also on the night 02:30 does not exist).
            let begin = ICalClock.time(o.start)
            let endMinute = (begin.minutesSinceMidnight + o.seconds / 60) % 1440
            let end = (try? LocalTime(hour: endMinute / 60, minute: endMinute % 60)) ?? begin
            guard let name = ICalendarReader.name(e.summary) else {
                throw CalendarError(line: e.line, "the event has no SUMMARY; a programme needs a name.")
            }
            let row = Programme(
                name: name, begin: begin, end: end, host: ICalendarReader.text(e.host),
                details: ICalendarReader.text(e.description), timeZoneID: o.zoneID,
                location: ICalendarReader.text(e.location), url: ICalendarReader.text(e.url))
            if let i = groups.firstIndex(where: { $0 == row }) {
                datesOf[i].append(date)
            } else {
                groups.append(row)
                datesOf.append([date])
            }
        }
        // The row of the series' own event at its own time keeps the bare key, whatever dates have passed.
        let master = occurrences.first { $0.event.recurrenceID == nil }?.event
        let primary =
            groups.indices.first { i in
                master.map { m in
                    m.start.map { groups[i].begin == ICalClock.time($0) && groups[i].name == ICalendarReader.name(m.summary) }
                        ?? false
                } ?? false
            } ?? 0
        var out: [Programme] = []
        var keys: Set<String> = [key]
        for (i, var p) in groups.enumerated() {
            let dates = Array(Set(datesOf[i])).sorted()
            if dates.count == 1 { p.date = dates[0] } else { p.dates = dates }
            var importKey = i == primary ? key : "\(key)#\(p.begin)"
            var n = 2
            while i != primary && !keys.insert(importKey).inserted {
                importKey = "\(key)#\(p.begin)#\(n)"
                n += 1
            }
            p.importKey = importKey
            do throws(ValidationError) { try p.validate() } catch {
                throw CalendarError(line: occurrences.first?.event.line, error.message)
            }
            out.append(p)
        }
        return out
    }

    // MARK: Days off

    func daysOff() throws(CalendarError) -> (daysOff: [DayOff], expandedThrough: LocalDate?) {
        var expansion = ICalExpansion(zones: zones, options: options)
        var out: [DayOff] = []
        var keys: Set<String> = []
        for (key, series) in try series() {
            for o in try expansion.occurrences(of: series) {
                guard let first = ICalClock.date(o.start) else { continue }
                var last = first.adding(days: max(0, o.days - 1))
                if !o.start.isDate, o.seconds > 0, let begins = ICalClock.instant(o.start, in: o.zone) {
                    last = ZoneCalendar(o.zone).localDate(of: begins.addingTimeInterval(TimeInterval(o.seconds - 1))) ?? first
                }
                var day = DayOff(
                    first: first, last: max(first, last), name: ICalendarReader.name(o.event.summary) ?? "Day off",
                    importKey: "\(key)@\(first)")
                guard keys.insert(day.importKey ?? "").inserted else { continue }
                do throws(ValidationError) { try day.validate() } catch {
                    throw CalendarError(line: o.event.line, error.message)
                }
                out.append(day)
            }
        }
        out.sort { ($0.first, $0.name) < ($1.first, $1.name) }
        return (out, expansion.truncated ? options.lastDay : nil)
    }

    // MARK: Texts

    /// A name for a row: the calendar's text made plain (`OutsideText`, R40: one line, no control or
    /// bidirectional characters, trimmed), at most `Names.maxLength` Unicode scalars ("…" when shortened).
    static func name(_ text: String?) -> String? {
        guard let text else { return nil }
        let name = OutsideText.clean(text, limit: Names.maxLength + 1)
        guard !name.isEmpty else { return nil }
        guard name.unicodeScalars.count > Names.maxLength else { return name }
        return Names.cut(name, to: Names.maxLength - 1) + "…"
    }

    /// A text for a row: made plain as a name is, at most `Programme.maxTextLength` characters ("…" when shortened).
    static func text(_ text: String?) -> String? {
        guard let text else { return nil }
        let t = OutsideText.clean(text, limit: Programme.maxTextLength + 1)
        guard !t.isEmpty else { return nil }
        return t.count > Programme.maxTextLength ? String(t.prefix(Programme.maxTextLength - 1)) + "…" : t
    }
}
