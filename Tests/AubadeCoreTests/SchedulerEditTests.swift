import AubadeCore
import Foundation
import Testing

/// R10 and R11: what an edit does to a pending snooze, and when a saved alarm may ring.
@Suite("Scheduler: edits, enable, disable (R10, R11)")
struct SchedulerEditTests {
    /// An alarm at 07:00 Berlin, rung at 05:00Z and snoozed at 05:00:30Z until 05:09:30Z.
    private func snoozed() throws -> SchedulerHarness {
        var h = try SchedulerHarness([try Fixture.alarm("07:00")], at: "2026-06-15T04:59:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:00:30Z")
        h.snooze()
        try h.run(until: "2026-06-15T05:02:00Z")
        return h
    }

    @Test("R10: label, sound and volume edits keep a pending snooze; the new volume plays")
    func cosmeticEditKeepsSnooze() throws {
        var h = try snoozed()
        var alarm = try #require(h.storedAlarms[1])
        alarm.name = "Renamed"
        alarm.volume = 35
        alarm.sound = .station(id: 4)
        let actions = h.save(alarm)
        #expect(!actions.contains { if case .persist = $0 { true } else { false } }, "nothing to store for a cosmetic edit")
        #expect(h.storedStates[1]?.phase == .snoozed)
        try h.run(until: "2026-06-15T05:10:00Z")
        #expect(h.rings.count == 2)
        #expect(h.rings.last?.at == (try Fixture.instant("2026-06-15T05:09:30Z")))
        #expect(h.rings.last?.request.volume == 35 && h.rings.last?.request.sound == .station(id: 4))
    }

    @Test("R10: a time edit cancels a pending snooze; the alarm rings at its new time")
    func timeEditCancelsSnooze() throws {
        var h = try snoozed()
        var alarm = try #require(h.storedAlarms[1])
        alarm.time = try Fixture.time("07:30")
        h.save(alarm)
        #expect(h.storedStates[1]?.phase == .idle)
        #expect(h.events(.cancelled).count == 1)
        try h.run(until: "2026-06-15T05:31:00Z")
        #expect(h.rings.map(\.at) == (try ["2026-06-15T05:00:00Z", "2026-06-15T05:30:00Z"].map(Fixture.instant)))
    }

    @Test("R10: a days edit cancels a pending snooze")
    func daysEditCancelsSnooze() throws {
        var h = try snoozed()
        var alarm = try #require(h.storedAlarms[1])
        alarm.recurrence = .weekly(try Weekdays(parsing: "mon-fri"))
        h.save(alarm)
        #expect(h.storedStates[1]?.phase == .idle)
        try h.run(until: "2026-06-15T06:00:00Z")
        #expect(h.rings.count == 1)
    }

    @Test("R10/R11: disabling cancels a snooze and a disabled alarm never rings; enabling arms it again")
    func disableCancelsAndSilences() throws {
        var h = try snoozed()
        var alarm = try #require(h.storedAlarms[1])
        alarm.enabled = false
        h.save(alarm)
        #expect(h.storedStates[1]?.phase == .idle)
        #expect(h.events(.cancelled).last?.detail == "disabled")
        try h.run(until: "2026-06-18T00:00:00Z")
        #expect(h.rings.count == 1)
        alarm.enabled = true
        h.save(alarm)
        #expect(h.rings.count == 1, "enabling at 02:00 does not ring the 07:00 of days gone by")
        try h.run(until: "2026-06-18T05:00:30Z")
        #expect(h.rings.last?.at == (try Fixture.instant("2026-06-18T05:00:00Z")))
    }

    @Test("R10: disabling a ringing alarm stops it")
    func disableWhileRinging() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00")], at: "2026-06-15T04:59:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:00:30Z")
        var alarm = try #require(h.storedAlarms[1])
        alarm.enabled = false
        let actions = h.save(alarm)
        #expect(actions.contains(.stopRinging(StopRinging(alarmID: 1, reason: .disabled))))
        #expect(h.sounding == nil)
    }

    @Test("R11: saving an alarm due this minute rings it at once, on time")
    func dueThisMinute() throws {
        var h = try SchedulerHarness([], at: "2026-06-15T05:00:45Z")
        h.start()
        h.save(try Fixture.alarm("07:00"))
        #expect(h.rings.count == 1)
        #expect(h.rings.first?.request.late == false)
        #expect(h.rings.first?.request.occurrence == (try Fixture.instant("2026-06-15T05:00:00Z")))
    }

    @Test("R11: saving an alarm whose time passed a minute ago does not ring, not even after a restart")
    func notDueAnyMore() throws {
        var h = try SchedulerHarness([], at: "2026-06-15T05:01:00Z")
        h.start()
        h.save(try Fixture.alarm("07:00"))
        try h.run(until: "2026-06-15T05:20:00Z")
        #expect(h.rings.isEmpty)
        // A restart within G must not catch it up either: the edit stored it as handled.
        var fresh = try SchedulerHarness(
            Array(h.storedAlarms.values), at: "2026-06-15T05:20:00Z",
            states: Array(h.storedStates.values))
        fresh.start()
        #expect(fresh.rings.isEmpty)
        try fresh.run(until: "2026-06-16T05:00:30Z")
        #expect(fresh.rings.map(\.at) == [try Fixture.instant("2026-06-16T05:00:00Z")])
    }

    @Test("R11: an edit never duplicates a ring; a re-save after ringing does not ring again")
    func resaveDoesNotRingAgain() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00", duration: 120)], at: "2026-06-15T04:59:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:00:20Z")
        h.stop()
        var alarm = try #require(h.storedAlarms[1])
        alarm.name = "Work"
        h.save(alarm)
        alarm.volume = 90
        h.save(alarm)
        try h.run(until: "2026-06-15T06:00:00Z")
        #expect(h.rings.count == 1)
        #expect(h.engine.alarms.count == 1)
    }

    @Test("R11: re-timing to this very minute after it rang rings the new occurrence once")
    func retimeToNow() throws {
        var h = try SchedulerHarness([try Fixture.alarm("06:50", duration: 120)], at: "2026-06-15T04:49:00Z")
        h.start()
        try h.run(until: "2026-06-15T04:55:00Z")
        #expect(h.rings.count == 1)
        var alarm = try #require(h.storedAlarms[1])
        alarm.time = try Fixture.time("06:55")
        h.save(alarm)
        h.save(alarm)
        try h.run(until: "2026-06-15T05:30:00Z")
        #expect(h.rings.map(\.request.occurrence) == (try ["2026-06-15T04:50:00Z", "2026-06-15T04:55:00Z"].map(Fixture.instant)))
    }

    @Test("R11: alarms are independent — editing one leaves the other's snooze and schedule alone")
    func independence() throws {
        var h = try SchedulerHarness(
            [try Fixture.alarm(id: 1, "07:00"), try Fixture.alarm(id: 2, "08:00")],
            at: "2026-06-15T04:59:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:00:30Z")
        h.snooze()
        var other = try #require(h.storedAlarms[2])
        other.time = try Fixture.time("08:15")
        other.enabled = false
        h.save(other)
        #expect(h.storedStates[1]?.phase == .snoozed)
        try h.run(until: "2026-06-15T07:00:00Z")
        #expect(h.rings.map(\.request.alarmID) == [1, 1])
    }
}
