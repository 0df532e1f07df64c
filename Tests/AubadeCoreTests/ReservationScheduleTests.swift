import AubadeCore
import Foundation
import Testing

// Expected instants come from Python's zoneinfo (fold=0: a gap time is read with the offset before the gap,
// an overlap time as its first occurrence), as in RecurrenceDSTTests:
//   datetime(y, m, d, hh, mm, tzinfo=ZoneInfo("Europe/Berlin")).astimezone(UTC)
// 2026-03-29 and 2026-10-25 are Sundays: the nights Berlin springs forward (02:00→03:00) and falls back (03:00→02:00).

@Suite("Reservations: when reserved programmes start (daily, weekly, dated; Berlin DST)")
struct ReservationScheduleTests {
    /// Daily 02:30 (id 1), Sundays 02:15 (id 2), 2026-03-29 02:45 (id 3), 2027-01-01 00:00 (id 4), all on
    /// station 7; and three that never start: not reserved (5), no station (6), no id.
    static func programmes() throws -> [Programme] {
        let t = Fixture.time
        return [
            Programme(id: 1, name: "Night Jazz", begin: try t("02:30"), end: try t("03:30"), reserved: true, stationID: 7),
            Programme(
                id: 2, name: "Sunday Service", begin: try t("02:15"), end: try t("02:45"), reserved: true,
                stationID: 7, weekday: .sunday),
            Programme(
                id: 3, name: "Spring Special", begin: try t("02:45"), end: try t("04:00"), reserved: true,
                stationID: 7, date: try Fixture.date("2026-03-29")),
            Programme(
                id: 4, name: "New Year", begin: try t("00:00"), end: try t("01:00"), reserved: true,
                stationID: 7, date: try Fixture.date("2027-01-01")),
            Programme(id: 5, name: "Not Reserved", begin: try t("02:20"), end: try t("03:00"), stationID: 7),
            Programme(id: 6, name: "No Station", begin: try t("02:20"), end: try t("03:00"), reserved: true),
            Programme(name: "Unsaved", begin: try t("02:20"), end: try t("03:00"), reserved: true, stationID: 7),
        ]
    }

    static let nextRows: [(after: String, id: Int64, start: String)] = [
        ("2026-03-28T01:30:00Z", 2, "2026-03-29T01:15:00Z"),  // Sunday 02:15 is in the gap → 03:15 +02:00
        ("2026-03-29T01:15:00Z", 1, "2026-03-29T01:30:00Z"),  // daily 02:30 in the gap → 03:30 +02:00, same day
        ("2026-03-29T01:30:00Z", 3, "2026-03-29T01:45:00Z"),  // dated 02:45 in the gap → 03:45 +02:00
        ("2026-03-29T01:45:00Z", 1, "2026-03-30T00:30:00Z"),  // 02:30 +02:00 the next day, not a day skipped
        ("2026-10-24T12:00:00Z", 2, "2026-10-25T00:15:00Z"),  // overlap: the first 02:15 (+02:00)
        ("2026-10-25T00:15:00Z", 1, "2026-10-25T00:30:00Z"),  // overlap: the first 02:30 (+02:00)
        ("2026-10-25T00:30:00Z", 1, "2026-10-26T01:30:00Z"),  // never the second 02:30 (01:30Z): next date instead
        ("2026-10-25T01:29:59Z", 1, "2026-10-26T01:30:00Z"),
        ("2026-12-31T01:30:00Z", 4, "2026-12-31T23:00:00Z"),  // a dated programme, before the daily one's next start
        ("2026-03-21T12:00:00Z", 2, "2026-03-22T01:15:00Z"),  // an ordinary Sunday, 02:15 +01:00
        ("2026-04-04T12:00:00Z", 2, "2026-04-05T00:15:00Z"),  // the first Sunday in summer time, 02:15 +02:00
    ]

