import AubadeCore
import Foundation
import Testing

/// R13, R38: alarms that coincide or overlap ring together (the ringing group) until the last of their
/// durations; one member's end never silences the others. Berlin in June: 08:00 is 06:00Z.
@Suite("Scheduler: coinciding and overlapping alarms ring together (R13, R38)")
struct SchedulerGroupTests {
    /// Work (id 1) and Gym (id 2), both ringing from `at`.
    static func ringingPair(work: Alarm, gym: Alarm, at wall: String) throws -> SchedulerHarness {
        var h = try SchedulerHarness([work, gym], at: "2026-06-15T05:00:00Z")
        h.start()
        try h.run(until: wall)
        #expect(h.engine.ringingAlarmIDs.count == 2)
        return h
    }

    @Test("A (5 min) and B (1 min) both at 08:00: the sound never stops before 08:05")
    func coincidingDifferentDurations() throws {
        let a = try Fixture.alarm(id: 1, "08:00", duration: 300)
        let b = try Fixture.alarm(id: 2, "08:00", duration: 60)
        var h = try SchedulerHarness([a, b], at: "2026-06-15T05:00:00Z")
        h.start()
        try h.run(until: "2026-06-15T06:00:00Z")
        #expect(h.engine.ringingAlarmIDs == [1, 2])
        #expect(h.rings.map(\.request.alarmID) == [2], "one ring per batch: the last due alarm's sound plays")
        #expect(h.events(.rang).map(\.detail) == ["due 2026-06-15T06:00:00Z", "due 2026-06-15T06:00:00Z, with alarm 1"])
        // Just before A's end the player still sounds, though B ended long ago.
        try h.run(until: "2026-06-15T06:04:59Z")
        #expect(h.sounding != nil && h.engine.ringingAlarmIDs == [1])
        try h.run(until: "2026-06-15T06:06:00Z")
        let silenced = h.events(.autoSilenced)
        #expect(silenced.map(\.alarmID) == [2, 1])
        #expect(silenced.map(\.at) == (try ["2026-06-15T06:01:00Z", "2026-06-15T06:05:00Z"].map(Fixture.instant)))
        // B's stop says A rings on (no silencing); A's stop is the one that silences.
        #expect(
            h.stops == [
                StopRinging(alarmID: 2, reason: .autoSilenced, othersStillRinging: [1]),
                StopRinging(alarmID: 1, reason: .autoSilenced),
            ])
        #expect(h.silencedAt == [try Fixture.instant("2026-06-15T06:05:00Z")])
        #expect(h.silences.isEmpty)
        #expect(h.storedStates[1]?.phase == .idle && h.storedStates[2]?.phase == .idle)
    }

    static let staggered: [(gymMinutes: Int, silence: String)] = [
        (1, "2026-06-15T06:05:00Z"),  // B 08:02–08:03 inside A 08:00–08:05
        (3, "2026-06-15T06:05:00Z"),  // B ends with A
        (5, "2026-06-15T06:07:00Z"),  // B outlasts A
    ]

    @Test("staggered: B due at 08:02 while A rings from 08:00 for 5 min: silence at max(08:05, B's end)", arguments: staggered)
    func staggeredOverlap(_ row: (gymMinutes: Int, silence: String)) throws {
        let a = try Fixture.alarm(id: 1, "08:00", duration: 300)
        let b = try Fixture.alarm(id: 2, "08:02", duration: row.gymMinutes * 60)
        var h = try SchedulerHarness([a, b], at: "2026-06-15T05:00:00Z")
        h.start()
        try h.run(until: "2026-06-15T06:10:00Z")
        #expect(h.rings.map(\.request.alarmID) == [1, 2])
        #expect(h.rings.last?.request.replacing == 1)
        #expect(h.events(.rang).last?.detail == "due 2026-06-15T06:02:00Z, with alarm 1")
        #expect(h.events(.superseded).isEmpty)
        #expect(h.silencedAt == [try Fixture.instant(row.silence)])
        #expect(h.silences.isEmpty)
        #expect(h.stops.filter(\.silencesPlayer).count == 1)
        let ends = Dictionary(uniqueKeysWithValues: h.events(.autoSilenced).compactMap { e in e.alarmID.map { ($0, e.at) } })
        #expect(ends[1] == (try Fixture.instant("2026-06-15T06:05:00Z")), "A keeps its own five minutes")
        #expect(ends[2] == (try Fixture.instant("2026-06-15T06:02:00Z")).addingTimeInterval(Double(row.gymMinutes * 60)))
    }

    @Test("stop without an id dismisses every member, one stop each, only the last silencing, all named by input")
    func stopTheGroup() throws {
        var h = try Self.ringingPair(
            work: try Fixture.alarm(id: 1, "08:00"), gym: try Fixture.alarm(id: 2, "08:01"),
            at: "2026-06-15T06:02:00Z")
        let actions = h.stop(by: .button)
        let stops = actions.compactMap { if case .stopRinging(let s) = $0 { s } else { nil } }
        #expect(
            stops == [
                StopRinging(alarmID: 1, reason: .dismissed, by: .button, othersStillRinging: [2]),
                StopRinging(alarmID: 2, reason: .dismissed, by: .button),
            ])
        #expect(h.sounding == nil && h.engine.ringingAlarmIDs.isEmpty)
        #expect(h.events(.dismissed).map(\.detail) == ["by=button", "by=button"])
        #expect(h.storedStates.values.allSatisfy { $0.phase == .idle })
    }

    @Test("stop with an id dismisses that alarm only; the sound goes on for the other")
    func stopOneMember() throws {
        var h = try Self.ringingPair(
            work: try Fixture.alarm(id: 1, "08:00"), gym: try Fixture.alarm(id: 2, "08:01"),
            at: "2026-06-15T06:02:00Z")
        // Gym's sound plays; stopping Gym by id leaves Work ringing, and the sound does not stop.
        h.stop(alarm: 2, by: .api)
        #expect(h.stops == [StopRinging(alarmID: 2, reason: .dismissed, by: .api, othersStillRinging: [1])])
        #expect(h.sounding == 2, "the player keeps the sound it plays, now for Work")
        #expect(h.engine.ringingAlarmIDs == [1] && h.engine.soundingAlarmID == 1)
        #expect(h.silencedAt.isEmpty)
        h.stop(alarm: 1, by: .api)
        #expect(h.sounding == nil && h.stops.last?.silencesPlayer == true)
    }

    @Test("snooze of a group snoozes every member with snoozes left; one out of snoozes rings on, refused")
    func snoozeWithOneOutOfSnoozes() throws {
        let work = try Fixture.alarm(id: 1, "08:00", snoozeMinutes: 5, maxSnoozes: 0)
        let gym = try Fixture.alarm(id: 2, "08:00", snoozeMinutes: 5, maxSnoozes: 2)
        var h = try Self.ringingPair(work: work, gym: gym, at: "2026-06-15T06:00:30Z")
        let actions = h.snooze(by: .button)
        #expect(h.refusals == [1])
        #expect(h.events(.snoozeRefused).map(\.alarmID) == [1])
        #expect(actions.contains(.stopRinging(StopRinging(alarmID: 2, reason: .snoozed, by: .button, othersStillRinging: [1]))))
        #expect(h.sounding != nil, "the refused member keeps ringing, so the sound goes on")
        #expect(h.engine.ringingAlarmIDs == [1] && h.storedStates[2]?.phase == .snoozed)
        // Gym's snooze ends while Work rings: it joins again, its ring named with Work.
        try h.run(until: "2026-06-15T06:05:40Z")
        #expect(h.rings.last.map { $0.request.alarmID == 2 && $0.request.cause == .snoozeEnded } == true)
        #expect(h.events(.snoozeEnded).map(\.detail) == ["due 2026-06-15T06:00:00Z, with alarm 1"])
        #expect(h.engine.ringingAlarmIDs == [1, 2])
        #expect(h.silencedAt.isEmpty)
    }

    @Test("snooze of a group whose members all have snoozes left: all snoozed, the last one silences, both come back")
    func snoozeAll() throws {
        let work = try Fixture.alarm(id: 1, "08:00", snoozeMinutes: 5)
        let gym = try Fixture.alarm(id: 2, "08:00", snoozeMinutes: 9)
        var h = try Self.ringingPair(work: work, gym: gym, at: "2026-06-15T06:00:30Z")
        h.snooze()
        #expect(h.stops.map(\.silencesPlayer) == [false, true])
        #expect(h.sounding == nil)
        #expect(h.silencedAt == [try Fixture.instant("2026-06-15T06:00:30Z")])
        try h.run(until: "2026-06-15T06:10:00Z")
        #expect(h.rings.suffix(2).map(\.request.alarmID) == [1, 2])
        #expect(h.rings.suffix(2).map(\.at) == (try ["2026-06-15T06:05:30Z", "2026-06-15T06:09:30Z"].map(Fixture.instant)))
        #expect(h.engine.ringingAlarmIDs == [1, 2])
    }

    @Test("R15: a press whose edge came before a member started ringing is ignored for that member only")
    func heldAcrossAJoin() throws {
        var h = try SchedulerHarness(
            [try Fixture.alarm(id: 1, "08:00"), try Fixture.alarm(id: 2, "08:01")],
            at: "2026-06-15T05:00:00Z")
        h.start()
        try h.run(until: "2026-06-15T06:00:30Z")
        let heldSince = h.now.mono
        try h.run(until: "2026-06-15T06:01:10Z")
        h.stop(pressedAt: heldSince, by: .button)
        #expect(h.stops == [StopRinging(alarmID: 1, reason: .dismissed, by: .button, othersStillRinging: [2])])
        #expect(h.engine.ringingAlarmIDs == [2] && h.sounding != nil)
        h.snooze(pressedAt: heldSince)
        #expect(h.engine.ringingAlarmIDs == [2], "Gym began after the press: still ringing")
    }

    @Test("shake stops the members that allow it; the others ring on (or snooze, when the response says so)")
    func shakeInAGroup() throws {
        let still = try Fixture.alarm(id: 1, "08:00")
        let shaken = try Fixture.alarm(id: 2, "08:00", shake: true)
        var h = try Self.ringingPair(work: still, gym: shaken, at: "2026-06-15T06:00:30Z")
        h.shake()
        #expect(h.stops == [StopRinging(alarmID: 2, reason: .dismissed, by: .shake, othersStillRinging: [1])])
        #expect(h.events(.dismissed).map(\.detail) == ["shake"])
        #expect(h.engine.ringingAlarmIDs == [1] && h.sounding != nil)
        h.shake(ShakeResponse(whenShakeToStop: .stop, otherwise: .snooze))
        #expect(h.stops.last == StopRinging(alarmID: 1, reason: .snoozed, by: .shake))
        #expect(h.storedStates[1]?.phase == .snoozed && h.sounding == nil)
    }

    @Test("R9: a restart resumes every ringing member, each for the rest of its own duration")
    func restartResumesTheGroup() throws {
        let work = try Fixture.alarm(id: 1, "08:00", duration: 900)
        let gym = try Fixture.alarm(id: 2, "08:02", duration: 900)
        var old = try SchedulerHarness([work, gym], at: "2026-06-15T05:00:00Z")
        old.start()
        try old.run(until: "2026-06-15T06:04:00Z")
        var h = try SchedulerHarness(
            Array(old.storedAlarms.values), at: "2026-06-15T06:06:00Z",
            states: Array(old.storedStates.values), monoOrigin: 77)
        h.start()
        #expect(h.engine.ringingAlarmIDs == [1, 2])
        #expect(h.rings.map(\.request.alarmID) == [2], "the latest started is the one left sounding")
        #expect(h.rings.first?.request.cause == .resumed)
        #expect(h.events(.resumed).map(\.detail) == ["due 2026-06-15T06:00:00Z", "due 2026-06-15T06:02:00Z, with alarm 1"])
        #expect(h.wake?.mono == MonotonicInstant(seconds: 77 + 540), "Work's own end, 08:15")
        try h.run(until: "2026-06-15T06:20:00Z")
        #expect(h.events(.autoSilenced).map(\.at) == (try ["2026-06-15T06:15:00Z", "2026-06-15T06:17:00Z"].map(Fixture.instant)))
        #expect(h.silencedAt == [try Fixture.instant("2026-06-15T06:17:00Z")])
        #expect(h.silences.isEmpty)
    }

    @Test("an alarm's own next occurrence still supersedes its previous one inside a group; the others ring on")
    func ownOccurrenceTakesOverInAGroup() throws {
        let work = try Fixture.alarm(id: 1, "08:00", duration: 1_200)
        let gym = try Fixture.alarm(id: 2, "08:00", days: "once", date: "2026-06-15", duration: 1_200)
        var h = try Self.ringingPair(work: work, gym: gym, at: "2026-06-15T06:00:30Z")
        // The wall clock jumps a day ahead: Work's next occurrence is due; Gym has none and rings on.
        h.stepWallClock(by: 86_400)
        #expect(h.events(.superseded).map(\.alarmID) == [1])
        #expect(h.events(.superseded).first?.detail == "its occurrence 2026-06-15T06:00:00Z gave way to the next")
        #expect(h.events(.rang).last?.detail == "due 2026-06-16T06:00:00Z, with alarm 2")
        #expect(h.engine.ringingAlarmIDs == [2, 1] && h.sounding == 1)
        #expect(h.stops.isEmpty && h.silencedAt.isEmpty)
    }
}
