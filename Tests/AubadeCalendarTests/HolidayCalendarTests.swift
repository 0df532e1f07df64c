import AubadeCalendar
import AubadeCore
import Foundation
import Testing

@Suite("Days off from a public-holiday calendar: a weekday alarm skips exactly those days across a year")
struct HolidayCalendarTests {
    static func daysOff() throws -> CalendarImport {
        try CalendarReader.read(
            try Fixtures.bytes("holidays.ics"), kind: .daysOff, location: "/fixtures/holidays.ics",
            station: nil,
            options: CalendarReadOptions(
                clockZone: try Fixtures.zone("Europe/Berlin"),
                now: try Fixtures.instant("2027-01-01T08:00:00Z")))
    }

    @Test func allDayEventsAndYearlyRulesBecomeDaysOff() throws {
        let read = try Self.daysOff()
        #expect(read.expandedThrough != nil, "the yearly rules are open-ended")
        let byName = Dictionary(grouping: read.daysOff, by: \.name)
        #expect(byName["New Year's Day"]?.map(\.rangeText) == ["2027-01-01", "2028-01-01"])
        #expect(byName["Christmas"]?.map(\.rangeText) == ["2027-12-24..2027-12-26"], "DTEND of an all-day event is exclusive")
        #expect(byName["Holiday away"]?.map(\.rangeText) == ["2027-08-09..2027-08-20"])
        #expect(byName["Good Friday"]?.map(\.rangeText) == ["2027-03-26"], "no DTEND: one date")
        #expect(Set(read.daysOff.compactMap(\.importKey)).count == read.daysOff.count)
    }

    @Test func aWeekdayAlarmSkipsExactlyTheDaysOffOfTheYear() throws {
        let berlin = try Fixtures.zone("Europe/Berlin")
        let days = DaysOff(try Self.daysOff().daysOff)
        var work = Alarm(id: 1, name: "Work", time: try Fixtures.time("06:45"), recurrence: .weekly(.workdays), skipDaysOff: true)
        try work.validate()
        var plain = work
        plain.id = 2
        plain.name = "Gym"
        plain.skipDaysOff = false
        var once = Alarm(
            id: 3, name: "Flight", time: try Fixtures.time("05:00"), recurrence: .once(try Fixtures.date("2027-12-24")),
            skipDaysOff: true)
        try once.validate()
        let start = try Fixtures.instant("2027-01-01T00:00:00Z")
        let end = try Fixtures.instant("2028-01-01T00:00:00Z")
        let firings = AlarmSchedule.upcoming(
            [work, plain, once], after: start.addingTimeInterval(-3600), count: 1000,
            defaultZone: berlin, before: end, daysOff: days, includeSkipped: true)
        let skipped = firings.filter { $0.skip != nil }
        #expect(skipped.allSatisfy { $0.alarmID == 1 }, "only the alarm that skips days off, and never a one-shot")
        #expect(
            skipped.map { $0.occurrence.date.description } == [
                "2027-01-01", "2027-03-26", "2027-03-29",
                "2027-08-09", "2027-08-10", "2027-08-11", "2027-08-12", "2027-08-13",
                "2027-08-16", "2027-08-17", "2027-08-18", "2027-08-19", "2027-08-20", "2027-12-24",
            ])
        #expect(skipped.first?.skip == .dayOff("New Year's Day") && skipped.first?.skip?.sentence == "skipped: New Year's Day")
        let rung = firings.filter { $0.alarmID == 1 && $0.skip == nil }
        #expect(rung.count == 261 - 14, "2027 has 261 weekdays")
        #expect(firings.filter { $0.alarmID == 2 }.count == 261 && firings.contains { $0.alarmID == 3 && $0.skip == nil })
        // The honouring form (the engine's): the next firing from Christmas Eve passes over it to the 27th.
        let next = AlarmSchedule.next(
            of: work, after: try Fixtures.instant("2027-12-23T12:00:00Z"), defaultZone: berlin,
            honouringSkip: true, daysOff: days)
        #expect(try next?.date == Fixtures.date("2027-12-27"))
    }
}
