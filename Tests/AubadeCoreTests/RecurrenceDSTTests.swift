import AubadeCore
import Foundation
import Testing

// Expected instants come from Python's zoneinfo (system tzdata 2025b), not from this code:
//   datetime(y, m, d, hh, mm, tzinfo=ZoneInfo(zone)).astimezone(UTC)
// with fold=0, which reads a gap time with the offset before the gap (R2: 02:30 -> 03:30) and an overlap
// time as its first occurrence (R3). "next" rows walk local dates in Python, resolve each, keep instants
// after the start, drop duplicate instants. The comment after each row is the wall time with its offset.

@Suite("Recurrence: wall time to instant, DST and odd zones (R1–R4)")
struct RecurrenceDSTTests {
    static let resolutions: [(zone: String, date: String, time: String, utc: String)] = [
        ("Europe/Berlin", "2026-03-29", "01:59", "2026-03-29T00:59:00Z"),  // 01:59 +01:00, just before the gap
        ("Europe/Berlin", "2026-03-29", "02:00", "2026-03-29T01:00:00Z"),  // gap -> 03:00 +02:00
        ("Europe/Berlin", "2026-03-29", "02:30", "2026-03-29T01:30:00Z"),  // gap -> 03:30 +02:00
        ("Europe/Berlin", "2026-03-29", "02:59", "2026-03-29T01:59:00Z"),  // gap -> 03:59 +02:00
        ("Europe/Berlin", "2026-03-29", "03:00", "2026-03-29T01:00:00Z"),  // 03:00 +02:00
        ("Europe/Berlin", "2026-10-25", "01:59", "2026-10-24T23:59:00Z"),  // 01:59 +02:00
        ("Europe/Berlin", "2026-10-25", "02:00", "2026-10-25T00:00:00Z"),  // overlap, first: 02:00 +02:00
        ("Europe/Berlin", "2026-10-25", "02:30", "2026-10-25T00:30:00Z"),  // overlap, first: 02:30 +02:00
        ("Europe/Berlin", "2026-10-25", "03:00", "2026-10-25T02:00:00Z"),  // 03:00 +01:00
        ("America/New_York", "2026-03-08", "02:30", "2026-03-08T07:30:00Z"),  // gap -> 03:30 -04:00
        ("America/New_York", "2026-03-08", "03:00", "2026-03-08T07:00:00Z"),  // 03:00 -04:00
        ("America/New_York", "2026-11-01", "01:00", "2026-11-01T05:00:00Z"),  // overlap, first: 01:00 -04:00
        ("America/New_York", "2026-11-01", "01:30", "2026-11-01T05:30:00Z"),  // overlap, first: 01:30 -04:00
        ("America/New_York", "2026-11-01", "02:00", "2026-11-01T07:00:00Z"),  // 02:00 -05:00
        ("Australia/Lord_Howe", "2026-04-05", "01:29", "2026-04-04T14:29:00Z"),  // 01:29 +11:00
        ("Australia/Lord_Howe", "2026-04-05", "01:45", "2026-04-04T14:45:00Z"),  // 30-min overlap, first: +11:00
        ("Australia/Lord_Howe", "2026-04-05", "02:00", "2026-04-04T15:30:00Z"),  // 02:00 +10:30
        ("Australia/Lord_Howe", "2026-10-04", "02:15", "2026-10-03T15:45:00Z"),  // 30-min gap -> 02:45 +11:00
        ("Australia/Lord_Howe", "2026-10-04", "02:30", "2026-10-03T15:30:00Z"),  // 02:30 +11:00
        ("Asia/Kathmandu", "2026-06-15", "07:00", "2026-06-15T01:15:00Z"),  // +05:45
        ("Asia/Kathmandu", "2026-01-01", "00:00", "2025-12-31T18:15:00Z"),  // +05:45, previous UTC date
        ("America/Santiago", "2026-09-06", "00:00", "2026-09-06T04:00:00Z"),  // midnight gap -> 01:00 -03:00
        ("America/Santiago", "2026-09-06", "00:30", "2026-09-06T04:30:00Z"),  // midnight gap -> 01:30 -03:00
        ("America/Santiago", "2026-09-06", "01:00", "2026-09-06T04:00:00Z"),  // 01:00 -03:00
        ("America/Santiago", "2026-04-04", "23:30", "2026-04-05T02:30:00Z"),  // overlap before midnight, first: -03:00
        ("America/Santiago", "2026-04-05", "00:30", "2026-04-05T04:30:00Z"),  // 00:30 -04:00
        ("America/Havana", "2026-03-08", "00:30", "2026-03-08T05:30:00Z"),  // midnight gap -> 01:30 -04:00
        ("America/Havana", "2026-11-01", "00:30", "2026-11-01T04:30:00Z"),  // midnight overlap, first: -04:00
        ("America/Havana", "2026-11-01", "01:00", "2026-11-01T06:00:00Z"),  // 01:00 -05:00
        ("Asia/Beirut", "2025-03-30", "00:30", "2025-03-29T22:30:00Z"),  // midnight gap -> 01:30 +03:00
        ("Asia/Beirut", "2025-10-25", "23:30", "2025-10-25T20:30:00Z"),  // overlap before midnight, first: +03:00
        ("Pacific/Apia", "2011-12-29", "07:00", "2011-12-29T17:00:00Z"),  // 07:00 -10:00
        ("Pacific/Apia", "2011-12-29", "23:59", "2011-12-30T09:59:00Z"),  // last minute before the skipped date
        ("Pacific/Apia", "2011-12-30", "00:00", "2011-12-30T10:00:00Z"),  // skipped date -> 2011-12-31 00:00 +14:00
        ("Pacific/Apia", "2011-12-30", "07:00", "2011-12-30T17:00:00Z"),  // skipped date -> 2011-12-31 07:00 +14:00
        ("Pacific/Apia", "2011-12-31", "07:00", "2011-12-30T17:00:00Z"),  // 07:00 +14:00
        ("Pacific/Kiritimati", "1994-12-31", "09:00", "1994-12-31T19:00:00Z"),  // skipped date -> 1995-01-01 09:00 +14:00
        ("Australia/Sydney", "2026-04-05", "02:30", "2026-04-04T15:30:00Z"),  // overlap, first: +11:00
        ("Australia/Sydney", "2026-10-04", "02:30", "2026-10-03T16:30:00Z"),  // gap -> 03:30 +11:00
        ("Antarctica/Troll", "2026-03-29", "02:30", "2026-03-29T02:30:00Z"),  // two-hour gap -> 04:30 +02:00
        ("Antarctica/Troll", "2026-10-25", "02:30", "2026-10-25T00:30:00Z"),  // two-hour overlap, first: +02:00
        ("Europe/Moscow", "2014-10-26", "01:30", "2014-10-25T21:30:00Z"),  // standard offset +04 -> +03, first
        ("Asia/Kolkata", "2026-03-29", "06:45", "2026-03-29T01:15:00Z"),  // +05:30
        ("Pacific/Chatham", "2026-04-05", "03:00", "2026-04-04T13:15:00Z"),  // 03:00 +13:45 (overlap 02:45-03:45)
    ]