    @Test("the next start after an instant", arguments: nextRows)
    func next(_ row: (after: String, id: Int64, start: String)) throws {
        let zone = try Fixture.zone("Europe/Berlin")
        let found = try #require(
            ReservationSchedule.next(
                after: try Fixture.instant(row.after),
                programmes: try Self.programmes(), zone: zone))
        #expect(found.programmeID == row.id, "after \(row.after)")
        #expect(found.start == (try Fixture.instant(row.start)), "after \(row.after)")
        #expect(found.stationID == 7)
    }

    @Test("a dated programme weeks ahead is still the next start when nothing else is reserved")
    func datedFarAhead() throws {
        let dated = try Self.programmes().filter { $0.id == 4 }
        let found = try #require(
            ReservationSchedule.next(
                after: try Fixture.instant("2026-06-01T00:00:00Z"),
                programmes: dated, zone: try Fixture.zone("Europe/Berlin")))
        #expect(
            found
                == ReservationStart(
                    programmeID: 4, name: "New Year", stationID: 7,
                    start: try Fixture.instant("2026-12-31T23:00:00Z")))
    }

    @Test("no start: nothing reserved, or only a dated programme that is over")
    func nothingNext() throws {
        let zone = try Fixture.zone("Europe/Berlin")
        let all = try Self.programmes()
        let never = all.filter { ($0.id ?? 99) >= 5 }
        #expect(
            ReservationSchedule.next(after: try Fixture.instant("2026-03-28T00:00:00Z"), programmes: never, zone: zone) == nil)
        #expect(ReservationSchedule.next(after: .distantPast, programmes: [], zone: zone) == nil)
        let past = all.filter { $0.id == 3 }
        #expect(ReservationSchedule.next(after: try Fixture.instant("2026-03-29T01:45:00Z"), programmes: past, zone: zone) == nil)
    }

    static let dueRows: [(from: String, through: String, starts: [(Int64, String)])] = [
        // The spring-forward night: each programme once, after the gap.
        (
            "2026-03-28T12:00:00Z", "2026-03-29T12:00:00Z",
            [(2, "2026-03-29T01:15:00Z"), (1, "2026-03-29T01:30:00Z"), (3, "2026-03-29T01:45:00Z")]
        ),
        // The fall-back night: each programme once, at the first occurrence of its wall time.
        ("2026-10-24T12:00:00Z", "2026-10-25T12:00:00Z", [(2, "2026-10-25T00:15:00Z"), (1, "2026-10-25T00:30:00Z")]),
        // Only the repeated hour: its second pass starts nothing.
        ("2026-10-25T01:00:00Z", "2026-10-25T02:00:00Z", []),
        // (from, through]: a start exactly at `from` belongs to the previous window, one at `through` to this one.
        ("2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z", [(1, "2026-10-26T01:30:00Z")]),
        ("2026-10-25T00:15:00Z", "2026-10-25T00:30:00Z", [(1, "2026-10-25T00:30:00Z")]),
        // A week across the spring change: the daily one every day, the Sunday one on Sundays.
        (
            "2026-03-26T12:00:00Z", "2026-04-02T12:00:00Z",
            [
                (1, "2026-03-27T01:30:00Z"), (1, "2026-03-28T01:30:00Z"), (2, "2026-03-29T01:15:00Z"),
                (1, "2026-03-29T01:30:00Z"), (3, "2026-03-29T01:45:00Z"), (1, "2026-03-30T00:30:00Z"),
                (1, "2026-03-31T00:30:00Z"), (1, "2026-04-01T00:30:00Z"), (1, "2026-04-02T00:30:00Z"),
            ]
        ),
        // New Year's Eve: the dated programme at local midnight, before the daily one.
        ("2026-12-31T12:00:00Z", "2027-01-01T12:00:00Z", [(4, "2026-12-31T23:00:00Z"), (1, "2027-01-01T01:30:00Z")]),
        // An empty or backwards window.
        ("2026-03-29T01:30:00Z", "2026-03-29T01:30:00Z", []),
        ("2026-03-30T00:00:00Z", "2026-03-29T00:00:00Z", []),
    ]

    @Test("every start in a window, ordered", arguments: dueRows)
    func due(_ row: (from: String, through: String, starts: [(Int64, String)])) throws {
        let got = ReservationSchedule.due(
            from: try Fixture.instant(row.from), through: try Fixture.instant(row.through),
            programmes: try Self.programmes(), zone: try Fixture.zone("Europe/Berlin"))
        let expected = try row.starts.map { (id, start) in (id, try Fixture.instant(start)) }
        #expect(got.map(\.programmeID) == expected.map(\.0), "\(row.from) … \(row.through)")
        #expect(got.map(\.start) == expected.map(\.1), "\(row.from) … \(row.through)")
        #expect(got.allSatisfy { $0.stationID == 7 })
    }

    @Test(
        "windows cut anywhere through both DST nights list each start exactly once, and next agrees",
        arguments: [("2026-03-28T20:00:00Z", "2026-03-29T06:00:00Z"), ("2026-10-24T20:00:00Z", "2026-10-25T06:00:00Z")])
    func consecutiveWindows(_ night: (String, String)) throws {
        let zone = try Fixture.zone("Europe/Berlin")
        let programmes = try Self.programmes()
        let from = try Fixture.instant(night.0)
        let through = try Fixture.instant(night.1)
        let whole = ReservationSchedule.due(from: from, through: through, programmes: programmes, zone: zone)
        for step in [60.0, 300, 450, 3600] {
            var pieces: [ReservationStart] = []
            var t = from
            while t < through {
                let u = min(t.addingTimeInterval(step), through)
                pieces += ReservationSchedule.due(from: t, through: u, programmes: programmes, zone: zone)
                t = u
            }
            #expect(pieces == whole, "windows of \(step) s")
        }
        // Following `next` from the start of the night visits the same starts.
        var walked: [ReservationStart] = []
        var cursor = from
        while let n = ReservationSchedule.next(after: cursor, programmes: programmes, zone: zone), n.start <= through {
            walked.append(n)
            cursor = n.start
        }
        #expect(walked == whole)
    }

    @Test("two programmes starting together: both are due, the smaller id first; next names the smaller id")
    func simultaneous() throws {
        let t = try Fixture.time("07:00")
        let later = Programme(id: 9, name: "Morning B", begin: t, end: try Fixture.time("08:00"), reserved: true, stationID: 2)
        let earlier = Programme(id: 8, name: "Morning A", begin: t, end: try Fixture.time("08:00"), reserved: true, stationID: 3)
        let zone = try Fixture.zone("Europe/Berlin")
        let due = ReservationSchedule.due(
            from: try Fixture.instant("2026-06-01T00:00:00Z"),
            through: try Fixture.instant("2026-06-01T12:00:00Z"),
            programmes: [later, earlier], zone: zone)
        #expect(
            due == [
                ReservationStart(
                    programmeID: 8, name: "Morning A", stationID: 3, start: try Fixture.instant("2026-06-01T05:00:00Z")),
                ReservationStart(
                    programmeID: 9, name: "Morning B", stationID: 2, start: try Fixture.instant("2026-06-01T05:00:00Z")),
            ])
        let next = ReservationSchedule.next(
            after: try Fixture.instant("2026-06-01T00:00:00Z"), programmes: [later, earlier], zone: zone)
        #expect(next?.programmeID == 8)
    }

    @Test("a daily programme on a skipped date starts once (Pacific/Apia, 2011-12-30 did not exist)")
    func skippedDate() throws {
        let p = Programme(
            id: 1, name: "Breakfast", begin: try Fixture.time("07:00"), end: try Fixture.time("09:00"),
            reserved: true, stationID: 1)
        let got = ReservationSchedule.due(
            from: try Fixture.instant("2011-12-28T18:00:00Z"),
            through: try Fixture.instant("2012-01-01T12:00:00Z"),
            programmes: [p], zone: try Fixture.zone("Pacific/Apia"))
        // 12-29 07:00 −10:00, then 12-30/12-31 07:00 +14:00 (one instant), then 2012-01-01 07:00 +14:00.
        #expect(
            try got.map(\.start) == [
                Fixture.instant("2011-12-29T17:00:00Z"), Fixture.instant("2011-12-30T17:00:00Z"),
                Fixture.instant("2011-12-31T17:00:00Z"),
            ])
    }

    @Test("the zone decides: the same programme starts at another instant in New York")
    func zoneDecides() throws {
        let p = try Self.programmes().filter { $0.id == 1 }
        let after = try Fixture.instant("2026-06-01T00:00:00Z")
        let berlin = ReservationSchedule.next(after: after, programmes: p, zone: try Fixture.zone("Europe/Berlin"))
        let newYork = ReservationSchedule.next(after: after, programmes: p, zone: try Fixture.zone("America/New_York"))
        #expect(berlin?.start == (try Fixture.instant("2026-06-01T00:30:00Z")))
        #expect(newYork?.start == (try Fixture.instant("2026-06-01T06:30:00Z")))
    }
}
