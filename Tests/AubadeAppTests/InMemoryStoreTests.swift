import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// The clock over the in-memory store (`MemoryClockStore`), which carries out edits as the SQLite store does
/// (their parity is checked against a real file in AubadeDaemonTests), and a store that takes no changes.
@Suite("Command layer over the in-memory store")
struct InMemoryStoreTests {
    @Test func aStoreThatTakesNoChangesRefusesEditsInOneSentence() async throws {
        let rig = ClockRig()
        await rig.start()
        rig.store.refuseChanges("The clock runs from the backup copy of the schedule; changes are not saved.")
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