    @Test("one wall time resolves to the instant zoneinfo gives", arguments: resolutions)
    func resolves(_ row: (zone: String, date: String, time: String, utc: String)) throws {
        let calendar = ZoneCalendar(try Fixture.zone(row.zone))
        let got = calendar.instant(of: try Fixture.date(row.date), at: try Fixture.time(row.time))
        #expect(got == (try Fixture.instant(row.utc)), "\(row.zone) \(row.date) \(row.time)")
    }

    @Test("an alarm's own zone decides, whatever the default zone", arguments: resolutions)
    func alarmZoneWins(_ row: (zone: String, date: String, time: String, utc: String)) throws {
        let alarm = try Fixture.alarm(row.time, days: "daily", zone: row.zone)
        let other = try Fixture.zone(row.zone == "Asia/Tokyo" ? "UTC" : "Asia/Tokyo")
        let o = try #require(AlarmSchedule.occurrence(of: alarm, on: try Fixture.date(row.date), defaultZone: other))
        #expect(o.instant == (try Fixture.instant(row.utc)))
        #expect(o.date == (try Fixture.date(row.date)))
    }

    static let sequences: [(zone: String, days: String, time: String, after: String, utc: [String])] = [
        // R2: 03-29 rings once, at 03:30 +02:00, not on the next day.
        (
            "Europe/Berlin", "daily", "02:30", "2026-03-27T12:00:00Z",
            ["2026-03-28T01:30:00Z", "2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z", "2026-03-31T00:30:00Z"]
        ),
        // R3: 10-25 rings at the first 02:30 (+02:00) only; the next is 10-26 02:30 +01:00.
        (
            "Europe/Berlin", "daily", "02:30", "2026-10-24T12:00:00Z",
            ["2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z", "2026-10-27T01:30:00Z"]
        ),
        // R3: asked right after the first 02:30, the answer is the next date, not the second 02:30 (01:30Z).
        ("Europe/Berlin", "daily", "02:30", "2026-10-25T00:30:00Z", ["2026-10-26T01:30:00Z", "2026-10-27T01:30:00Z"]),
        // R4: set on Friday before the change, Monday's 07:00 is 07:00 CEST.
        (
            "Europe/Berlin", "mon-fri", "07:00", "2026-03-27T12:00:00Z",
            ["2026-03-30T05:00:00Z", "2026-03-31T05:00:00Z", "2026-04-01T05:00:00Z"]
        ),
        (
            "America/New_York", "daily", "01:30", "2026-10-31T12:00:00Z",
            ["2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z", "2026-11-03T06:30:00Z"]
        ),
        ("America/New_York", "daily", "01:30", "2026-11-01T05:30:00Z", ["2026-11-02T06:30:00Z", "2026-11-03T06:30:00Z"]),
        (
            "America/New_York", "daily", "02:30", "2026-03-07T12:00:00Z",
            ["2026-03-08T07:30:00Z", "2026-03-09T06:30:00Z", "2026-03-10T06:30:00Z"]
        ),
        ("America/New_York", "mon-fri", "07:00", "2026-03-06T12:00:00Z", ["2026-03-09T11:00:00Z", "2026-03-10T11:00:00Z"]),
        // Midnight DST change: 09-06 00:30 does not exist; it rings at 01:30 -03:00 the same date.
        (
            "America/Santiago", "daily", "00:30", "2026-09-04T12:00:00Z",
            ["2026-09-05T04:30:00Z", "2026-09-06T04:30:00Z", "2026-09-07T03:30:00Z"]
        ),
        // 04-04 23:30 happens twice (clocks go from 24:00 back to 23:00): once, at -03:00.
        (
            "America/Santiago", "daily", "23:30", "2026-04-03T12:00:00Z",
            ["2026-04-04T02:30:00Z", "2026-04-05T02:30:00Z", "2026-04-06T03:30:00Z"]
        ),
        (
            "America/Havana", "daily", "00:30", "2026-10-31T12:00:00Z",
            ["2026-11-01T04:30:00Z", "2026-11-02T05:30:00Z", "2026-11-03T05:30:00Z"]
        ),
        // 2011-12-30 was skipped: its 07:00 and 12-31's 07:00 are one instant, rung once.
        (
            "Pacific/Apia", "daily", "07:00", "2011-12-28T12:00:00Z",
            ["2011-12-28T17:00:00Z", "2011-12-29T17:00:00Z", "2011-12-30T17:00:00Z", "2011-12-31T17:00:00Z"]
        ),
        (
            "Pacific/Apia", "fri", "07:00", "2011-12-20T12:00:00Z",
            ["2011-12-23T17:00:00Z", "2011-12-30T17:00:00Z", "2012-01-05T17:00:00Z"]
        ),
        (
            "Australia/Lord_Howe", "daily", "01:45", "2026-04-03T12:00:00Z",
            ["2026-04-03T14:45:00Z", "2026-04-04T14:45:00Z", "2026-04-05T15:15:00Z"]
        ),
        ("Australia/Lord_Howe", "sun", "02:15", "2026-09-30T12:00:00Z", ["2026-10-03T15:45:00Z", "2026-10-10T15:15:00Z"]),
        (
            "Australia/Sydney", "sat,sun", "02:30", "2026-04-01T12:00:00Z",
            ["2026-04-03T15:30:00Z", "2026-04-04T15:30:00Z", "2026-04-10T16:30:00Z"]
        ),
        ("Asia/Kathmandu", "mon", "05:45", "2026-06-14T12:00:00Z", ["2026-06-15T00:00:00Z", "2026-06-22T00:00:00Z"]),
    ]

