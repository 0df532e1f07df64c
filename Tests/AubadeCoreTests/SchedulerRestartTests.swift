import AubadeCore
import Foundation
import Testing

/// R9: the state the engine asked to persist is enough for a fresh engine (new process, new monotonic
/// origin) to resume ringing or a snooze. The fresh harness starts from what the old one "stored".
@Suite("Scheduler: restart from stored state (R6, R9)")
struct SchedulerRestartTests {
    private func restart(
        _ old: SchedulerHarness, at wall: String,
        settings: AppSettings = AppSettings()
    ) throws -> SchedulerHarness {
        try SchedulerHarness(
            Array(old.storedAlarms.values), at: wall, settings: settings,
            states: Array(old.storedStates.values), monoOrigin: 77)
    }

    @Test("mid-ring: a fresh engine resumes ringing for the rest of the duration")
    func resumeRinging() throws {
        var old = try SchedulerHarness([try Fixture.alarm("07:00", duration: 900)], at: "2026-06-15T04:59:00Z")
        old.start()
        try old.run(until: "2026-06-15T05:03:00Z")
        var h = try restart(old, at: "2026-06-15T05:05:00Z")
        h.start()
        #expect(h.sounding == 1)
        let ring = try #require(h.rings.first?.request)
        #expect(ring.cause == .resumed)
        #expect(ring.occurrence == (try Fixture.instant("2026-06-15T05:00:00Z")))
        #expect(h.wake?.mono == MonotonicInstant(seconds: 77 + 600), "auto-silence 15 min after 05:00")
        try h.run(until: "2026-06-15T05:14:59Z")
        #expect(h.sounding == 1)
        try h.run(until: "2026-06-15T05:15:01Z")
        #expect(h.sounding == nil && h.events(.autoSilenced).count == 1)
        #expect(h.rings.count == 1, "the occurrence never rings from scratch again")
    }

    @Test("mid-ring, back after the duration: auto-silenced, recorded, not rung")
    func ringingExpiredWhileDown() throws {
        var old = try SchedulerHarness([try Fixture.alarm("07:00", duration: 300)], at: "2026-06-15T04:59:00Z")
        old.start()
        try old.run(until: "2026-06-15T05:01:00Z")
        var h = try restart(old, at: "2026-06-15T05:20:00Z")
        h.start()
        #expect(h.rings.isEmpty)
        #expect(h.events(.autoSilenced).count == 1)
        #expect(h.storedStates[1]?.phase == .idle)
    }

    @Test("mid-snooze: a fresh engine rings at the stored deadline, keeping the snooze count")
    func resumeSnooze() throws {
        var old = try SchedulerHarness([try Fixture.alarm("07:00", maxSnoozes: 1)], at: "2026-06-15T04:59:00Z")
        old.start()
        try old.run(until: "2026-06-15T05:02:00Z")
        old.snooze()  // until 05:11
        var h = try restart(old, at: "2026-06-15T05:05:00Z")
        h.start()
        #expect(h.rings.isEmpty && h.sounding == nil)
        #expect(h.wake?.mono == MonotonicInstant(seconds: 77 + 360))
        try h.run(until: "2026-06-15T05:11:01Z")
        #expect(h.rings.map(\.at) == [try Fixture.instant("2026-06-15T05:11:00Z")])
        #expect(h.rings.first?.request.cause == .snoozeEnded)
        h.snooze()
        #expect(h.refusals == [1], "the snooze used before the restart still counts")
    }

    @Test("snooze deadline passed while down: rings late within G, missed beyond it")
    func snoozeDeadlinePassed() throws {
        var old = try SchedulerHarness([try Fixture.alarm("07:00")], at: "2026-06-15T04:59:00Z")
        old.start()
        try old.run(until: "2026-06-15T05:01:00Z")
        old.snooze()  // until 05:10
        var soon = try restart(old, at: "2026-06-15T05:25:00Z")
        soon.start()
        #expect(soon.rings.count == 1 && soon.rings.first?.request.late == true)
        var late = try restart(old, at: "2026-06-15T05:45:00Z")
        late.start()
        #expect(late.rings.isEmpty)
        #expect(late.events(.missed).count == 1)
        #expect(late.storedStates[1]?.phase == .idle)
    }

    @Test("R6: after a power cut the latest occurrence within G rings late; older ones are missed")
    func catchUpAfterOutage() throws {
        var old = try SchedulerHarness([try Fixture.alarm("07:00", duration: 60)], at: "2026-06-11T04:59:00Z")
        old.start()
        try old.run(until: "2026-06-11T06:00:00Z")
        #expect(old.rings.count == 1)
        var h = try restart(old, at: "2026-06-15T05:20:00Z")
        h.start()
        #expect(h.rings.count == 1)
        #expect(h.rings.first?.request.late == true)
        #expect(h.rings.first?.request.occurrence == (try Fixture.instant("2026-06-15T05:00:00Z")))
        #expect(
            h.events(.missed).map(\.detail) == [
                "due 2026-06-12T05:00:00Z", "due 2026-06-13T05:00:00Z",
                "due 2026-06-14T05:00:00Z",
            ])
    }

    @Test("R6: back after more than G: missed, never rung")
    func outageBeyondWindow() throws {
        var old = try SchedulerHarness([try Fixture.alarm("07:00")], at: "2026-06-15T04:00:00Z")
        old.start()
        var h = try restart(old, at: "2026-06-15T05:40:00Z")
        h.start()
        #expect(h.rings.isEmpty)
        #expect(h.events(.missed).count == 1)
    }

    @Test("a dismissed occurrence is not rung again by a fresh engine")
    func dismissedStaysDismissed() throws {
        var old = try SchedulerHarness([try Fixture.alarm("07:00")], at: "2026-06-15T04:59:00Z")
        old.start()
        try old.run(until: "2026-06-15T05:01:00Z")
        old.stop()
        var h = try restart(old, at: "2026-06-15T05:02:00Z")
        h.start()
        try h.run(until: "2026-06-15T06:00:00Z")
        #expect(h.rings.isEmpty)
    }

    @Test("two restarts in a row keep resuming the same ring")
    func restartTwice() throws {
        var old = try SchedulerHarness([try Fixture.alarm("07:00", duration: 900)], at: "2026-06-15T04:59:00Z")
        old.start()
        try old.run(until: "2026-06-15T05:01:00Z")
        var middle = try restart(old, at: "2026-06-15T05:04:00Z")
        middle.start()
        var last = try restart(middle, at: "2026-06-15T05:08:00Z")
        last.start()
        #expect(last.sounding == 1)
        #expect(last.wake?.mono == MonotonicInstant(seconds: 77 + 420))
    }

    @Test("an alarm changed while no engine ran is not caught up for its old occurrence")
    func changedWhileDown() throws {
        let alarm = try Fixture.alarm("07:00")
        var engine = AlarmScheduler(
            alarms: [alarm], states: [], settings: AppSettings(),
            defaultZone: try Fixture.zone("Europe/Berlin"),
            alarmsUpdatedAt: [1: try Fixture.instant("2026-06-15T05:10:00Z")])
        let actions = engine.start(
            at: SchedulerTime(
                wall: try Fixture.instant("2026-06-15T05:15:00Z"),
                mono: MonotonicInstant(seconds: 5)))
        #expect(!actions.contains { if case .ring = $0 { true } else { false } })
    }
}
