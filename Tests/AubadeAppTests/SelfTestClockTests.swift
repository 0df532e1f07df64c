import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// The microphone's daily self-test as the running clock runs it (`RoomSelfTest`): a quiet chirp through the one
/// sound engine at `[verify] self_test_hour`, listened for by the room check; the verdict a history line and, while
/// not heard, a status warning — with a fake engine, a `FakeRoomListener` and a manual clock.
@Suite("Daemon decisions: the microphone's daily self-test")
struct SelfTestClockTests {
    static let notHeard = RoomReport(heard: false, reason: "nothing audible was played in 25 s")
    static let heard = RoomReport(heard: true, reason: "the tone's frequencies in 80 of its 120 blocks")

    static func warning(_ rig: ClockRig) async throws -> String? {
        try await rig.status().warnings.first { $0.contains("self-test") }
    }

    @Test func itRunsAtItsHourOnceADayAndTheWarningFollowsTheVerdict() async throws {
        let room = FakeRoomListener()
        let rig = ClockRig(room: room, selfTestHour: 14)
        await rig.start()
        await rig.run(until: ClockRig.at(13, 59, 59))
        #expect(room.calls.isEmpty && rig.sound.played.isEmpty, "nothing before its hour")
        let turn = await rig.advance(to: ClockRig.at(13, 59, 59))
        #expect(turn.wakeAt - turn.now.mono == .seconds(1), "the loop comes back at the hour")

        await rig.run(until: ClockRig.at(14, 0))
        let mono = rig.time.now().mono
        let chirp = try #require(rig.lastPlayed)
        #expect(chirp.paused && chirp.request.content == .tone(.chime) && chirp.request.volume == 40)
        #expect(rig.sound.calls.last == .beginAt(chirp.id, mono + .seconds(2)), "after the room's noise is measured")
        #expect(room.calls == [.arm, .listen(since: mono)])

        _ = try await rig.clock.send(.selfTestHeard(started: ClockRig.at(14, 0), Self.notHeard))
        #expect(rig.history == ["self-test-not-heard"])
        #expect(
            rig.store.history.last?.detail == "not heard in the room: nothing audible was played in 25 s"
                && rig.store.history.last?.alarmID == nil)
        #expect(rig.sound.calls.last == .stop(chirp.id) && room.calls.last == .disarm)
        #expect(try await Self.warning(rig)?.contains(Self.notHeard.reason) == true)
        // A second verdict for the same run changes nothing.
        _ = try await rig.clock.send(.selfTestHeard(started: ClockRig.at(14, 0), Self.heard))
        #expect(rig.history == ["self-test-not-heard"])

