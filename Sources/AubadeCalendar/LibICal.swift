import CICal
import Foundation
import Synchronization

/// Libical's one owner (docs/HOUSE-RULES.md §6): RFC 5545 parsing — unfolding, unescaping, value parsing — and
/// recurrence expansion are libical's; this wrapper turns its C structures into `ICalCalendar` values and
/// never lets a C pointer out. Time zones are not libical's business here: a TZID is passed on as its name,
/// and `ZoneCalendar` turns wall-clock fields into instants, as for alarms.
///
/// Contract: synchronous, CPU only (no I/O); every call holds one process-wide lock, because libical keeps
/// global state (its error number, its built-in zone cache). Never throws through C: the line-feeding
/// callback only copies bytes.
public enum LibICal {
    private static let lock = Mutex(())

    /// The version of the linked libical, e.g. "3.0.16".
    public static var version: String {
        ICAL_VERSION
    }

    /// Reads an iCalendar text. The lines of every event and of every problem libical marks (X-LIC-ERROR) are
    /// the physical lines of the file, counted while libical unfolds them.
    public static func parse(_ bytes: [UInt8]) -> ICalCalendar {
        lock.withLock { _ in
            var parser = Parser(bytes)
            return parser.run()
        }
    }

    /// The occurrences of `rule` for an event starting at `start` (wall-clock fields; the anchor is carried
    /// over), in order, up to the local date `through` and at most `limit` of them. The rule is iterated on
    /// the wall clock of `start`'s zone, as RFC 5545 asks; `until`, when given, replaces the rule's UNTIL with
    /// the same instant read on that wall clock (the caller converts a UTC UNTIL with `ZoneCalendar`).
    /// DTSTART is the first occurrence, as libical (and RFC 5545) count it. `reachedEnd` is false when the
    /// rule goes on past `through` (or past `limit`). A rule without COUNT starts at the local date `from` when
    /// that is later than DTSTART (`icalrecur_iterator_set_start`), so a daily show that began years ago is not
    /// walked from its first day; a rule with COUNT is always counted from DTSTART.
    public static func expand(
        _ rule: ICalRule, start: ICalTime, until: ICalTime?, from: (year: Int, month: Int, day: Int)? = nil,
        through: (year: Int, month: Int, day: Int), limit: Int
    ) -> (occurrences: [ICalTime], reachedEnd: Bool) {
        lock.withLock { _ -> ([ICalTime], Bool) in
            var recurrence = icalrecurrencetype_from_string(rule.text)
            guard recurrence.freq != ICAL_NO_RECURRENCE else { return ([], true) }
            if let until { recurrence.until = cTime(until) }
            guard let iterator = icalrecur_iterator_new(recurrence, cTime(start)) else { return ([], true) }
            defer { icalrecur_iterator_free(iterator) }
            if let from, recurrence.count == 0, (from.year, from.month, from.day) > (start.year, start.month, start.day) {
                let jump = ICalTime(year: from.year, month: from.month, day: from.day, isDate: start.isDate, anchor: start.anchor)
                _ = icalrecur_iterator_set_start(iterator, cTime(jump))
            }
            var out: [ICalTime] = []
            let last = (through.year, through.month, through.day)
            while true {
                let t = icalrecur_iterator_next(iterator)
                guard icaltime_is_null_time(t) == 0 else { return (out, true) }
                guard (Int(t.year), Int(t.month), Int(t.day)) <= last, out.count < limit else { return (out, false) }
                out.append(
                    ICalTime(
                        year: Int(t.year), month: Int(t.month), day: Int(t.day), hour: Int(t.hour),
                        minute: Int(t.minute), second: Int(t.second), isDate: t.is_date != 0,
                        anchor: start.anchor))
            }
        }
    }

    /// Wall-clock fields as a floating libical time (no zone: libical iterates on the wall clock as given).
    private static func cTime(_ t: ICalTime) -> icaltimetype {
        var c = icaltime_null_time()
        c.year = Int32(t.year)
        c.month = Int32(t.month)
        c.day = Int32(t.day)
        c.hour = Int32(t.isDate ? 0 : t.hour)
        c.minute = Int32(t.isDate ? 0 : t.minute)
        c.second = Int32(t.isDate ? 0 : t.second)
        c.is_date = t.isDate ? 1 : 0
        return c
    }

