import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// The radio beside the alarms: the sleep timer, listening, reserved programmes — and how each gives way to
/// an alarm (R14) and reports what it really does.
@Suite("Daemon decisions: radio, sleep timer, reservations")
struct RadioTests {
    static let fip = ClockRig.station(5)

    @Test func anAlarmPreemptsTheSleepTimerAndTheTimerIsRefusedWhileItRings() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)], stations: [Self.fip])
        await rig.start()
        let reply = try await rig.clock.handle(.sleep(seconds: 1800, source: nil))
        guard case .sound(let radio, let label, _) = reply else { throw RigError("no sound: \(reply)") }
        #expect(label == "FIP")
        #expect(rig.lastPlayed?.request.priority == .radio && rig.lastPlayed?.request.content == .stations(Self.fip.addresses))
        await rig.run(until: ClockRig.at(7, 0))
        #expect(rig.sound.calls.contains(.stop(radio)))
        #expect(rig.store.history.contains { $0.kind == "sleep-ended" && $0.detail == "stopped by alarm 1" })
        #expect(try await rig.status().radio == nil)
        await #expect(throws: ClockError(.refused, SleepTimer.refusedWhileAlarmRings)) {
            try await rig.clock.handle(.sleep(seconds: 600, source: nil))
        }
    }

    @Test func aSleepTimerWhoseStationCannotPlayIsShownNotPlaying() async throws {
        let rig = ClockRig(stations: [Self.fip])
        await rig.start()
        guard case .sound(let id, _, _) = try await rig.clock.handle(.sleep(seconds: 1800, source: "FIP")) else {
            throw RigError("no sound")
        }
        #expect(try await rig.status().radio?.state == "connecting")
        await rig.engineSays(.stream(id, .error("The station's host name does not resolve (http://radio.example/fip).")))
        var radio = try #require(try await rig.status().radio)
        #expect(radio.state == "not playing" && radio.problem?.contains("does not resolve") == true)
        #expect(try await rig.status().lines.contains { $0.contains("not playing: The station's host name does not resolve") })
        await rig.engineSays(.audible(id, source: "station", after: .seconds(3)))
        radio = try #require(try await rig.status().radio)
        #expect(radio.state == "playing" && radio.problem == nil)
        await rig.engineSays(.stopped(id, .failed("The station answered HTTP 404.")))
        #expect(try await rig.status().radio == nil)
        #expect(rig.store.history.last?.detail == "the station failed: The station answered HTTP 404.")
    }

    @Test func theSleepTimerFadesOutAndEnds() async throws {
        var settings = AppSettings()
        settings.sleepVolume = 30
        settings.sleepFadeSeconds = 60
        let rig = ClockRig(stations: [Self.fip], settings: settings)
        await rig.start()
        guard case .sound(let id, _, let message) = try await rig.clock.handle(.sleep(seconds: 180, source: nil)) else {
            throw RigError("no sound")
        }
        #expect(message == "Sleep timer: FIP for 3m, fading out over its last 1m.")
        await rig.run(until: ClockRig.morning.addingTimeInterval(150))
        #expect(rig.sound.calls.contains(.volume(id, 15)), "half way through the fade, half the volume")
        #expect(!rig.sound.calls.contains(.stop(id)))
        await rig.run(until: ClockRig.morning.addingTimeInterval(180))
        #expect(rig.sound.calls.last == .stop(id))
        #expect(rig.store.history.last?.detail == "timer ended")
    }

    @Test func aShortSleepTimerSaysHowLongItReallyFades() async throws {
        let rig = ClockRig(stations: [Self.fip])
        await rig.start()
        let reply = try await rig.clock.handle(.sleep(seconds: 60, source: nil))
        #expect(reply.message == "Sleep timer: FIP for 1m, fading out over its last 30s.")
    }

    @Test func aReservedProgrammeChimesOverTheRadioThenTunesToItsStation() async throws {
        let show = Programme(
            id: 9, name: "Morning Jazz", begin: try LocalTime(hour: 7, minute: 30),
            end: try LocalTime(hour: 8, minute: 0), reserved: true, stationID: 5)
        let rig = ClockRig(stations: [Self.fip], programmes: [show], start: ClockRig.at(7, 20))
        await rig.start()
        await rig.run(until: ClockRig.at(7, 30))
        let chime = try #require(rig.lastPlayed)
        #expect(chime.request.priority == .chime && chime.request.content == .tone(.chime) && chime.request.limit == .seconds(3))
        #expect(rig.store.history.last?.detail == "Morning Jazz on FIP")
        await rig.engineSays(.stopped(chime.id, .finished))
        let tuned = try #require(rig.lastPlayed)
        #expect(tuned.request.priority == .radio && tuned.request.content == .stations(Self.fip.addresses))
        #expect(rig.events.contains("tuned"))
        #expect(try await rig.status().radio?.kind == "reserved programme Morning Jazz")
    }

    @Test func aReservationIsNotTunedWhileAnAlarmRings() async throws {
        let show = Programme(
            id: 9, name: "News", begin: try LocalTime(hour: 7, minute: 1),
            end: try LocalTime(hour: 7, minute: 30), reserved: true, stationID: 5)
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)], stations: [Self.fip], programmes: [show])
        await rig.start()
        await rig.run(until: ClockRig.at(7, 1))
        #expect(rig.sound.played.allSatisfy { $0.request.priority == .alarm })
        #expect(rig.store.history.last { $0.kind == "reservation-started" }?.detail == "News: not tuned, an alarm is ringing")
    }

    @Test func listeningGoesThroughTheEngineAtRadioPriority() async throws {
        let rig = ClockRig(stations: [Self.fip])
        await rig.start()
        let reply = try await rig.clock.handle(.play(source: "tone:rising", seconds: 5, volume: 40))
        guard case .sound(_, let label, _) = reply else { throw RigError("no sound") }
        #expect(label == "tone:rising")
        #expect(rig.lastPlayed?.request == .tone(.rising, priority: .radio, volume: 40, limit: .seconds(5)))
        _ = try await rig.clock.handle(.play(source: "FIP", seconds: nil, volume: nil))
        #expect(rig.lastPlayed?.request.content == .stations(Self.fip.addresses))
        await #expect(throws: ClockError.self) {
            try await rig.clock.handle(.play(source: "Nowhere FM", seconds: nil, volume: nil))
        }
        await #expect(throws: ClockError(.invalid, "Volume 0 is out of range; use 1 to 100.")) {
            try await rig.clock.handle(.play(source: "FIP", seconds: nil, volume: 0))
        }
    }

    @Test func theVolumeButtonsMoveTheRadioAndNeverAnAlarm() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)], stations: [Self.fip])
        await rig.start()
        guard case .sound(let id, _, _) = try await rig.clock.handle(.sleep(seconds: 1800, source: nil)) else {
            throw RigError("no sound")
        }
        await rig.clock.button(ButtonPanel.Command(role: .volumeUp, kind: .short, action: .volumeUp, time: .seconds(1)))
        #expect(rig.sound.calls.last == .volume(id, 40))
        await rig.run(until: ClockRig.at(7, 0))
        let calls = rig.sound.calls.count
        await rig.clock.button(ButtonPanel.Command(role: .volumeUp, kind: .short, action: .volumeUp, time: .seconds(700)))
        #expect(rig.sound.calls.count == calls, "the alarm keeps its own level (R18)")
    }
}