    @Test("next occurrences walk local dates", arguments: sequences)
    func nextOccurrences(_ row: (zone: String, days: String, time: String, after: String, utc: [String])) throws {
        let alarm = try Fixture.alarm(row.time, days: row.days)
        let zone = try Fixture.zone(row.zone)
        var cursor = try Fixture.instant(row.after)
        var got: [Date] = []
        for _ in row.utc {
            guard let o = AlarmSchedule.next(of: alarm, after: cursor, defaultZone: zone) else { break }
            got.append(o.instant)
            cursor = o.instant
        }
        #expect(got == (try row.utc.map(Fixture.instant)))
    }

    @Test("the preview lists the same firings", arguments: sequences)
    func preview(_ row: (zone: String, days: String, time: String, after: String, utc: [String])) throws {
        let alarm = try Fixture.alarm(row.time, days: row.days, zone: row.zone)
        let firings = AlarmSchedule.upcoming(
            [alarm], after: try Fixture.instant(row.after), count: row.utc.count,
            defaultZone: try Fixture.zone("UTC"))
        #expect(firings.map(\.occurrence.instant) == (try row.utc.map(Fixture.instant)))
        #expect(firings.allSatisfy { $0.zone.identifier == row.zone && $0.alarmID == 1 })
    }

    @Test("R1: an alarm without a zone follows the default zone it is given")
    func followsDefaultZone() throws {
        let alarm = try Fixture.alarm("07:00", days: "daily")
        let date = try Fixture.date("2026-06-15")
        let berlin = AlarmSchedule.occurrence(of: alarm, on: date, defaultZone: try Fixture.zone("Europe/Berlin"))
        let tokyo = AlarmSchedule.occurrence(of: alarm, on: date, defaultZone: try Fixture.zone("Asia/Tokyo"))
        #expect(berlin?.instant == (try Fixture.instant("2026-06-15T05:00:00Z")))
        #expect(tokyo?.instant == (try Fixture.instant("2026-06-14T22:00:00Z")))
    }