        await rig.run(until: ClockRig.at(20, 59))
        #expect(room.listens.count == 1, "not twice a day")
        await rig.run(until: ClockRig.at(14, 0, day: 1))
        #expect(room.listens.count == 2, "the next day at its hour")
        _ = try await rig.clock.send(.selfTestHeard(started: ClockRig.at(14, 0, day: 1), Self.heard))
        #expect(rig.history == ["self-test-not-heard", "self-test-heard"])
        #expect(rig.store.history.last?.detail == "heard in the room: the tone's frequencies in 80 of its 120 blocks")
        #expect(try await Self.warning(rig) == nil, "a self-test that hears its chirp clears the warning")
    }

    @Test func aMicrophoneThatCannotBeOpenedFailsTheSelfTest() async throws {
        let room = FakeRoomListener()
        let rig = ClockRig(room: room, selfTestHour: 9)
        await rig.start()
        await rig.run(until: ClockRig.at(9, 0))
        let gone = RoomReport(heard: nil, reason: "no microphone: hw:1,0 cannot be opened")
        _ = try await rig.clock.send(.selfTestHeard(started: ClockRig.at(9, 0), gone))
        #expect(rig.history == ["self-test-not-heard"] && rig.store.history.last?.detail == gone.reason)
        #expect(try await Self.warning(rig)?.contains(gone.reason) == true)
    }

    @Test func withoutAMicrophoneThereIsNoSelfTest() async throws {
        let rig = ClockRig(selfTestHour: 14)
        await rig.start()
        await rig.run(until: ClockRig.at(15, 0))
        #expect(rig.sound.played.isEmpty && rig.history.isEmpty)
    }

    @Test func whileTheRadioPlaysItWaitsAndRunsOnceTheRadioIsOff() async throws {
        let room = FakeRoomListener()
        let rig = ClockRig(stations: [ClockRig.station(1)], room: room, selfTestHour: 14)
        await rig.start()
        await rig.run(until: ClockRig.at(13, 50))
        _ = try await rig.clock.handle(.sleep(seconds: 1200, source: nil))
        await rig.run(until: ClockRig.at(14, 9))
        #expect(room.calls.isEmpty, "not while the sleep timer plays")
        await rig.run(until: ClockRig.at(14, 15))
        _ = try? await rig.clock.handle(.stopRadio)
        await rig.run(until: ClockRig.at(14, 45))
        #expect(room.listens.count == 1, "run once the radio is off, the same afternoon")
        let chirp = try #require(rig.lastPlayed)
        #expect(chirp.request.content == .tone(.chime))
        // The radio started while a run is under way cancels it, and the microphone is closed.
        await rig.run(until: ClockRig.at(14, 0, day: 1))
        let second = try #require(rig.lastPlayed)
        #expect(second.request.content == .tone(.chime) && second.id != chirp.id)
        _ = try await rig.clock.handle(.play(source: "tone", seconds: 60, volume: nil))
        #expect(rig.sound.calls.contains(.stop(second.id)) && room.calls.last == .disarm)
    }

    @Test func anAlarmThatComesDueCancelsItAndItRunsLater() async throws {
        let room = FakeRoomListener()
        let rig = ClockRig(room: room, selfTestHour: 14)
        await rig.start()
        await rig.run(until: ClockRig.at(14, 0))
        let chirp = try #require(rig.lastPlayed)
        // An alarm set for a minute from now while the chirp is under way.
        _ = try await rig.edit(.addAlarm(AlarmPatch(name: "Nap", time: "14:01", days: "daily")))
        await rig.run(until: ClockRig.at(14, 1))
        #expect(rig.sound.calls.contains(.stop(chirp.id)), "the chirp gives way to the alarm")
        let ring = try #require(rig.lastPlayed)
        #expect(ring.request.priority == .alarm)
        // The cancelled run's verdict is dropped.
        _ = try await rig.clock.send(.selfTestHeard(started: ClockRig.at(14, 0), Self.notHeard))
        #expect(!rig.history.contains("self-test-not-heard"))
        #expect(rig.history.contains("rang"))
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .button))

        await rig.run(until: ClockRig.at(14, 15, 59))
        let before = rig.sound.played.count
        await rig.run(until: ClockRig.at(14, 16))
        #expect(rig.sound.played.count == before + 1, "run again 15 minutes after the alarm")
        _ = try await rig.clock.send(.selfTestHeard(started: ClockRig.at(14, 16), Self.heard))
        #expect(rig.history.last == "self-test-heard")
    }
}

/// The day of the last self-test outlives the clock: it is read back from the history at start.
@Suite("Daemon decisions: the self-test across a restart")
struct SelfTestRestartTests {
    @Test func aClockStartedAgainTheSameAfternoonDoesNotChirpTwiceButDoesTheNextDay() async throws {
        let room = FakeRoomListener()
        let rig = ClockRig(room: room, selfTestHour: 14)
        await rig.start()
        await rig.run(until: ClockRig.at(14, 0))
        _ = try await rig.clock.send(.selfTestHeard(started: ClockRig.at(14, 0), SelfTestClockTests.heard))
        #expect(rig.history == ["self-test-heard"])
        await rig.clock.shutdown()

        // The same store, a new clock at 15:00 the same day.
        let again = FakeRoomListener()
        let time = ManualClock(wall: ClockRig.at(15, 0))
        let restarted = try RunningClockRig(store: rig.store, time: time, room: again, selfTestHour: 14)
        await restarted.start()
        await restarted.run(until: ClockRig.at(20, 59))
        #expect(again.listens.isEmpty, "today's self-test has been run")
        await restarted.run(until: ClockRig.at(14, 0, day: 1))
        #expect(again.listens.count == 1, "the next day at its hour")
    }

    @Test func aRunCutShortByARestartWithoutAVerdictRunsAgain() async throws {
        let room = FakeRoomListener()
        let rig = ClockRig(room: room, selfTestHour: 14)
        await rig.start()
        await rig.run(until: ClockRig.at(14, 0))
        #expect(room.listens.count == 1)
        await rig.clock.shutdown()

        let again = FakeRoomListener()
        let restarted = try RunningClockRig(
            store: rig.store, time: ManualClock(wall: ClockRig.at(14, 5)), room: again, selfTestHour: 14)
        await restarted.start()
        await restarted.run(until: ClockRig.at(14, 6))
        #expect(again.listens.count == 1, "no verdict was recorded, so it runs again")
    }
}