    /// libical's time as `ICalTime`, with the anchor the property states (UTC when libical marked it so).
    fileprivate static func time(_ c: icaltimetype, tzid: String?) -> ICalTime? {
        guard icaltime_is_null_time(c) == 0 else { return nil }
        let anchor: ICalTime.Anchor = icaltime_is_utc(c) != 0 ? .utc : tzid.map { .zone($0) } ?? .floating
        return ICalTime(
            year: Int(c.year), month: Int(c.month), day: Int(c.day), hour: Int(c.hour), minute: Int(c.minute),
            second: Int(c.second), isDate: c.is_date != 0, anchor: c.is_date != 0 ? .floating : anchor)
    }
}

/// Feeds libical one physical line (or a part of a long one) per call, as `fgets` would, and counts lines:
/// libical reads one line ahead to find folded continuations, so the content line it returns began on the
/// line of the chunk it had read ahead the call before.
private final class LineFeeder {
    let bytes: [UInt8]
    var position = 0
    var completedLines = 0
    /// The physical line the last chunk handed out belongs to.
    var lastChunkLine = 1

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func next(into buffer: UnsafeMutablePointer<CChar>, size: Int) -> UnsafeMutablePointer<CChar>? {
        guard position < bytes.count, size > 1 else { return nil }
        lastChunkLine = completedLines + 1
        var n = 0
        while n < size - 1, position < bytes.count {
            let byte = bytes[position]
            position += 1
            // A NUL would end libical's C string early; the reader refuses such files before this.
            buffer[n] = CChar(bitPattern: byte == 0 ? 0x20 : byte)
            n += 1
            if byte == 0x0A {
                completedLines += 1
                break
            }
        }
        buffer[n] = 0
        return buffer
    }
}

private let feedLine: icalparser_line_gen_func = { buffer, size, data in
    guard let buffer, let data else { return nil }
    return Unmanaged<LineFeeder>.fromOpaque(data).takeUnretainedValue().next(into: buffer, size: size)
}

/// One parse: feeds libical, keeps the content lines with their first physical line, then reads the tree.
private struct Parser {
    struct ContentLine {
        var text: String
        var line: Int
        /// The property or keyword before ';' or ':', upper-cased ("DTSTART", "BEGIN").
        var name: String
    }

    let feeder: LineFeeder
    var lines: [ContentLine] = []

    init(_ bytes: [UInt8]) { feeder = LineFeeder(bytes) }

    mutating func run() -> ICalCalendar {
        guard let parser = icalparser_new() else {
            return ICalCalendar(
                events: [], zones: [:], problems: [CalendarError(line: nil, "libical could not start a parser.")],
                hasCalendar: false)
        }
        defer { icalparser_free(parser) }
        let data = Unmanaged.passUnretained(feeder).toOpaque()
        icalparser_set_gen_data(parser, data)
        var roots: [OpaquePointer] = []
        var startOfNext = 1
        while true {
            let start = startOfNext
            let line = withExtendedLifetime(feeder) { icalparser_get_line(parser, feedLine) }
            startOfNext = feeder.lastChunkLine
            guard let line else { break }
            let text = String(cString: line)
            if !text.isEmpty { lines.append(ContentLine(text: text, line: start, name: Parser.name(of: text))) }
            // libical takes ownership of `line`.
            if let component = icalparser_add_line(parser, line) { roots.append(component) }
        }
        if let rest = icalparser_clean(parser) { roots.append(rest) }
        defer { for root in roots { icalcomponent_free(root) } }
        return read(roots)
    }

    static func name(of text: String) -> String {
        let end = text.firstIndex { $0 == ";" || $0 == ":" } ?? text.endIndex
        return text[..<end].trimmedText.uppercased()
    }