    @Test("R2: the spring-forward occurrence keeps its own date")
    func gapKeepsItsDate() throws {
        let alarm = try Fixture.alarm("02:30", days: "daily", zone: "Europe/Berlin")
        let o = try #require(
            AlarmSchedule.next(
                of: alarm, after: try Fixture.instant("2026-03-28T12:00:00Z"),
                defaultZone: try Fixture.zone("UTC")))
        #expect(o.date == (try Fixture.date("2026-03-29")))
        #expect(o.instant == (try Fixture.instant("2026-03-29T01:30:00Z")))
    }

    @Test("a one-shot alarm fires once, on its date, even inside a gap")
    func oneShot() throws {
        let alarm = try Fixture.alarm("02:30", days: "once", date: "2026-03-29", zone: "Europe/Berlin")
        let utc = try Fixture.zone("UTC")
        let first = AlarmSchedule.next(of: alarm, after: try Fixture.instant("2026-03-01T00:00:00Z"), defaultZone: utc)
        #expect(first?.instant == (try Fixture.instant("2026-03-29T01:30:00Z")))
        #expect(AlarmSchedule.next(of: alarm, after: try Fixture.instant("2026-03-29T01:30:00Z"), defaultZone: utc) == nil)
        let previous = AlarmSchedule.previous(
            of: alarm, atOrBefore: try Fixture.instant("2026-04-02T00:00:00Z"),
            defaultZone: utc)
        #expect(previous?.instant == (try Fixture.instant("2026-03-29T01:30:00Z")))
    }

    @Test("skip-next passes over exactly the skipped date")
    func skipDate() throws {
        let alarm = try Fixture.alarm("07:00", days: "daily", zone: "Europe/Berlin", skip: "2026-03-30")
        let firings = AlarmSchedule.upcoming(
            [alarm], after: try Fixture.instant("2026-03-29T12:00:00Z"), count: 2,
            defaultZone: try Fixture.zone("UTC"))
        #expect(
            firings.map(\.occurrence.instant) == [
                try Fixture.instant("2026-03-31T05:00:00Z"),
                try Fixture.instant("2026-04-01T05:00:00Z"),
            ])
        let raw = AlarmSchedule.next(
            of: alarm, after: try Fixture.instant("2026-03-29T12:00:00Z"),
            defaultZone: try Fixture.zone("UTC"))
        #expect(raw?.date == (try Fixture.date("2026-03-30")), "without honouringSkip the skipped date is still named")
    }

    @Test("occurrences in a range are ascending and unique, also across the Apia skipped date")
    func rangeIsUnique() throws {
        let alarm = try Fixture.alarm("07:00", days: "daily", zone: "Pacific/Apia")
        let all = AlarmSchedule.occurrences(
            of: alarm, after: try Fixture.instant("2011-12-28T00:00:00Z"),
            through: try Fixture.instant("2012-01-01T00:00:00Z"),
            defaultZone: try Fixture.zone("UTC"))
        #expect(
            all.map(\.instant)
                == (try [
                    "2011-12-28T17:00:00Z", "2011-12-29T17:00:00Z", "2011-12-30T17:00:00Z",
                    "2011-12-31T17:00:00Z",
                ].map(Fixture.instant)))
        #expect(all.map(\.date.description) == ["2011-12-28", "2011-12-29", "2011-12-30", "2012-01-01"])
    }

    @Test("the preview merges alarms, soonest first, and leaves out disabled ones")
    func previewMerges() throws {
        let utc = try Fixture.zone("UTC")
        let a = try Fixture.alarm(id: 1, "07:00", days: "daily")
        let b = try Fixture.alarm(id: 2, "06:30", days: "mon-fri")
        let off = try Fixture.alarm(id: 3, "06:00", days: "daily", enabled: false)
        // 2026-06-13 is a Saturday.
        let firings = AlarmSchedule.upcoming(
            [a, b, off], after: try Fixture.instant("2026-06-13T12:00:00Z"),
            count: 4, defaultZone: utc)
        #expect(firings.map(\.alarmID) == [1, 2, 1, 2])
        #expect(
            firings.map(\.occurrence.instant)
                == (try [
                    "2026-06-14T07:00:00Z", "2026-06-15T06:30:00Z",
                    "2026-06-15T07:00:00Z", "2026-06-16T06:30:00Z",
                ].map(Fixture.instant)))
    }
}
