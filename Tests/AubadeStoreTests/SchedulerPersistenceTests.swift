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
}
