import AubadeCalendar
import AubadeCore
import Foundation
import Testing

/// The calendars written for these tests (Fixtures/), and helpers to read them.
enum Fixtures {
    static func bytes(_ name: String) throws -> [UInt8] {
        let parts = name.split(separator: ".")
        let url = try #require(
            Bundle.module.url(
                forResource: String(parts[0]), withExtension: String(parts[1]),
                subdirectory: "Fixtures"), "fixture \(name)")
        return Array(try Data(contentsOf: url))
    }

    static func instant(_ text: String) throws -> Date {
        try Date(text, strategy: .iso8601)
    }

    static func zone(_ id: String) throws -> TimeZone {
        try #require(TimeZone(identifier: id))
    }

    static func date(_ text: String) throws -> LocalDate { try LocalDate(parsing: text) }
    static func time(_ text: String) throws -> LocalTime { try LocalTime(parsing: text) }

    /// Reads fixture `name` as programmes, on the clock zone `zone`, at `now`.
    static func programmes(_ name: String, zone: String = "Europe/Berlin", now: String) throws -> CalendarImport {
        try CalendarReader.read(
            try bytes(name), kind: .programmes, location: "/fixtures/\(name)", station: nil,
            options: CalendarReadOptions(clockZone: try Fixtures.zone(zone), now: try instant(now)))
    }

    /// Reads an inline iCalendar text (lines joined with CRLF) as programmes, expecting a refusal.
    static func refusal(_ lines: [String], kind: CalendarImport.Kind = .programmes) throws -> CalendarError {
        let text = lines.joined(separator: "\r\n") + "\r\n"
        do {
            _ = try CalendarReader.read(
                Array(text.utf8), kind: kind, location: "inline.ics", station: nil,
                options: CalendarReadOptions(
                    clockZone: try zone("Europe/Berlin"),
                    now: try instant("2027-03-20T00:00:00Z")))
        } catch let error as CalendarError {
            return error
        }
        Issue.record("the calendar was accepted")
        return CalendarError(line: nil, "accepted")
    }

    static func byKey(_ programmes: [Programme]) -> [String: Programme] {
        Dictionary(programmes.map { ($0.importKey ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Ids 1… in file order, as the store gives them (the guide orders ties by id).
    static func numbered(_ programmes: [Programme]) -> [Programme] {
        programmes.enumerated().map { i, p in
            var q = p
            q.id = Int64(i + 1)
            return q
        }
    }

    static func dates(_ texts: [String]) throws -> [LocalDate] { try texts.map(date) }
}
