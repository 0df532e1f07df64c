import AubadeCore
import Foundation
import Testing

// Expected instants are worked out by hand from the zones' rules (EU: last Sunday of March 02:00 CET →
// 03:00 CEST, last Sunday of October 03:00 CEST → 02:00 CET; US: second Sunday of March 02:00 EST → 03:00
// EDT, first Sunday of November 02:00 EDT → 01:00 EST), not from this code. Gap times read with the offset
// before the gap, overlap times as their first occurrence, as for alarms (R2, R3).

@Suite("Night dimming: the nights the clocks change")
struct NightDimmingDSTTests {
    /// A zone, a window, and instants (UTC) with whether the screen is dimmed then.
    static let nights: [(zone: String, from: String, until: String, checks: [(utc: String, dimmed: Bool)])] = [
        // Europe, spring: 22:00 +01:00 until 07:00 +02:00 — eight hours, not nine.
        (
            "Europe/Berlin", "22:00", "07:00",
            [
                ("2026-03-28T20:59:59Z", false), ("2026-03-28T21:00:00Z", true),
                ("2026-03-29T00:59:59Z", true), ("2026-03-29T01:00:00Z", true),
                ("2026-03-29T04:59:59Z", true), ("2026-03-29T05:00:00Z", false),
                ("2026-03-29T05:30:00Z", false),
            ]
        ),
        // Europe, autumn: 22:00 +02:00 until 07:00 +01:00 — ten hours.
        (
            "Europe/Berlin", "22:00", "07:00",
            [
                ("2026-10-24T19:59:59Z", false), ("2026-10-24T20:00:00Z", true),
                ("2026-10-25T05:00:00Z", true), ("2026-10-25T05:59:59Z", true),
                ("2026-10-25T06:00:00Z", false),
            ]
        ),
        // US, spring: 22:00 -05:00 until 07:00 -04:00.
        (
            "America/New_York", "22:00", "07:00",
            [
                ("2026-03-08T02:59:59Z", false), ("2026-03-08T03:00:00Z", true),
                ("2026-03-08T10:59:59Z", true), ("2026-03-08T11:00:00Z", false),
            ]
        ),
        // US, autumn: 22:00 -04:00 until 07:00 -05:00.
        (
            "America/New_York", "22:00", "07:00",
            [
                ("2026-11-01T01:59:59Z", false), ("2026-11-01T02:00:00Z", true),
                ("2026-11-01T11:30:00Z", true), ("2026-11-01T11:59:59Z", true),
                ("2026-11-01T12:00:00Z", false),
            ]
        ),
        // A start inside the spring gap: 02:15 reads as 03:15 +02:00.
        (
            "Europe/Berlin", "02:15", "06:00",
            [
                ("2026-03-29T01:00:00Z", false), ("2026-03-29T01:14:59Z", false),
                ("2026-03-29T01:15:00Z", true), ("2026-03-29T03:59:59Z", true),
                ("2026-03-29T04:00:00Z", false),
            ]
        ),
        // An end inside the autumn overlap: the first 02:30 (+02:00) ends it; the repeated half hour is day.
        (
            "Europe/Berlin", "01:00", "02:30",
            [
                ("2026-10-24T22:59:59Z", false), ("2026-10-24T23:00:00Z", true),
                ("2026-10-25T00:29:59Z", true), ("2026-10-25T00:30:00Z", false),
                ("2026-10-25T01:15:00Z", false),
            ]
        ),
        // US autumn, a start inside the overlap: the first 01:30 (-04:00) starts it.
        (
            "America/New_York", "01:30", "06:00",
            [
                ("2026-11-01T05:29:59Z", false), ("2026-11-01T05:30:00Z", true),
                ("2026-11-01T06:30:00Z", true), ("2026-11-01T10:59:59Z", true),
                ("2026-11-01T11:00:00Z", false),
            ]
        ),
        // A night the gap swallows: 02:30 (→ 03:30 +02:00, 01:30Z) until 03:10 +02:00 (01:10Z) is empty that
        // date, and nothing dims backwards; the night before and after are normal.
        (
            "Europe/Berlin", "02:30", "03:10",
            [
                ("2026-03-28T01:30:00Z", true), ("2026-03-29T01:00:00Z", false),
                ("2026-03-29T01:20:00Z", false), ("2026-03-29T01:40:00Z", false),
                ("2026-03-30T00:30:00Z", true), ("2026-03-30T01:10:00Z", false),
            ]
        ),
    ]

    @Test("each instant of a DST night is dimmed by local time", arguments: nights.indices)
    func dstNight(_ index: Int) throws {
        let night = Self.nights[index]
        let settings = try NightDimmingSettings(
            from: try Fixture.time(night.from), until: try Fixture.time(night.until),
            level: 5)
        var machine = FacePlan(settings: settings, zone: try Fixture.zone(night.zone))
        for (n, check) in night.checks.enumerated() {
            let now = SchedulerTime(wall: try Fixture.instant(check.utc), mono: MonotonicInstant(seconds: Double(n)))
            let d = machine.tick(at: now)
            #expect(d.target.dimmed == check.dimmed, "\(night.zone) \(night.from)–\(night.until) at \(check.utc)")
            #expect(d.target.backlightPercent == (check.dimmed ? 5 : 100))
        }
    }

    /// The boundaries a daemon sleeps until, walked from one to the next across both changes of a year.
    static let walks: [(zone: String, start: String, boundaries: [String])] = [
        (
            "Europe/Berlin", "2026-03-28T12:00:00Z",
            [
                "2026-03-28T21:00:00Z", "2026-03-29T05:00:00Z",
                "2026-03-29T20:00:00Z", "2026-03-30T05:00:00Z",
            ]
        ),
        (
            "Europe/Berlin", "2026-10-24T12:00:00Z",
            [
                "2026-10-24T20:00:00Z", "2026-10-25T06:00:00Z",
                "2026-10-25T21:00:00Z", "2026-10-26T06:00:00Z",
            ]
        ),
        (
            "America/New_York", "2026-03-07T12:00:00Z",
            [
                "2026-03-08T03:00:00Z", "2026-03-08T11:00:00Z",
                "2026-03-09T02:00:00Z", "2026-03-09T11:00:00Z",
            ]
        ),
        (
            "America/New_York", "2026-10-31T12:00:00Z",
            [
                "2026-11-01T02:00:00Z", "2026-11-01T12:00:00Z",
                "2026-11-02T03:00:00Z", "2026-11-02T12:00:00Z",
            ]
        ),
    ]

    @Test("recheckAt walks the night's real start and end", arguments: walks.indices)
    func boundaries(_ index: Int) throws {
        let walk = Self.walks[index]
        let window = try DimmingWindow(from: try Fixture.time("22:00"), until: try Fixture.time("07:00"))
        var machine = FacePlan(
            settings: try NightDimmingSettings(from: window.from, until: window.until, level: 10),
            zone: try Fixture.zone(walk.zone))
        var now = try Fixture.instant(walk.start)
        var seen: [Date] = []
        for n in 0..<walk.boundaries.count {
            let d = machine.tick(at: SchedulerTime(wall: now, mono: MonotonicInstant(seconds: Double(n))))
            now = try #require(d.recheckAt)
            seen.append(now)
        }
        #expect(seen == (try walk.boundaries.map { try Fixture.instant($0) }))
    }
}
