import AubadeCore
import Foundation
import Testing

/// R5, R6, R8 and R1's zone change: the wall clock moves under the engine.
@Suite("Scheduler: clock steps, catch-up, time-zone changes (R1, R5, R6, R8)")
struct SchedulerClockTests {
    @Test("R5: a backward step after ringing never rings the same occurrence again")
    func backwardStepNoDoubleRing() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00")], at: "2026-06-15T04:59:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:02:00Z")
        h.stop()
        h.stepWallClock(by: -600)
        #expect(h.events(.clockStep).first?.detail == "-10m")
        try h.run(until: "2026-06-15T06:00:00Z")
        #expect(h.rings.count == 1)
        try h.run(until: "2026-06-16T05:00:30Z")
        #expect(h.rings.count == 2)
    }

    @Test("R5: a backward step before the alarm rings it once, at its wall time")
    func backwardStepBeforeAlarm() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00", duration: 120)], at: "2026-06-15T04:50:00Z")
        h.start()
        h.stepWallClock(by: -3600)
        try h.run(until: "2026-06-15T05:30:00Z")
        #expect(h.rings.map(\.at) == [try Fixture.instant("2026-06-15T05:00:00Z")])
    }

    @Test("R5: a step nobody announced is noticed at the next tick (within a minute)")
    func unannouncedStep() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00")], at: "2026-06-15T04:50:00Z")
        h.start()
        h.stepWallClock(by: 20 * 60, announce: false)  // wall now 05:10Z, nothing told the engine
        h.run(for: 59)
        #expect(h.events(.clockStep).count == 1)
        #expect(h.rings.count == 1)
        #expect(h.rings.first?.request.late == true)
    }

    @Test("R6: a forward step over the alarm rings it at once, flagged late, within G")
    func forwardStepCatchUp() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00")], at: "2026-06-15T04:50:00Z")
        h.start()
        h.stepWallClock(by: 25 * 60)
        #expect(h.rings.count == 1)
        let ring = try #require(h.rings.first?.request)
        #expect(ring.late && ring.cause == .scheduled)
        #expect(ring.occurrence == (try Fixture.instant("2026-06-15T05:00:00Z")))
        #expect(h.events(.rangLate).count == 1)
    }

    @Test("R6: a forward step past G reports the occurrence missed and never rings it")
    func forwardStepMissed() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00")], at: "2026-06-15T04:50:00Z")
        h.start()
        h.stepWallClock(by: 45 * 60)
        #expect(h.rings.isEmpty)
        #expect(h.events(.missed).map(\.detail) == ["due 2026-06-15T05:00:00Z"])
        try h.run(until: "2026-06-16T05:00:30Z")
        #expect(h.rings.map(\.at) == [try Fixture.instant("2026-06-16T05:00:00Z")])
    }

    @Test("R6: G comes from the settings")
    func windowFromSettings() throws {
        var settings = AppSettings()
        settings.catchUpSeconds = 3600
        var h = try SchedulerHarness([try Fixture.alarm("07:00")], at: "2026-06-15T04:50:00Z", settings: settings)
        h.start()
        h.stepWallClock(by: 45 * 60)
        #expect(h.rings.count == 1 && h.rings.first?.request.late == true)
    }

    @Test("R8: a snooze runs on the monotonic clock across a wall-clock step; its stored deadline follows")
    func snoozeAcrossStep() throws {
        for step in [3600.0, -3600.0] {
            var h = try SchedulerHarness([try Fixture.alarm("07:00")], at: "2026-06-15T04:59:00Z")
            h.start()
            try h.run(until: "2026-06-15T05:00:30Z")
            h.snooze()
            h.run(for: 60)
            h.stepWallClock(by: step)
            let expectedWall = try Fixture.instant("2026-06-15T05:09:30Z").addingTimeInterval(step)
            #expect(h.storedStates[1]?.snoozedUntil == expectedWall, "stored deadline after a \(step) s step")
            h.run(until: expectedWall.addingTimeInterval(-1))
            #expect(h.rings.count == 1)
            h.run(until: expectedWall.addingTimeInterval(1))
            #expect(h.rings.count == 2)
            #expect(h.rings.last?.at == expectedWall)
        }
    }

    @Test("R8/R12: auto-silence runs on the monotonic clock across a step; ringingSince is re-stored")
    func ringingAcrossStep() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00", duration: 600)], at: "2026-06-15T04:59:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:02:00Z")
        h.stepWallClock(by: -7200)
        #expect(h.storedStates[1]?.ringingSince == (try Fixture.instant("2026-06-15T03:00:00Z")))
        h.run(for: 479)
        #expect(h.sounding == 1)
        h.run(for: 2)
        #expect(h.sounding == nil)
        #expect(h.events(.autoSilenced).count == 1)
    }

    @Test("R1: after a zone change an alarm without a zone rings at its wall time in the new zone")
    func zoneChange() throws {
        var h = try SchedulerHarness(
            [
                try Fixture.alarm(id: 1, "07:00", duration: 60),
                try Fixture.alarm(id: 2, "07:30", zone: "Europe/Berlin", duration: 60),
            ],
            at: "2026-06-15T04:00:00Z")
        h.start()
        try h.changeZone("Asia/Tokyo")  // 13:00 in Tokyo
        try h.run(until: "2026-06-16T06:00:00Z")
        // Alarm 1 at 07:00 Tokyo (22:00Z); alarm 2 keeps Berlin's 07:30 (05:30Z) both days.
        #expect(h.rings.map(\.request.alarmID) == [2, 1, 2])
        #expect(
            h.rings.map(\.at)
                == (try [
                    "2026-06-15T05:30:00Z", "2026-06-15T22:00:00Z",
                    "2026-06-16T05:30:00Z",
                ].map(Fixture.instant)))
    }

    @Test("R1: moving west after the alarm rang does not ring it again the same local day")
    func zoneChangeSameDay() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00", duration: 60)], at: "2026-06-15T04:59:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:30:00Z")
        try h.changeZone("Europe/London")  // 06:30 in London: 07:00 London is still ahead, same date
        try h.run(until: "2026-06-16T06:00:30Z")
        #expect(h.rings.map(\.at) == (try ["2026-06-15T05:00:00Z", "2026-06-16T06:00:00Z"].map(Fixture.instant)))
        #expect(h.events(.timeZoneChanged).count == 1)
    }
}
