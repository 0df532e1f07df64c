import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// R7: while the kernel says the system clock is not synchronised, every face says so — and the alarm still
/// rings, by the time the machine believes.
@Suite struct UnsynchronisedClockTests {
    @Test func anUnsynchronisedClockIsAWarningEverywhereAndTheAlarmStillRings() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)], synchronised: false)
        await rig.start()

        let status = try await rig.status()
        #expect(status.clockSynchronised == false)
        #expect(status.lines.contains("Warning: \(DaemonStatus.notSynchronised)"))
        var updates = await rig.clock.liveUpdates().makeAsyncIterator()
        let live = try #require(await updates.next())
        #expect(live.warnings.first == DaemonStatus.notSynchronised, "\(live.warnings)")

        await rig.run(until: ClockRig.at(6, 56))
        await rig.jobs.runAll()
        #expect(rig.history == ["precheck-passed", "warning"], "the pre-check says so in the history")
        #expect(rig.store.history.last?.detail.contains("not synchronised") == true)

        await rig.run(until: ClockRig.at(7, 0))
        let sound = try #require(rig.sound.played.first)
        #expect(rig.sound.calls.last == .begin(sound.id), "nothing holds the alarm back")
        #expect(try await rig.status().ringing?.id == 1)
    }
}
