import AubadeCore
import Foundation

/// The JSON schedule form, for stations that publish no iCalendar (README.md, "Programme schedules"):
///
/// ```json
/// {"timeZone": "Europe/Paris",
///  "programmes": [
///    {"id": "matin", "title": "Le Matin", "days": "mon-fri", "start": "06:00", "end": "09:00",
///     "host": "…", "description": "…", "location": "…", "url": "https://…"},
///    {"title": "Nuit blanche", "date": "2027-03-27", "start": "23:00", "end": "02:00"},
///    {"title": "Concert", "dates": ["2027-04-02", "2027-04-09"], "start": "20:00", "end": "22:00"}]}
/// ```
///
/// `days` is what `alarm add --days` takes ("mon-fri", "sat,sun", "daily"; the default is daily), or give one
/// `date` or a list of `dates`; `start` and `end` are HH:MM (an end before the start runs past midnight);
/// `timeZone` (default: the clock's zone) is a tz database name; `id` (optional) keeps a programme's
/// reservation across re-imports even when its title or time changes. A top-level array of programmes is
/// accepted too. Unknown keys are refused, with the entry's line.
struct JSONScheduleReader {
    static let entryKeys = ["id", "title", "days", "date", "dates", "start", "end", "host", "description", "location", "url"]

    let bytes: [UInt8]

    func programmes() throws(CalendarError) -> [Programme] {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
        } catch {
            throw JSONScheduleReader.syntaxError(error, bytes: bytes)
        }
        let lines = JSONScheduleReader.entryLines(bytes, nested: object is [String: Any])
        var zoneID: String?
        let entries: [Any]
        if let top = object as? [String: Any] {
            if let unknown = top.keys.sorted().first(where: { !["timeZone", "programmes"].contains($0) }) {
                throw CalendarError(line: 1, "the key '\(unknown)' is unknown; a schedule has 'timeZone' and 'programmes'.")
            }
            guard let list = top["programmes"] as? [Any] else {
                throw CalendarError(line: 1, "the schedule has no 'programmes' list.")
            }
            entries = list
            if let zone = top["timeZone"] {
                guard let id = zone as? String, TimeZone(identifier: id) != nil else {
                    throw CalendarError(line: 1, "'timeZone' must be a tz database name such as Europe/Paris.")
                }
                zoneID = id
            }
        } else if let list = object as? [Any] {
            entries = list
        } else {
            throw CalendarError(line: 1, "a JSON schedule is an object with a 'programmes' list, or a list of programmes.")
        }
        var out: [Programme] = []
        for (i, entry) in entries.enumerated() {
            let line = i < lines.count ? lines[i] : 1
            guard let fields = entry as? [String: Any] else {
                throw CalendarError(line: line, "programme \(i + 1) is not an object with a title, days, start and end.")
            }
            if let unknown = fields.keys.sorted().first(where: { !JSONScheduleReader.entryKeys.contains($0) }) {
                throw CalendarError(
                    line: line,
                    "the key '\(unknown)' is unknown; a programme has \(JSONScheduleReader.entryKeys.joined(separator: ", ")).")
            }
            func text(_ key: String) throws(CalendarError) -> String? {
                guard let value = fields[key], !(value is NSNull) else { return nil }
                guard let s = value as? String else { throw CalendarError(line: line, "'\(key)' must be text.") }
                return s
            }
            var dates: [String]?
            if let value = fields["dates"] {
                guard let list = value as? [String] else {
                    throw CalendarError(line: line, "'dates' must be a list of YYYY-MM-DD dates.")
                }
                dates = list
            }
            let row = ScheduleRow(
                line: line, id: try text("id"), days: try text("days"), date: try text("date"), dates: dates,
                start: try text("start"), end: try text("end"), title: try text("title"),
                host: try text("host"), description: try text("description"),
                location: try text("location"), url: try text("url"), zoneID: zoneID)
            out += try row.programmes()
        }
        return out
    }

    /// Foundation's syntax error, with the line it names ("… around line 3, column 5."), or the line of the
    /// character it names ("… around character 38.").
    static func syntaxError(_ error: any Error, bytes: [UInt8]) -> CalendarError {
        let debug = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        var line: Int?
        if let r = debug.range(of: #"line \d+"#, options: .regularExpression) {
            line = Int(debug[r].dropFirst(5))
        } else if let r = debug.range(of: #"character \d+"#, options: .regularExpression),
            let offset = Int(debug[r].dropFirst(10))
        {
            line = bytes.prefix(offset).filter { $0 == 0x0A }.count + 1
        }
        return CalendarError(
            line: line ?? 1, "this is not valid JSON (\(debug.trimmingCharacters(in: CharacterSet(charactersIn: " ."))).")
    }

    /// The line each entry of the programme list begins on: the objects one level inside the list (two levels
    /// inside the top-level object when `nested`). Strings are skipped, escapes included.
    static func entryLines(_ bytes: [UInt8], nested: Bool) -> [Int] {
        let entryDepth = nested ? 2 : 1
        var lines: [Int] = []
        var line = 1
        var depth = 0
        var inString = false
        var escaped = false
        for b in bytes {
            if b == 0x0A { line += 1 }
            if inString {
                if escaped { escaped = false } else if b == 0x5C { escaped = true } else if b == 0x22 { inString = false }
                continue
            }
            switch b {
            case 0x22: inString = true
            case 0x7B, 0x5B:  // { [
                if depth == entryDepth { lines.append(line) }
                depth += 1
            case 0x7D, 0x5D: depth -= 1
            default: break
            }
        }
        return lines
    }
}
