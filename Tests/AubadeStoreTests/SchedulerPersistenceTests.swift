import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import Testing

/// The engine's `persist` actions written to a real SQLite file and read back by a fresh engine, as the
/// daemon will do across a `kill -9` (R9).
@Suite("Scheduler state through the store")
struct SchedulerPersistenceTests {
    let utc = TimeZone(identifier: "UTC")!

    /// Applies the batch as the daemon must: persist (committed) before anything else.
    func apply(_ actions: [SchedulerAction], _ store: Store) throws -> [RingRequest] {
        var rings: [RingRequest] = []
        for action in actions {
            switch action {
            case .persist(let state): try store.save(state)
            case .saveAlarm(let alarm): try store.update(alarm)
            case .record(let event): try store.record(event)
            case .ring(let request): rings.append(request)
            default: break
            }
        }
        return rings
    }

    func engine(_ store: Store) throws -> AlarmScheduler {
        AlarmScheduler(
            alarms: try store.alarms(), states: try store.runStates(), settings: try store.settings(),
            defaultZone: utc, alarmsUpdatedAt: try store.alarmUpdateTimes())
    }

    @Test func aRingAndASnoozeSurviveARestart() throws {
        let dir = try TemporaryDirectory("persist")
        let t0 = Date(timeIntervalSince1970: 1_800_003_600)  // 2027-01-15T09:00:00Z, a Friday
        let store = try Store.open(path: dir.file("a.sqlite"), now: { t0 - 86_400 })
        let alarm = try store.insert(
            Alarm(
                name: "Work", time: try LocalTime(parsing: "09:00"), recurrence: .weekly(.all),
                durationSeconds: 900, snoozeMinutes: 5, timeZoneID: "UTC"))
        let id = alarm.id!

        var first = try engine(store)
        let rang = try apply(first.start(at: SchedulerTime(wall: t0, mono: MonotonicInstant(seconds: 100))), store)
        #expect(rang.map(\.alarmID) == [id])
        #expect(try store.runStates().first?.phase == .ringing)

        // "kill -9" 60 s later: a fresh engine from the file resumes ringing the same occurrence.
        let reopened = try Store.open(path: dir.file("a.sqlite"))
        var second = try engine(reopened)
        let resumed = try apply(second.start(at: SchedulerTime(wall: t0 + 60, mono: MonotonicInstant(seconds: 5))), reopened)
        #expect(resumed.map(\.alarmID) == [id])
        #expect(resumed.first?.occurrence == t0)
        #expect(resumed.first?.cause == .resumed)

        // Snooze, restart, and the snooze ends at its stored deadline, not earlier and not twice.
        _ = try apply(second.snoozePressed(at: SchedulerTime(wall: t0 + 90, mono: MonotonicInstant(seconds: 35))), reopened)
        let snoozed = try #require(try reopened.runStates().first)
        #expect(snoozed.phase == .snoozed && snoozed.snoozedUntil == t0 + 90 + 300)
        var third = try engine(try Store.open(path: dir.file("a.sqlite")))
        #expect(try apply(third.start(at: SchedulerTime(wall: t0 + 200, mono: MonotonicInstant(seconds: 1))), reopened).isEmpty)
        let again = try apply(third.tick(at: SchedulerTime(wall: t0 + 390, mono: MonotonicInstant(seconds: 191))), reopened)
        #expect(again.map(\.cause) == [.snoozeEnded])
    }

    /// A Stop's wake-up check through a real file: stored with the Stop, asked by an engine started after a
    /// "kill -9" before its time, and forgotten once answered, so the next restart asks nothing.
    @Test func aWakeUpCheckSurvivesARestartAndIsForgottenOnceAnswered() throws {
        let dir = try TemporaryDirectory("persist-check")
        let t0 = Date(timeIntervalSince1970: 1_800_003_600)  // 2027-01-15T09:00:00Z
        let store = try Store.open(path: dir.file("a.sqlite"), now: { t0 - 86_400 })
        var alarm = Alarm(
            name: "Work", time: try LocalTime(parsing: "09:00"), recurrence: .weekly(.all),
            durationSeconds: 900, snoozeMinutes: 5, timeZoneID: "UTC")
        alarm.wakeCheckSeconds = 300
        let id = try store.insert(alarm).id!

        var first = try engine(store)
        _ = try apply(first.start(at: SchedulerTime(wall: t0, mono: MonotonicInstant(seconds: 100))), store)
        _ = try apply(
            first.stopPressed(at: SchedulerTime(wall: t0 + 30, mono: MonotonicInstant(seconds: 130)), by: .button), store)
        #expect(try store.runStates().first?.wakeCheckAt == t0 + 330)

        // Killed at once; a fresh engine from the file asks at 09:05:30 — the check's time, not its own start's.
        var second = try engine(try Store.open(path: dir.file("a.sqlite")))
        #expect(try apply(second.start(at: SchedulerTime(wall: t0 + 100, mono: MonotonicInstant(seconds: 7))), store).isEmpty)
        _ = try apply(second.tick(at: SchedulerTime(wall: t0 + 329, mono: MonotonicInstant(seconds: 236))), store)
        #expect(second.askingWakeChecks.isEmpty)
        _ = try apply(second.tick(at: SchedulerTime(wall: t0 + 330, mono: MonotonicInstant(seconds: 237))), store)
        #expect(second.askingWakeChecks == [id])
        _ = try apply(
            second.personActed(at: SchedulerTime(wall: t0 + 340, mono: MonotonicInstant(seconds: 247)), by: .api), store)
        #expect(try store.runStates().first?.wakeCheckAt == nil)
        let kinds = try store.events().map(\.kind)
        #expect(kinds.filter { ["wake-check", "woke"].contains($0) }.sorted() == ["wake-check", "woke"])

        var third = try engine(try Store.open(path: dir.file("a.sqlite")))
        _ = try apply(third.start(at: SchedulerTime(wall: t0 + 400, mono: MonotonicInstant(seconds: 3))), store)
        _ = try apply(third.tick(at: SchedulerTime(wall: t0 + 4000, mono: MonotonicInstant(seconds: 3603))), store)
        #expect(third.askingWakeChecks.isEmpty)
    }
}
