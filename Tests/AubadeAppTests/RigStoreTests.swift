import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import Testing

/// The command layer over the rig's store — the SQLite store itself, on a temporary file — and over the store the
/// clock runs on when its database cannot be read (`BackupClockStore`, the schedule's backup copy), which takes
/// no changes.
@Suite("Command layer over the rig's store and the backup copy")
struct RigStoreTests {
    @Test func aStoreThatTakesNoChangesRefusesEditsInOneSentence() async throws {
        // The rig whose backup copy is read is kept alive until it is read: its folder goes with it.
        let source = ClockRig()
        let copy = try withExtendedLifetime(source) { try source.store.database.snapshot.load() }
        let rig = try RunningClockRig(store: BackupClockStore(copy), time: ManualClock(wall: ClockRig.morning))
        await rig.start()
        await #expect(throws: ClockError(.failed, "The clock runs from the backup copy of the schedule; changes are not saved."))
        {
            try await rig.clock.handle(.edit(.removeAlarm(id: 1)))
        }
    }

    @Test func anEditIsSavedAndTheClockRunsOnItAtOnce() async throws {
        let rig = ClockRig()
        await rig.start()
        let outcome = try await rig.edit(.addAlarm(AlarmPatch(name: "Work", time: "07:00", days: "daily")))
        guard case .alarm(let alarm) = outcome, let id = alarm.id else { throw RigError("no alarm") }
        #expect(rig.store.data.alarms.map(\.name) == ["Work"])
        #expect(rig.store.data.alarmUpdateTimes[id] == ClockRig.morning, "the store's time is the rig's, not the machine's")
        #expect(try await rig.status().next?.id == id)
        await #expect(throws: ClockError(.notFound, "No alarm has id 4.")) { try await rig.edit(.removeAlarm(id: 4)) }
        await rig.advance(to: ClockRig.at(7, 0))
        #expect(rig.sound.played.contains { $0.request.priority == .alarm })
    }
}
