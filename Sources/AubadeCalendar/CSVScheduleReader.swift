import AubadeCore
import Foundation

/// The CSV schedule form (README.md, "Programme schedules"): one programme a record, the columns
///
///     weekday,start,end,title,host,description
///     mon-fri,06:00,09:00,Le Matin,Anna,"News, weather; and music"
///     sun,23:00,01:00,Night Owls,,
///     2027-03-27,20:00,22:00,Concert,,Live from the hall
///
/// — `weekday` as `alarm add --days` takes it ("mon", "mon-fri", "sat,sun" quoted, "daily") or one date
/// YYYY-MM-DD; times HH:MM on the clock's zone (an end before the start runs past midnight); `host` and
/// `description` may be empty. The first record may be this header. Fields are RFC 4180: commas, quotes ("")
/// and line breaks inside double quotes. Blank lines and lines starting with '#' are skipped.
struct CSVScheduleReader {
    static let columns = ["weekday", "start", "end", "title", "host", "description"]

    let bytes: [UInt8]

    func programmes() throws(CalendarError) -> [Programme] {
        var out: [Programme] = []
        for (index, record) in try records().enumerated() {
            let fields = record.fields
            if index == 0, fields.first?.trimmedText.lowercased() == "weekday" { continue }
            guard (4...6).contains(fields.count) else {
                throw CalendarError(
                    line: record.line,
                    "a record has \(fields.count) field(s); give \(CSVScheduleReader.columns.joined(separator: ", ")) (host and description may be left empty)."
                )
            }
            func field(_ i: Int) -> String? {
                guard i < fields.count else { return nil }
                let t = fields[i].trimmedText
                return t.isEmpty ? nil : t
            }
            let row = ScheduleRow(
                line: record.line, days: field(0), start: field(1), end: field(2), title: field(3),
                host: field(4), description: field(5))
            out += try row.programmes()
        }
        return out
    }

    /// The records with the line each begins on. A quote left open is refused with the line it opened on.
    func records() throws(CalendarError) -> [(line: Int, fields: [String])] {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CalendarError(line: CalendarReader.firstInvalidUTF8Line(bytes), "the file is not UTF-8 text.")
        }
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var line = 1
        var recordLine = 1
        var quoteLine = 0
        var inQuotes = false
        var chars = Array(text.replacingOccurrences(of: "\r\n", with: "\n"))
        if chars.first == "\u{FEFF}" { chars.removeFirst() }
        var i = 0
        func endRecord() {
            fields.append(field)
            let blank = fields.count == 1 && fields[0].trimmedText.isEmpty
            let comment = fields.first?.trimmedText.hasPrefix("#") == true
            if !blank && !comment { records.append((recordLine, fields)) }
            fields = []
            field = ""
        }
        while i < chars.count {
            let c = chars[i]
            i += 1
            if inQuotes {
                if c == "\"" {
                    if i < chars.count, chars[i] == "\"" {
                        field.append("\"")
                        i += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    if c == "\n" { line += 1 }
                    field.append(c)
                }
                continue
            }
            switch c {
            case "\"" where field.trimmedText.isEmpty:
                inQuotes = true
                field = ""
                quoteLine = line
            case ",":
                fields.append(field)
                field = ""
            case "\n":
                endRecord()
                line += 1
                recordLine = line
            default:
                field.append(c)
            }
        }
        if inQuotes { throw CalendarError(line: quoteLine, "a quoted field is never closed.") }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return records
    }
}
