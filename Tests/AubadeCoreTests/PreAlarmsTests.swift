import AubadeCore
import Foundation
import Testing

/// The pre-alarm notices: given at each lead before every occurrence — also one that will not ring, saying why —
/// once each, the latest due one only when the clock starts inside the leads.
@Suite struct PreAlarmsTests {
    let utc = TimeZone(identifier: "UTC")!

    @Test func eachLeadIsGivenOnceAtItsMomentAndNextSaysWhen() throws {
        let alarm = try Fixture.alarm(id: 1, "07:00")
        var plan = PreAlarms(leadSeconds: [900, 1800, 1800, 0])
        #expect(plan.leads == [1800, 900])
        let early = try Fixture.instant("2026-01-05T06:00:00Z")
        #expect(plan.due([alarm], at: early, zone: utc, daysOff: .none).isEmpty)
        #expect(plan.next([alarm], after: early, zone: utc, daysOff: .none) == nil)  // beyond the longest lead

        let before = try Fixture.instant("2026-01-05T06:29:30Z")
        #expect(plan.next([alarm], after: before, zone: utc, daysOff: .none) == (try Fixture.instant("2026-01-05T06:30:00Z")))
        let atLead = try Fixture.instant("2026-01-05T06:30:00Z")
        let first = plan.due([alarm], at: atLead, zone: utc, daysOff: .none)
        #expect(first.map(\.leadSeconds) == [1800])
        #expect(first.first?.willRing == true && first.first?.why == nil && first.first?.name == "alarm 1")
        #expect(first.first?.occurrence == (try Fixture.instant("2026-01-05T07:00:00Z")))
        #expect(plan.due([alarm], at: atLead.addingTimeInterval(30), zone: utc, daysOff: .none).isEmpty)
        #expect(
            plan.next([alarm], after: atLead.addingTimeInterval(30), zone: utc, daysOff: .none)
                == (try Fixture.instant("2026-01-05T06:45:00Z")))
        let second = plan.due([alarm], at: try Fixture.instant("2026-01-05T06:45:10Z"), zone: utc, daysOff: .none)
        #expect(second.map(\.leadSeconds) == [900])
        #expect(plan.next([alarm], after: try Fixture.instant("2026-01-05T06:46:00Z"), zone: utc, daysOff: .none) == nil)
    }

    @Test func anOccurrenceThatWillNotRingIsAnnouncedWithWhy() throws {
        let skipped = try Fixture.alarm(id: 1, "07:00", skip: "2026-01-05")
        var holiday = try Fixture.alarm(id: 2, "07:10")
        holiday.skipDaysOff = true
        let off = DaysOff([DayOff(first: try Fixture.date("2026-01-05"), last: try Fixture.date("2026-01-05"), name: "Epiphany")])
        var plan = PreAlarms(leadSeconds: [900])
        let notices = plan.due([skipped, holiday], at: try Fixture.instant("2026-01-05T06:55:00Z"), zone: utc, daysOff: off)
        #expect(notices.map(\.alarmID) == [1, 2])
        #expect(notices.map(\.willRing) == [false, false])
        #expect(notices.map(\.why) == ["skipped once (skip-next)", "day off: Epiphany"])
    }

    @Test func startingInsideTheLeadsGivesTheLatestDueNoticeOnce() throws {
        let alarm = try Fixture.alarm(id: 3, "07:00")
        var plan = PreAlarms(leadSeconds: [1800, 900, 300])
        let now = try Fixture.instant("2026-01-05T06:50:00Z")
        let notices = plan.due([alarm], at: now, zone: utc, daysOff: .none)
        #expect(notices.map(\.leadSeconds) == [900])
        #expect(plan.due([alarm], at: now, zone: utc, daysOff: .none).isEmpty)
        #expect(plan.next([alarm], after: now, zone: utc, daysOff: .none) == (try Fixture.instant("2026-01-05T06:55:00Z")))
    }

    @Test func aDisabledAlarmAndAnAlarmMovedPastItsLeadAreNotAnnounced() throws {
        let disabled = try Fixture.alarm(id: 1, "07:00", enabled: false)
        var plan = PreAlarms(leadSeconds: [900])
        let now = try Fixture.instant("2026-01-05T06:50:00Z")
        #expect(plan.due([disabled], at: now, zone: utc, daysOff: .none).isEmpty)
        // The same alarm moved to 07:30 before its 06:45 notice: the notice follows it, at 07:15.
        let moved = try Fixture.alarm(id: 4, "07:30")
        #expect(plan.due([moved], at: now, zone: utc, daysOff: .none).isEmpty)
        // Beyond the longest lead it is not looked for yet (the clock turns at least once a minute).
        #expect(plan.next([moved], after: now, zone: utc, daysOff: .none) == nil)
        let later = try Fixture.instant("2026-01-05T07:14:30Z")
        #expect(plan.next([moved], after: later, zone: utc, daysOff: .none) == (try Fixture.instant("2026-01-05T07:15:00Z")))
        #expect(PreAlarms(leadSeconds: []).next([moved], after: now, zone: utc, daysOff: .none) == nil)
    }
}

extension PreAlarmsTests {
    /// An occurrence at or before the scheduler's floor for its alarm (set up after it, or already handled) is
    /// one the clock will not act on: no notice for it.
    @Test func anOccurrenceTheSchedulerWillNotActOnIsNotAnnounced() throws {
        let alarm = try Fixture.alarm(id: 1, "07:00")
        var plan = PreAlarms(leadSeconds: [900])
        let now = try Fixture.instant("2026-01-05T06:50:00Z")
        let floor = try Fixture.instant("2026-01-05T07:00:00Z")
        #expect(plan.due([alarm], at: now, zone: utc, daysOff: .none, floor: { _ in floor }).isEmpty)
        #expect(plan.next([alarm], after: now, zone: utc, daysOff: .none, floor: { _ in floor }) == nil)
        #expect(plan.due([alarm], at: now, zone: utc, daysOff: .none).count == 1)
    }
}
