import AubadeCore
import Foundation
import Testing

/// Scenario tests of the alarm engine. Alarms are in Europe/Berlin unless said otherwise; in June,
/// 07:00 there is 05:00Z.
@Suite("Scheduler: ringing, snooze, stop, auto-silence, one-shot, skip (R1–R4, R9, R12, R13)")
struct SchedulerTests {
    @Test("rings on time, asked to wake exactly at the occurrence")
    func ringsOnTime() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00")], at: "2026-06-15T04:00:00Z")
        h.start()
        #expect(h.wake?.wall == (try Fixture.instant("2026-06-15T05:00:00Z")))
        try h.run(until: "2026-06-15T05:00:30Z")
        #expect(h.rings.map(\.at) == [try Fixture.instant("2026-06-15T05:00:00Z")])
        let ring = try #require(h.rings.first?.request)
        #expect(ring.cause == .scheduled && !ring.late && ring.volume == 70 && ring.fadeInSeconds == 20 && ring.sound == .tone)
        #expect(h.storedStates[1]?.phase == .ringing)
        #expect(h.storedStates[1]?.lastHandledOccurrence == (try Fixture.instant("2026-06-15T05:00:00Z")))
        #expect(h.events(.rang).count == 1)
    }

    @Test("R4: set before spring-forward, rings at the intended wall time after it (America/New_York)")
    func setBeforeDSTChange() throws {
        let alarm = try Fixture.alarm("07:00", days: "mon-fri", duration: 300)
        // Friday 08:00 EST, an hour after that day's alarm.
        var h = try SchedulerHarness([alarm], zone: "America/New_York", at: "2026-03-06T13:00:00Z")
        h.start()
        try h.run(until: "2026-03-10T12:00:00Z")
        #expect(h.rings.map(\.at) == (try ["2026-03-09T11:00:00Z", "2026-03-10T11:00:00Z"].map(Fixture.instant)))
    }

    @Test("R2: inside the spring-forward gap it rings once, the same minutes after the gap, that day")
    func gapRingsOnce() throws {
        var h = try SchedulerHarness([try Fixture.alarm("02:30", duration: 300)], at: "2026-03-28T12:00:00Z")
        h.start()
        try h.run(until: "2026-03-30T12:00:00Z")
        #expect(h.rings.map(\.at) == (try ["2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z"].map(Fixture.instant)))
    }

    @Test("R3: inside the repeated hour it rings once, at the first occurrence")
    func overlapRingsOnce() throws {
        var h = try SchedulerHarness([try Fixture.alarm("02:30", duration: 300)], at: "2026-10-24T12:00:00Z")
        h.start()
        try h.run(until: "2026-10-26T12:00:00Z")
        #expect(h.rings.map(\.at) == (try ["2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"].map(Fixture.instant)))
    }

    @Test("snooze: silent for the alarm's snooze length, then rings again; after maxSnoozes only stop works")
    func snoozeCycle() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00", maxSnoozes: 2)], at: "2026-06-15T04:59:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:00:10Z")
        h.snooze()
        #expect(h.sounding == nil)
        #expect(h.stops.last?.reason == .snoozed)
        #expect(h.storedStates[1]?.phase == .snoozed)
        #expect(h.storedStates[1]?.snoozedUntil == (try Fixture.instant("2026-06-15T05:09:10Z")))
        try h.run(until: "2026-06-15T05:09:09Z")
        #expect(h.rings.count == 1)
        try h.run(until: "2026-06-15T05:09:20Z")
        #expect(h.rings.count == 2)
        #expect(h.rings.last?.at == (try Fixture.instant("2026-06-15T05:09:10Z")))
        #expect(h.rings.last?.request.cause == .snoozeEnded)
        h.snooze()
        try h.run(until: "2026-06-15T05:18:30Z")
        #expect(h.rings.count == 3)
        #expect(h.storedStates[1]?.snoozeCount == 2)
        h.snooze()
        #expect(h.refusals == [1])
        #expect(h.sounding == 1, "a refused snooze keeps ringing")
        #expect(h.events(.snoozeRefused).count == 1)
        h.stop()
        #expect(h.sounding == nil)
        #expect(h.stops.last?.reason == .dismissed)
        #expect(h.storedStates[1]?.phase == .idle)
        #expect(h.events(.dismissed).count == 1)
    }

    @Test("R12: auto-silenced after the duration, shown as an event; a snooze extends the limit")
    func autoSilence() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00", duration: 300)], at: "2026-06-15T04:59:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:04:00Z")
        h.snooze()
        try h.run(until: "2026-06-15T05:20:00Z")
        // Rang 05:00–05:04, snoozed to 05:13, rang 05:13–05:18: silenced 300 s after the second start.
        #expect(h.rings.map(\.at) == (try ["2026-06-15T05:00:00Z", "2026-06-15T05:13:00Z"].map(Fixture.instant)))
        let silenced = try #require(h.events(.autoSilenced).first)
        #expect(silenced.at == (try Fixture.instant("2026-06-15T05:18:00Z")))
        #expect(h.stops.last.map { $0.alarmID == 1 && $0.reason == .autoSilenced } == true)
        #expect(h.storedStates[1]?.phase == .idle)
        // A repeating alarm moves on to its next day.
        try h.run(until: "2026-06-16T05:00:01Z")
        #expect(h.rings.last?.at == (try Fixture.instant("2026-06-16T05:00:00Z")))
    }

    @Test("a one-shot alarm disables itself after it rang, and is saved disabled")
    func oneShotDisables() throws {
        let alarm = try Fixture.alarm("07:00", days: "once", date: "2026-06-15")
        var h = try SchedulerHarness([alarm], at: "2026-06-15T04:00:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:01:00Z")
        #expect(h.storedAlarms[1]?.enabled == true, "still enabled while it rings")
        h.stop()
        #expect(h.storedAlarms[1]?.enabled == false)
        #expect(h.engine.alarms[1]?.enabled == false)
        try h.run(until: "2026-06-20T00:00:00Z")
        #expect(h.rings.count == 1)
        #expect(h.wake?.wall == nil)
    }

    @Test("a one-shot alarm that auto-silences also disables itself")
    func oneShotAutoSilenced() throws {
        let alarm = try Fixture.alarm("07:00", days: "once", date: "2026-06-15", duration: 60)
        var h = try SchedulerHarness([alarm], at: "2026-06-15T04:00:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:05:00Z")
        #expect(h.events(.autoSilenced).count == 1)
        #expect(h.storedAlarms[1]?.enabled == false)
    }

    @Test("skip-next skips exactly that occurrence and clears itself")
    func skipNext() throws {
        let alarm = try Fixture.alarm("07:00", duration: 60, skip: "2026-06-16")
        var h = try SchedulerHarness([alarm], at: "2026-06-15T06:00:00Z")
        h.start()
        try h.run(until: "2026-06-18T06:00:00Z")
        #expect(h.rings.map(\.at) == (try ["2026-06-17T05:00:00Z", "2026-06-18T05:00:00Z"].map(Fixture.instant)))
        #expect(h.events(.skipped).map(\.at) == [try Fixture.instant("2026-06-16T05:00:00Z")])
        #expect(h.storedAlarms[1]?.skipDate == nil)
        #expect(h.events(.missed).isEmpty)
    }

    @Test("skip-next while an occurrence rings picks the next one, and the engine honours it")
    func skipNextWhileRinging() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00", duration: 60)], at: "2026-06-15T04:59:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:00:30Z")
        var alarm = try #require(h.storedAlarms[1])
        let date = AlarmSchedule.skipNextDate(
            of: alarm, after: h.now.wall,
            lastHandled: h.storedStates[1]?.lastHandledOccurrence,
            defaultZone: try Fixture.zone("Europe/Berlin"))
        #expect(date == (try Fixture.date("2026-06-16")))
        alarm.skipDate = date
        h.save(alarm)
        #expect(h.sounding == 1, "setting a skip date does not stop the ring in progress")
        try h.run(until: "2026-06-17T05:00:30Z")
        #expect(h.rings.map(\.at) == (try ["2026-06-15T05:00:00Z", "2026-06-17T05:00:00Z"].map(Fixture.instant)))
    }

    @Test("a skip date that has passed without an occurrence is cleared")
    func staleSkipCleared() throws {
        // 2026-06-13 is a Saturday: a mon-fri alarm has no occurrence to skip that day.
        let alarm = try Fixture.alarm("07:00", days: "mon-fri", duration: 60, skip: "2026-06-13")
        var h = try SchedulerHarness([alarm], at: "2026-06-13T12:00:00Z")
        h.start()
        try h.run(until: "2026-06-14T12:00:00Z")
        #expect(h.storedAlarms[1]?.skipDate == nil)
        try h.run(until: "2026-06-15T06:00:00Z")
        #expect(h.rings.map(\.at) == [try Fixture.instant("2026-06-15T05:00:00Z")])
    }

    @Test("R13, R38: a second alarm due while one rings joins it; its sound replaces the first's, nothing ends the first")
    func secondAlarmJoins() throws {
        let a = try Fixture.alarm(id: 1, "07:00")
        var b = try Fixture.alarm(id: 2, "07:05")
        b.volume = 40
        var h = try SchedulerHarness([a, b], at: "2026-06-15T04:00:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:06:00Z")
        #expect(h.rings.map(\.request.alarmID) == [1, 2])
        #expect(h.rings.last?.request.replacing == 1)
        #expect(h.rings.last?.request.volume == 40)
        #expect(h.sounding == 2 && h.engine.soundingAlarmID == 2)
        #expect(h.engine.ringingAlarmIDs == [1, 2])
        #expect(h.stops.isEmpty, "nothing ends the alarm that was ringing")
        #expect(h.storedStates[1]?.phase == .ringing && h.storedStates[2]?.phase == .ringing)
        #expect(h.events(.rang).map(\.detail) == ["due 2026-06-15T05:00:00Z", "due 2026-06-15T05:05:00Z, with alarm 1"])
        // A auto-silences at 07:15 while B rings on (the sound goes on); B's end at 07:20 silences.
        try h.run(until: "2026-06-15T05:21:00Z")
        #expect(h.stops.map(\.alarmID) == [1, 2])
        #expect(h.stops.map(\.silencesPlayer) == [false, true])
        #expect(h.silencedAt == [try Fixture.instant("2026-06-15T05:20:00Z")])
        #expect(h.silences.isEmpty)
    }

    @Test("R13: an alarm that auto-silences just as another comes due never leaves silence")
    func silenceAndDueTogether() throws {
        let a = try Fixture.alarm(id: 1, "07:00", duration: 300)
        let b = try Fixture.alarm(id: 2, "07:05")
        var h = try SchedulerHarness([a, b], at: "2026-06-15T04:00:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:06:00Z")
        #expect(h.sounding == 2)
        #expect(h.silences.isEmpty && h.silencedAt.isEmpty)
        let batch = try #require(h.batches.first { $0.at.wall == (try? Fixture.instant("2026-06-15T05:05:00Z")) })
        // B's ring comes first; A's stop then says B rings on, so the player keeps B's sound.
        let ring = try #require(batch.actions.firstIndex { if case .ring(let r) = $0 { r.alarmID == 2 } else { false } })
        let stop = try #require(
            batch.actions.firstIndex(
                of: .stopRinging(
                    StopRinging(
                        alarmID: 1, reason: .autoSilenced,
                        othersStillRinging: [2]))))
        #expect(ring < stop)
        // A had ended before B started, so B rang alone.
        #expect(h.events(.rang).last?.detail == "due 2026-06-15T05:05:00Z")
    }

    @Test("R13: a snooze ending while another alarm rings joins it; the user is never left in silence")
    func snoozeEndsDuringOther() throws {
        let a = try Fixture.alarm(id: 1, "07:00", snoozeMinutes: 10)
        let b = try Fixture.alarm(id: 2, "07:05")
        var h = try SchedulerHarness([a, b], at: "2026-06-15T04:00:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:01:00Z")
        h.snooze()
        try h.run(until: "2026-06-15T05:12:00Z")
        #expect(h.rings.map(\.request.alarmID) == [1, 2, 1])
        #expect(h.rings.last?.request.cause == .snoozeEnded)
        #expect(h.events(.snoozeEnded).map(\.detail) == ["due 2026-06-15T05:00:00Z, with alarm 2"])
        #expect(h.engine.ringingAlarmIDs == [2, 1] && h.sounding == 1)
        #expect(h.silences.isEmpty)
    }

    @Test("R15: a press that began before the ring does nothing; a later one works")
    func heldButtonIgnored() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00")], at: "2026-06-15T04:59:50Z")
        h.start()
        let heldSince = h.now.mono
        try h.run(until: "2026-06-15T05:00:05Z")
        h.stop(pressedAt: heldSince)
        h.snooze(pressedAt: heldSince)
        #expect(h.sounding == 1)
        h.stop(pressedAt: h.now.mono)
        #expect(h.sounding == nil)
    }

    @Test("R15: shake stops only alarms with shake-to-stop")
    func shake() throws {
        let still = try Fixture.alarm(id: 1, "07:00")
        let shaken = try Fixture.alarm(id: 2, "08:00", shake: true)
        var h = try SchedulerHarness([still, shaken], at: "2026-06-15T04:59:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:00:10Z")
        h.shake()
        #expect(h.sounding == 1)
        h.stop()
        try h.run(until: "2026-06-15T06:00:10Z")
        h.shake()
        #expect(h.sounding == nil)
        #expect(h.events(.dismissed).last?.detail == "shake")
    }

    @Test("stop without an alarm id does not cancel a snooze; with the id it does")
    func stopDuringSnooze() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00")], at: "2026-06-15T04:59:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:00:10Z")
        h.snooze()
        h.stop()
        #expect(h.storedStates[1]?.phase == .snoozed)
        h.stop(alarm: 1)
        #expect(h.storedStates[1]?.phase == .idle)
        try h.run(until: "2026-06-15T05:30:00Z")
        #expect(h.rings.count == 1)
    }

    @Test("a removed alarm stops ringing and is never persisted again")
    func removeWhileRinging() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00")], at: "2026-06-15T04:59:00Z")
        h.start()
        try h.run(until: "2026-06-15T05:00:10Z")
        let actions = h.remove(1)
        #expect(actions.contains(.stopRinging(StopRinging(alarmID: 1, reason: .removed))))
        #expect(!actions.contains { if case .persist(let s) = $0 { s.alarmID == 1 } else { false } })
        try h.run(until: "2026-06-17T00:00:00Z")
        #expect(h.rings.count == 1)
        #expect(h.engine.alarms.isEmpty)
    }
}
