import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// The evening-before check of a station alarm: the warning every face shows while its station cannot be
/// reached ("it will start on the tone"), gone once it can, and handed over to the pre-check 5 minutes before.
@Suite("Daemon decisions: looking ahead at tomorrow's station")
struct LookaheadTests {
    @Test func aStationThatCannotBeReachedTheEveningBeforeIsAWarningUntilItCanBe() async throws {
        // 18:00 the evening before a 07:00 station alarm.
        let rig = ClockRig(
            alarms: [ClockRig.alarm(1, 7, 0, sound: .station(id: 5))], stations: [ClockRig.station(5)],
            start: ClockRig.at(18, 0, day: -1))
        rig.precheck.set(PreAlarmCheck.Result(stationProblem: "Pre-alarm check: The station refused the connection."))
        await rig.start()
        await rig.run(until: ClockRig.at(18, 59, day: -1))
        #expect(rig.jobs.count == 0, "13 hours ahead is beyond the look-ahead")
        await rig.run(until: ClockRig.at(19, 0, 30, day: -1))
        #expect(rig.jobs.count == 1, "12 hours before, the station is checked")
        await rig.jobs.runAll()
        let warning =
            "Alarm Alarm 1 at 07:00: Pre-alarm check: The station refused the connection. Unless that changes, it will start on the tone."
        #expect(try await rig.status().warnings.contains(warning))
        #expect(await rig.live().warnings.contains(warning))

        await rig.run(until: ClockRig.at(19, 30, day: -1))
        #expect(rig.jobs.count == 0, "not again within the hour")
        rig.precheck.set(PreAlarmCheck.Result())
        await rig.run(until: ClockRig.at(20, 1, day: -1))
        #expect(rig.jobs.count == 1)
        await rig.jobs.runAll()
        #expect(try await rig.status().warnings.allSatisfy { !$0.hasPrefix("Alarm Alarm 1 at 07:00") })
        #expect(rig.history.isEmpty, "a look-ahead only warns; the history is the pre-check's")
        #expect(rig.precheck.asked.count == 2)
    }

    @Test func theLastResultStandsUntilThePrecheckTakesOver() async throws {
        let rig = ClockRig(
            alarms: [ClockRig.alarm(1, 7, 0, sound: .station(id: 5))], stations: [ClockRig.station(5)],
            start: ClockRig.at(5, 30))
        rig.precheck.set(PreAlarmCheck.Result(stationProblem: "Pre-alarm check: No audio arrived."))
        await rig.start()
        await rig.advance(to: ClockRig.at(5, 30, 1))
        await rig.jobs.runAll()
        #expect(try await rig.status().warnings.count == 1)
        await rig.run(until: ClockRig.at(6, 50))
        #expect(rig.jobs.count == 0, "no look-ahead starts in the last hour")
        #expect(try await rig.status().warnings.count == 1, "the last look-ahead's warning stands")
        await rig.run(until: ClockRig.at(6, 55))
        await rig.jobs.runAll()
        let warnings = try await rig.status().warnings
        #expect(warnings == ["Alarm 1: Pre-alarm check: No audio arrived. It will start on the tone."], "the pre-check's, once")
    }

    @Test func wiFiOnlyOffWiFiIsKnownWithoutTryingTheStation() async throws {
        var settings = AppSettings()
        settings.isWifi = true
        let rig = ClockRig(
            alarms: [ClockRig.alarm(1, 7, 0, sound: .station(id: 5))], stations: [ClockRig.station(5)],
            settings: settings, start: ClockRig.at(21, 0, day: -1), network: ClockRig.wired)
        await rig.start()
        await rig.advance(to: ClockRig.at(21, 0, 1, day: -1))
        await rig.jobs.runAll()
        #expect(rig.precheck.asked.isEmpty)
        let warnings = try await rig.status().warnings
        #expect(warnings.contains { $0.hasPrefix("Alarm Alarm 1 at 07:00:") && $0.contains("eth0") }, "\(warnings)")
    }

    @Test func aToneAlarmIsNotLookedAt() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)], start: ClockRig.at(21, 0, day: -1))
        await rig.start()
        await rig.advance(to: ClockRig.at(21, 0, 1, day: -1))
        #expect(rig.jobs.count == 0)
    }
}
