import AubadeCalendar
import AubadeCore
import Foundation
import Testing

// Expected instants from Python's zoneinfo, e.g.
//   datetime(2027, 3, 29, 7, 0, tzinfo=ZoneInfo("Europe/Berlin")).astimezone(UTC) → 05:00Z.
// 2027-03-28 (Sunday) is the night Europe springs forward (02:00→03:00); 2027-03-14 the United States'.

@Suite("iCalendar programmes through libical: zones, DST weeks, recurrences, now and next")
struct ICalendarProgrammeTests {
    static let berlinNow = "2027-03-20T00:00:00Z"

    @Test func aStationCalendarBecomesRowsWithTheirAiringDates() throws {
        let read = try Fixtures.programmes("berlin.ics", now: Self.berlinNow)
        #expect(read.format == "ics" && read.kind == .programmes)
        let rows = Fixtures.byKey(read.programmes)
        #expect(
            Set(rows.keys) == [
                "morning@radio-berlin.test", "morning@radio-berlin.test#08:00", "nightjazz@radio-berlin.test",
                "worldnews@radio-berlin.test", "concert@radio-berlin.test",
                "concert@radio-berlin.test#21:00", "brunch@radio-berlin.test",
            ],
            "one row per begin time; the cancelled event gives none")

        // Weekly on weekdays, open-ended: expanded through the horizon; the EXDATE (Wed 24) and the overridden
        // occurrence (Fri 26) are not airings of this row.
        let morning = try #require(rows["morning@radio-berlin.test"])
        #expect(
            try morning.name == "Morning Show" && morning.begin == Fixtures.time("07:00") && morning.end == Fixtures.time("09:00")
        )
        #expect(morning.timeZoneID == "Europe/Berlin")
        let dates = try #require(morning.dates)
        #expect(
            try Array(dates.prefix(5)) == Fixtures.dates(["2027-03-22", "2027-03-23", "2027-03-25", "2027-03-29", "2027-03-30"]))
        #expect(dates.allSatisfy { Weekdays.workdays.contains($0.weekday) })
        #expect(dates.last == read.expandedThrough || dates.last! < read.expandedThrough!)
        let horizon = LocalDate(try Fixtures.instant(Self.berlinNow), in: try Fixtures.zone("Europe/Berlin")).adding(days: 400)
        #expect(read.expandedThrough == horizon)
        // Escaped and folded text, unescaped and unfolded by libical; its line break made a space (R40).
        #expect(morning.details == "News, weather; and the day's first records. Call in: 030 123 45")
        #expect(
            morning.location == "Studio 1, Funkhaus" && morning.url == "https://radio-berlin.test/morning"
                && morning.host == "Anna Weber")

        let late = try #require(rows["morning@radio-berlin.test#08:00"])
        #expect(try late.name == "Morning Show (late edition)" && late.date == Fixtures.date("2027-03-26") && late.dates == nil)
        #expect(try late.begin == Fixtures.time("08:00") && late.end == Fixtures.time("10:00"))

        // COUNT=4, over midnight.
        let jazz = try #require(rows["nightjazz@radio-berlin.test"])
        #expect(try jazz.dates == Fixtures.dates(["2027-03-20", "2027-03-27", "2027-04-03", "2027-04-10"]))
        #expect(try jazz.begin == Fixtures.time("23:00") && jazz.end == Fixtures.time("01:00"))

        // UTC times stay UTC; UNTIL ends the daily rule.
        let news = try #require(rows["worldnews@radio-berlin.test"])
        #expect(try news.timeZoneID == "UTC" && news.begin == Fixtures.time("06:00") && news.end == Fixtures.time("06:30"))
        #expect(
            try news.dates?.count == 12 && news.dates?.first == Fixtures.date("2027-03-22")
                && news.dates?.last == Fixtures.date("2027-04-02"))

        // RDATE: one at the same time joins the row, one at another time is a row of its own.
        let concert = try #require(rows["concert@radio-berlin.test"])
        #expect(try concert.dates == Fixtures.dates(["2027-03-23", "2027-03-30"]))
        let laterConcert = try #require(rows["concert@radio-berlin.test#21:00"])
        #expect(try laterConcert.date == Fixtures.date("2027-04-06") && laterConcert.end == Fixtures.time("23:00"))

        // A floating time: the clock's zone (nil), whatever it is.
        let brunch = try #require(rows["brunch@radio-berlin.test"])
        #expect(brunch.timeZoneID == nil)
        #expect(try brunch.dates == Fixtures.dates(["2027-03-21", "2027-03-28", "2027-04-04", "2027-04-11"]))
    }

    @Test(arguments: [
        // (instant, on air, next) — names; "-" for none.
        ("2027-03-22T06:45:00Z", "Morning Show", "Morning Show"),  // Mon 07:45 CET; the next begins Tue 07:00
        ("2027-03-24T06:15:00Z", "World News", "Morning Show"),  // Wed: the EXDATE — only the news at 07:00 CET
        ("2027-03-26T06:45:00Z", "-", "Morning Show (late edition)"),  // Fri 07:45: moved to 08:00
        ("2027-03-27T23:30:00Z", "Night Jazz", "World News"),  // the DST night, 00:30 CET: since 23:00, past midnight
        ("2027-03-29T05:15:00Z", "Morning Show", "World News"),  // Mon 07:15 CEST: 07:00 local after the change; news 06:00Z
        ("2027-03-28T08:30:00Z", "Sunday Brunch", "Morning Show"),  // Sun 10:30 CEST, floating in Berlin
    ])
    func nowAndNextAtChosenInstants(at: String, onAir: String, next: String) throws {
        let read = try Fixtures.programmes("berlin.ics", now: Self.berlinNow)
        let guide = ProgrammeGuide(programmes: Fixtures.numbered(read.programmes), zone: try Fixtures.zone("Europe/Berlin"))
        let instant = try Fixtures.instant(at)
        #expect(guide.onAir(at: instant)?.programme.name ?? "-" == onAir)
        #expect(guide.next(after: instant)?.programme.name ?? "-" == next)
    }

    @Test func aWeeklyShowIsAtItsLocalTimeOnBothSidesOfTheChange() throws {
        let read = try Fixtures.programmes("berlin.ics", now: Self.berlinNow)
        let berlin = try Fixtures.zone("Europe/Berlin")
        let morning = try #require(read.programmes.first { $0.importKey == "morning@radio-berlin.test" })
        let guide = ProgrammeGuide(programmes: [morning], zone: try Fixtures.zone("Asia/Tokyo"))
        let before = try #require(guide.current(of: morning, at: try Fixtures.instant("2027-03-25T00:00:00Z")))
        let after = try #require(guide.current(of: morning, at: try Fixtures.instant("2027-03-29T00:00:00Z")))
        #expect(
            try before.begin == Fixtures.instant("2027-03-25T06:00:00Z") && before.end == Fixtures.instant("2027-03-25T08:00:00Z")
        )
        #expect(
            try after.begin == Fixtures.instant("2027-03-29T05:00:00Z") && after.end == Fixtures.instant("2027-03-29T07:00:00Z"))
        #expect(
            LocalTime(before.begin, in: berlin) == LocalTime(after.begin, in: berlin), "the programme's own zone, not the clock's"
        )
    }

    @Test func aZoneNamedByItsVTimezoneAndAUTCUntilInNewYork() throws {
        let read = try Fixtures.programmes("newyork.ics", zone: "Europe/Berlin", now: "2027-03-01T00:00:00Z")
        let rows = Fixtures.byKey(read.programmes)
        let wake = try #require(rows["wake@ny.test"])
        #expect(wake.timeZoneID == "America/New_York", "the TZID's X-LIC-LOCATION")
        // UNTIL 10:30Z on Wed 31 is 06:30 EDT: the 07:00 airing that day is after it.
        #expect(
            try wake.dates
                == Fixtures.dates([
                    "2027-03-08", "2027-03-10", "2027-03-12", "2027-03-15", "2027-03-17",
                    "2027-03-19", "2027-03-22", "2027-03-24", "2027-03-26", "2027-03-29",
                ]))
        #expect(read.expandedThrough == nil, "every rule ends")
        let guide = ProgrammeGuide(programmes: Fixtures.numbered(read.programmes), zone: try Fixtures.zone("Europe/Berlin"))
        // 07:00 local before and after 2027-03-14: 12:00Z (EST), then 11:00Z (EDT).
        #expect(
            try guide.next(after: try Fixtures.instant("2027-03-12T00:00:00Z"))?.begin == Fixtures.instant("2027-03-12T12:00:00Z")
        )
        #expect(
            try guide.next(after: try Fixtures.instant("2027-03-15T00:00:00Z"))?.begin == Fixtures.instant("2027-03-15T11:00:00Z")
        )
        // 02:30 on the night of the change does not exist: it airs at 03:30 EDT (R2), not a day later.
        let insomniac = try #require(rows["insomniac@ny.test"])
        #expect(try insomniac.dates == Fixtures.dates(["2027-03-07", "2027-03-14", "2027-03-21"]))
        let gap = try #require(guide.next(after: try Fixtures.instant("2027-03-14T06:00:00Z")))
        #expect(try gap.programme.name == "Insomniac Hour" && gap.begin == Fixtures.instant("2027-03-14T07:30:00Z"))
    }

    @Test func aReadLaterDropsWhatIsPastAndReachesFurther() throws {
        let early = try Fixtures.programmes("berlin.ics", now: Self.berlinNow)
        let later = try Fixtures.programmes("berlin.ics", now: "2027-04-05T12:00:00Z")
        let rows = Fixtures.byKey(later.programmes)
        #expect(try rows["morning@radio-berlin.test"]?.dates?.first == Fixtures.date("2027-04-05"))
        #expect(
            try rows["nightjazz@radio-berlin.test"]?.dates == Fixtures.dates(["2027-04-10"])
                || rows["nightjazz@radio-berlin.test"]?.date == Fixtures.date("2027-04-10"))
        #expect(rows["worldnews@radio-berlin.test"] == nil, "ended on 2 April")
        #expect(later.expandedThrough! > early.expandedThrough!)
        #expect(later.contentHash == early.contentHash, "the same bytes")
    }

    @Test func aShowThatBeganYearsAgoIsExpandedFromTodayNotFromItsFirstDay() throws {
        // A daily show since 2001 and a yearly holiday since 1990: libical's iterator starts at the window (no COUNT),
        // so neither runs out of its 10,000 occurrences before today.
        let text =
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN",
                "BEGIN:VEVENT", "UID:daily@old.test", "DTSTART;TZID=Europe/Berlin:20010101T060000", "DURATION:PT1H",
                "RRULE:FREQ=DAILY", "SUMMARY:Since 2001", "END:VEVENT",
                "BEGIN:VEVENT", "UID:counted@old.test", "DTSTART;TZID=Europe/Berlin:20260101T080000", "DURATION:PT1H",
                "RRULE:FREQ=DAILY;COUNT=100", "SUMMARY:Counted", "END:VEVENT", "END:VCALENDAR",
            ].joined(separator: "\r\n") + "\r\n"
        let read = try CalendarReader.read(
            Array(text.utf8), kind: .programmes, location: "old.ics", station: nil,
            options: CalendarReadOptions(
                clockZone: try Fixtures.zone("Europe/Berlin"),
                now: try Fixtures.instant("2027-03-20T12:00:00Z")))
        let rows = Fixtures.byKey(read.programmes)
        let daily = try #require(rows["daily@old.test"]?.dates)
        #expect(try daily.first == Fixtures.date("2027-03-19") && daily.count == 402, "yesterday through 400 days ahead")
        #expect(rows["counted@old.test"] == nil, "COUNT=100 from 2026-01-01 ended in April 2026")
        let holidays =
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN",
                "BEGIN:VEVENT", "UID:xmas@old.test", "DTSTART;VALUE=DATE:19901225", "RRULE:FREQ=YEARLY",
                "SUMMARY:Christmas Day", "END:VEVENT", "END:VCALENDAR",
            ].joined(separator: "\r\n") + "\r\n"
        let days = try CalendarReader.read(
            Array(holidays.utf8), kind: .daysOff, location: "h.ics", station: nil,
            options: CalendarReadOptions(
                clockZone: try Fixtures.zone("Europe/Berlin"),
                now: try Fixtures.instant("2027-03-20T12:00:00Z")))
        #expect(days.daysOff.map(\.rangeText) == ["2027-12-25"])
    }

    @Test func fiveThousandEventsImportCompletely() throws {
        // The figure (well under a second) is measured by `make bench` (bench/calendar_bench.py), not here.
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Aubade tests//Big//EN"]
        let berlin = try Fixtures.zone("Europe/Berlin")
        let start = try Fixtures.date("2027-03-01")
        for i in 0..<5000 {
            let day = start.adding(days: i / 24)
            let hour = i % 24
            let stamp = String(format: "%04d%02d%02dT%02d0000", day.year, day.month, day.day, hour)
            lines += [
                "BEGIN:VEVENT", "UID:slot-\(i)@big.test", "DTSTART;TZID=Europe/Berlin:\(stamp)", "DURATION:PT50M",
                "SUMMARY:Slot \(i)", "DESCRIPTION:Programme number \(i)\\, one of many", "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        let bytes = Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        let read = try CalendarReader.read(
            bytes, kind: .programmes, location: "big.ics", station: nil,
            options: CalendarReadOptions(clockZone: berlin, now: try Fixtures.instant("2027-02-28T00:00:00Z")))
        #expect(read.programmes.count == 5000)
        #expect(Set(read.programmes.compactMap(\.importKey)).count == 5000)
        #expect(
            read.programmes.last?.name == "Slot 4999" && read.programmes.last?.details == "Programme number 4999, one of many")
    }
}
