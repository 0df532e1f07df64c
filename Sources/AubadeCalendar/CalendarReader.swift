public import AubadeCore
import Crypto
import Foundation

/// Reads a calendar's bytes — iCalendar, or the JSON or CSV schedule form — into the `CalendarImport` that
/// `ClockEdit.importCalendar` carries to the store. The format is recognised from the content (BEGIN:VCALENDAR;
/// a JSON object or list; else CSV). Days off come from iCalendar only. Pure apart from libical: no I/O, no
/// clock read (`options.now` says when).
public enum CalendarReader {
    /// The largest calendar accepted: 8 MiB (a year of a busy station's schedule is well under 1 MiB).
    public static let maxBytes = 8 << 20

    public enum Format: String, Sendable {
        case ics, json, csv
    }

    /// The calendar in `bytes`, read as `kind` for the source at `location` (a file path or URL, as named by
    /// the user), on `station` (a saved station's name) for programmes. Throws the first problem, with its line.
    public static func read(
        _ bytes: [UInt8], kind: CalendarImport.Kind, location: String, station: String?,
        options: CalendarReadOptions
    ) throws(CalendarError) -> CalendarImport {
        guard bytes.count <= maxBytes else {
            throw CalendarError(line: nil, "the calendar is \(bytes.count / 1024) KiB; at most \(maxBytes >> 20) MiB is read.")
        }
        if let nul = bytes.firstIndex(of: 0) {
            throw CalendarError(
                line: bytes[..<nul].filter { $0 == 0x0A }.count + 1, "the file holds a NUL byte; it is not a text calendar.")
        }
        let format = detect(bytes)
        var result = CalendarImport(
            kind: kind, location: location, station: station, format: format.rawValue,
            contentHash: hash(bytes))
        switch (kind, format) {
        case (.programmes, .ics):
            let read = try ICalendarReader(bytes: bytes, options: options).programmes()
            result.programmes = read.programmes
            result.expandedThrough = read.expandedThrough
        case (.programmes, .json):
            result.programmes = try JSONScheduleReader(bytes: bytes).programmes()
        case (.programmes, .csv):
            result.programmes = try CSVScheduleReader(bytes: bytes).programmes()
        case (.daysOff, .ics):
            let read = try ICalendarReader(bytes: bytes, options: options).daysOff()
            result.daysOff = read.daysOff
            result.expandedThrough = read.expandedThrough
        case (.daysOff, _):
            throw CalendarError(
                line: 1, "days off are read from an iCalendar file (BEGIN:VCALENDAR), such as a public-holiday calendar.")
        }
        return result
    }

    /// The format of a calendar's bytes, from its first characters.
    public static func detect(_ bytes: [UInt8]) -> Format {
        var start = bytes[...]
        if start.starts(with: [0xEF, 0xBB, 0xBF]) { start = start.dropFirst(3) }
        let head = String(decoding: start.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if head.uppercased().hasPrefix("BEGIN:VCALENDAR") { return .ics }
        if head.hasPrefix("{") || head.hasPrefix("[") { return .json }
        return .csv
    }

    /// SHA-256 of the bytes, hex: an unchanged calendar is not imported again.
    public static func hash(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// The line holding the first byte that is not UTF-8.
    static func firstInvalidUTF8Line(_ bytes: [UInt8]) -> Int {
        var line = 1
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            if String(validating: bytes[start..<i], as: UTF8.self) == nil { return line }
            line += 1
            start = i + 1
        }
        return line
    }
}