    /// The content lines of each component of `kind` ("VEVENT"), in file order: from its BEGIN to its END.
    func ranges(of kind: String) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var open: Int?
        for (i, l) in lines.enumerated() where l.name == "BEGIN" || l.name == "END" {
            let value = l.text.split(separator: ":", maxSplits: 1).last.map { $0.trimmedText.uppercased() }
            guard value == kind else { continue }
            if l.name == "BEGIN" {
                open = i
            } else if let o = open {
                out.append(o..<(i + 1))
                open = nil
            }
        }
        if let o = open { out.append(o..<lines.count) }
        return out
    }

    func read(_ roots: [OpaquePointer]) -> ICalCalendar {
        var calendars: [OpaquePointer] = []
        for root in roots {
            if icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT {
                calendars.append(root)
            } else {
                var child = icalcomponent_get_first_component(root, ICAL_VCALENDAR_COMPONENT)
                while let c = child {
                    calendars.append(c)
                    child = icalcomponent_get_next_component(root, ICAL_VCALENDAR_COMPONENT)
                }
            }
        }
        let eventRanges = ranges(of: "VEVENT")
        let zoneRanges = ranges(of: "VTIMEZONE")
        let calendarRanges = ranges(of: "VCALENDAR")
        var events: [ICalEvent] = []
        var zones: [String: String?] = [:]
        var problems: [CalendarError] = []
        for (index, calendar) in calendars.enumerated() {
            let range = index < calendarRanges.count ? calendarRanges[index] : 0..<lines.count
            problems += errors(of: calendar, in: range, excluding: eventRanges + zoneRanges)
            var zone = icalcomponent_get_first_component(calendar, ICAL_VTIMEZONE_COMPONENT)
            while let z = zone {
                let zoneRange = zones.count < zoneRanges.count ? zoneRanges[zones.count] : range
                problems += errors(of: z, in: zoneRange, excluding: [])
                if let tzid = firstProperty(z, ICAL_TZID_PROPERTY).flatMap({ icalproperty_get_tzid($0) }) {
                    zones[String(cString: tzid)] = xProperty(z, "X-LIC-LOCATION")
                }
                zone = icalcomponent_get_next_component(calendar, ICAL_VTIMEZONE_COMPONENT)
            }
            var event = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT)
            while let e = event {
                let eventRange = events.count < eventRanges.count ? eventRanges[events.count] : range
                problems += errors(of: e, in: eventRange, excluding: [])
                events.append(self.event(e, range: eventRange))
                event = icalcomponent_get_next_component(calendar, ICAL_VEVENT_COMPONENT)
            }
        }
        problems.sort { ($0.line ?? 0) < ($1.line ?? 0) }
        return ICalCalendar(events: events, zones: zones, problems: problems, hasCalendar: !calendars.isEmpty)
    }

    // MARK: Events

    func event(_ e: OpaquePointer, range: Range<Int>) -> ICalEvent {
        var propertyLines: [String: Int] = [:]
        for l in lines[range] where propertyLines[l.name] == nil { propertyLines[l.name] = l.line }
        let beginLine = range.isEmpty ? 1 : lines[range.lowerBound].line
        var event = ICalEvent(
            line: beginLine, propertyLines: propertyLines, cancelled: false, rules: [],
            exceptionDates: [], extraDates: [])
        event.uid = text(icalcomponent_get_uid(e))
        event.summary = text(icalcomponent_get_summary(e))
        event.description = text(icalcomponent_get_description(e))
        event.location = text(icalcomponent_get_location(e))
        event.url = firstProperty(e, ICAL_URL_PROPERTY).flatMap { text(icalproperty_get_url($0)) }
        event.host =
            firstProperty(e, ICAL_CONTACT_PROPERTY).flatMap { text(icalproperty_get_contact($0)) }
            ?? firstProperty(e, ICAL_ORGANIZER_PROPERTY).flatMap { p in
                icalproperty_get_first_parameter(p, ICAL_CN_PARAMETER).flatMap { text(icalparameter_get_cn($0)) }
            }
        event.cancelled = icalcomponent_get_status(e) == ICAL_STATUS_CANCELLED
        event.start = firstProperty(e, ICAL_DTSTART_PROPERTY).flatMap {
            LibICal.time(icalproperty_get_dtstart($0), tzid: tzid($0))
        }
        event.end = firstProperty(e, ICAL_DTEND_PROPERTY).flatMap { LibICal.time(icalproperty_get_dtend($0), tzid: tzid($0)) }
        if let p = firstProperty(e, ICAL_DURATION_PROPERTY) {
            event.durationSeconds = Int(icaldurationtype_as_int(icalproperty_get_duration(p)))
        }
        event.recurrenceID = firstProperty(e, ICAL_RECURRENCEID_PROPERTY).flatMap {
            LibICal.time(icalproperty_get_recurrenceid($0), tzid: tzid($0))
        }
        let ruleLines = lines[range].filter { $0.name == "RRULE" }.map(\.line)
        for (i, p) in properties(e, ICAL_RRULE_PROPERTY).enumerated() {
            var r = icalproperty_get_rrule(p)
            guard r.freq != ICAL_NO_RECURRENCE, let cText = icalrecurrencetype_as_string_r(&r) else { continue }
            defer { icalmemory_free_buffer(cText) }
            let frequency = ICalRule.Frequency(rawValue: Int(r.freq.rawValue)) ?? .yearly
            event.rules.append(
                ICalRule(
                    text: String(cString: cText), frequency: frequency,
                    until: LibICal.time(r.until, tzid: nil), count: r.count > 0 ? Int(r.count) : nil,
                    line: i < ruleLines.count ? ruleLines[i] : event.line(of: "RRULE")))
        }
        for p in properties(e, ICAL_EXDATE_PROPERTY) {
            if let t = LibICal.time(icalproperty_get_exdate(p), tzid: tzid(p)) { event.exceptionDates.append(t) }
        }
        for p in properties(e, ICAL_RDATE_PROPERTY) {
            let value = icalproperty_get_rdate(p)
            let c = icaltime_is_null_time(value.time) == 0 ? value.time : value.period.start
            if let t = LibICal.time(c, tzid: tzid(p)) { event.extraDates.append(t) }
        }
        return event
    }

    // MARK: Problems

    /// The X-LIC-ERROR marks libical put on `component` itself, each with the line it is about: the first content
    /// line in `range` (outside `excluding`) that holds the text libical quotes, else the one of the property it
    /// names, else the component's first line.
    func errors(of component: OpaquePointer, in range: Range<Int>, excluding: [Range<Int>]) -> [CalendarError] {
        var out: [CalendarError] = []
        var used: Set<Int> = []
        for p in properties(component, ICAL_XLICERROR_PROPERTY) {
            let message = text(icalproperty_get_xlicerror(p)) ?? "libical marked an error"
            let (problem, quoted, property) = Parser.explain(message)
            let candidates = range.filter { i in !excluding.contains { $0.contains(i) && $0 != range } && !used.contains(i) }
            var index = quoted.flatMap { q in candidates.first { lines[$0].text.contains(q) } }
            if index == nil, let property { index = candidates.first { lines[$0].name == property } }
            if let index { used.insert(index) }
            let line = index.map { lines[$0].line } ?? (range.isEmpty ? nil : lines[range.lowerBound].line)
            out.append(CalendarError(line: line, problem))
        }
        return out
    }

    /// libical's X-LIC-ERROR text as a sentence, with what it quotes and the property it names:
    /// "Can't parse as DATE-TIME value in DTSTART property. Removing entire property: 2026030X1T070000" →
    /// ("libical cannot read it: Can't parse as DATE-TIME value in DTSTART property ('2026030X1T070000').",
    /// "2026030X1T070000", "DTSTART").
    static func explain(_ message: String) -> (sentence: String, quoted: String?, property: String?) {
        var main = message
        var quoted: String?
        if let colon = message.range(of: ": ", options: .backwards) {
            let tail = message[colon.upperBound...].trimmingCharacters(in: .whitespaces)
            if !tail.isEmpty { quoted = tail }
            main = String(message[..<colon.lowerBound])
        }
        for filler in [". Removing entire property", ". Removing entire component", " Removing entire property"] {
            main = main.replacingOccurrences(of: filler, with: "")
        }
        main = main.trimmingCharacters(in: CharacterSet(charactersIn: " ."))
        var property: String?
        if let r = main.range(of: #"in ([A-Z-]+) property"#, options: .regularExpression) {
            property = String(main[r].dropFirst(3).dropLast(9))
        }
        let shown = quoted.map { " ('\($0.prefix(60))')" } ?? ""
        return ("libical cannot read it: \(main)\(shown).", quoted, property)
    }

    // MARK: C helpers

    func text(_ c: UnsafePointer<CChar>?) -> String? {
        guard let c else { return nil }
        let s = String(cString: c)
        return s.isEmpty ? nil : s
    }

    func firstProperty(_ c: OpaquePointer, _ kind: icalproperty_kind) -> OpaquePointer? {
        icalcomponent_get_first_property(c, kind)
    }

    func properties(_ c: OpaquePointer, _ kind: icalproperty_kind) -> [OpaquePointer] {
        var out: [OpaquePointer] = []
        var p = icalcomponent_get_first_property(c, kind)
        while let found = p {
            out.append(found)
            p = icalcomponent_get_next_property(c, kind)
        }
        return out
    }

    func tzid(_ p: OpaquePointer) -> String? {
        icalproperty_get_first_parameter(p, ICAL_TZID_PARAMETER).flatMap { text(icalparameter_get_tzid($0)) }
    }

    func xProperty(_ c: OpaquePointer, _ name: String) -> String? {
        for p in properties(c, ICAL_X_PROPERTY) {
            guard let n = icalproperty_get_x_name(p), String(cString: n).uppercased() == name else { continue }
            return text(icalproperty_get_x(p))
        }
        return nil
    }
}
