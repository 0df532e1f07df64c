import AubadeCalendar
import AubadeCore
import Foundation
import Testing

@Suite("Calendars refused: one sentence naming the line")
struct CalendarRefusalTests {
    @Test func libicalsOwnParseErrorIsReportedOnItsPhysicalLine() throws {
        do {
            _ = try Fixtures.programmes("broken.ics", now: "2027-03-20T00:00:00Z")
            Issue.record("accepted")
        } catch let error as CalendarError {
            // Line 14, after a content line folded over lines 12-13: the line count follows libical's unfolding.
            #expect(error.line == 14)
            #expect(error.problem.contains("DTSTART") && error.problem.contains("'2027-03-22 07:00'"), "\(error.problem)")
            #expect(error.sentence(location: "broken.ics").hasPrefix("broken.ics, line 14: libical cannot read it"))
        }
    }

    static let head = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN", "BEGIN:VEVENT", "UID:x@t"]

    @Test func eventsAProgrammeCannotBeAreRefusedWithTheirLine() throws {
        let allDay = try Fixtures.refusal(
            Self.head + ["DTSTART;VALUE=DATE:20270322", "SUMMARY:A", "END:VEVENT", "END:VCALENDAR"])
        #expect(allDay.line == 6 && allDay.problem.contains("lasts all day"))
        let noEnd = try Fixtures.refusal(Self.head + ["SUMMARY:A", "DTSTART:20270322T070000", "END:VEVENT", "END:VCALENDAR"])
        #expect(noEnd.line == 7 && noEnd.problem.contains("has no DTEND or DURATION"))
        let long = try Fixtures.refusal(
            Self.head + [
                "DTSTART:20270322T070000", "DTEND:20270323T070000", "SUMMARY:A",
                "END:VEVENT", "END:VCALENDAR",
            ])
        #expect(long.line == 7 && long.problem.contains("a day or more"))
        let hourly = try Fixtures.refusal(
            Self.head + [
                "DTSTART:20270322T070000", "DURATION:PT10M", "SUMMARY:A",
                "RRULE:FREQ=HOURLY;COUNT=3", "END:VEVENT", "END:VCALENDAR",
            ])
        #expect(hourly.line == 9 && hourly.problem.contains("more than once a day"))
        let zone = try Fixtures.refusal(
            Self.head + [
                "DTSTART;TZID=Mars/Olympus_Mons:20270322T070000", "DURATION:PT1H",
                "SUMMARY:A", "END:VEVENT", "END:VCALENDAR",
            ])
        #expect(zone.line == 6 && zone.problem.contains("'Mars/Olympus_Mons' is not a tz database name"))
        let noName = try Fixtures.refusal(
            Self.head + ["DTSTART:20270322T070000", "DURATION:PT1H", "END:VEVENT", "END:VCALENDAR"])
        #expect(noName.line == 4 && noName.problem.contains("no SUMMARY"))
        let twice = try Fixtures.refusal(
            Self.head + [
                "DTSTART:20270322T070000", "DURATION:PT1H", "SUMMARY:A", "END:VEVENT",
                "BEGIN:VEVENT", "UID:x@t", "DTSTART:20270323T070000", "DURATION:PT1H",
                "SUMMARY:B", "END:VEVENT", "END:VCALENDAR",
            ])
        #expect(twice.line == 10 && twice.problem.contains("(the first is on line 4)"))
        let notACalendar = try Fixtures.refusal(["BEGIN:VEVENT", "END:VEVENT"], kind: .daysOff)
        #expect(notACalendar.line == 1)
    }

    @Test func aBadJSONEntryIsNamedByItsLine() throws {
        do {
            _ = try Fixtures.programmes("schedule-bad.json", now: "2027-03-20T00:00:00Z")
            Issue.record("accepted")
        } catch let error as CalendarError {
            #expect(error.line == 4 && error.problem.contains("'25:00'"), "\(error)")
        }
        do {
            _ = try CalendarReader.read(
                Array("{\n  \"programmes\": [\n    {\"title\": \"A\",,}\n".utf8), kind: .programmes,
                location: "x.json", station: nil,
                options: CalendarReadOptions(clockZone: try Fixtures.zone("UTC"), now: Date()))
            Issue.record("accepted")
        } catch let error as CalendarError {
            #expect(error.line == 3 && error.problem.hasPrefix("this is not valid JSON"), "\(error)")
        }
    }

    /// A refusal quotes what the calendar says; made plain (R40), it is one line with no escape sequence or
    /// bidirectional control in it, whatever the file held.
    @Test func aRefusalThatQuotesTheCalendarIsPlain() throws {
        do {
            _ = try CalendarReader.read(
                Array("mon,\"25:00\n\u{1B}[2Jforged\u{202E}\",07:00,A\n".utf8), kind: .programmes, location: "x.csv",
                station: nil, options: CalendarReadOptions(clockZone: try Fixtures.zone("UTC"), now: Date()))
            Issue.record("accepted")
        } catch let error as CalendarError {
            #expect(error.line == 1 && error.problem.contains("'25:00 [2Jforged'"), "\(error)")
            #expect(!error.problem.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{202E}" })
        }
    }

    @Test func aBadCSVRecordIsNamedByItsLine() throws {
        do {
            _ = try Fixtures.programmes("schedule-bad.csv", now: "2027-03-20T00:00:00Z")
            Issue.record("accepted")
        } catch let error as CalendarError {
            #expect(error.line == 3 && error.problem.contains("someday"), "\(error)")
        }
        do {
            _ = try CalendarReader.read(
                Array("mon,06:00,07:00,A\n\"tue,07:00,08:00,B\n".utf8), kind: .programmes,
                location: "x.csv", station: nil,
                options: CalendarReadOptions(clockZone: try Fixtures.zone("UTC"), now: Date()))
            Issue.record("accepted")
        } catch let error as CalendarError {
            #expect(error.line == 2 && error.problem == "a quoted field is never closed.")
        }
    }
}
