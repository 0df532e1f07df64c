import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// Inputs while an alarm rings (R15) and the command layer's answers.
@Suite("Daemon decisions: inputs and commands")
struct InputAndCommandTests {
    /// The manual clock's monotonic reading at `wall` (it starts at 1000 s at `ClockRig.morning`).
    static func mono(at wall: Date) -> Duration {
        .seconds(1000) + .seconds(exactly: wall.timeIntervalSince(ClockRig.morning))
    }

    @Test func aStopPressThatBeganBeforeTheAlarmIsIgnoredAndAFreshOneStopsIt() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)])
        await rig.start()
        await rig.run(until: ClockRig.at(7, 0, 2))
        let id = try #require(rig.lastPlayed?.id)
        // Held since a second before the alarm, released now: the same kernel clock says it began before.
        let held = ButtonPanel.Command(
            role: .stop, kind: .long, action: .stop, time: Self.mono(at: ClockRig.at(7, 0, 2)),
            pressedAt: Self.mono(at: ClockRig.at(6, 59, 59)))
        await rig.clock.button(held)
        #expect(try await rig.status().ringing?.id == 1)
        #expect(!rig.sound.calls.contains(.stop(id)))
        let fresh = ButtonPanel.Command(
            role: .stop, kind: .short, action: .stop, time: Self.mono(at: ClockRig.at(7, 0, 2)),
            pressedAt: Self.mono(at: ClockRig.at(7, 0, 1)))
        await rig.clock.button(fresh)
        #expect(rig.sound.calls.last == .stop(id))
        #expect(rig.store.history.last { $0.kind == "dismissed" }?.detail == "by=button")
    }

    @Test func aShakeStopsAShakeToStopAlarmAndSnoozesAnother() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0, shake: true), ClockRig.alarm(2, 8, 0)])
        await rig.start()
        await rig.run(until: ClockRig.at(7, 0))
        await rig.clock.shake()
        #expect(rig.store.data.states.first { $0.alarmID == 1 }?.phase == .idle)
        await rig.run(until: ClockRig.at(8, 0))
        await rig.clock.shake()
        #expect(rig.store.data.states.first { $0.alarmID == 2 }?.phase == .snoozed)
    }

    @Test func aButtonPressDuringTheRadioStopsTheRadioAndPlayPauseStartsTheSleepTimer() async throws {
        let rig = ClockRig(stations: [ClockRig.station(5)])
        await rig.start()
        await rig.clock.button(ButtonPanel.Command(role: .playPause, kind: .short, action: .playPause, time: .seconds(1)))
        let radio = try #require(rig.lastPlayed)
        #expect(radio.request.priority == .radio)
        await rig.clock.button(ButtonPanel.Command(role: .stop, kind: .short, action: .stop, time: .seconds(2)))
        #expect(rig.sound.calls.last == .stop(radio.id))
        #expect(try await rig.status().radio == nil)
    }

    @Test func commandsRefuseWithTheRightKindAndSentence() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)])
        await rig.start()
        await #expect(throws: ClockError(.refused, "No alarm is ringing.")) {
            try await rig.clock.handle(.stop(alarm: nil, by: .cli))
        }
        await #expect(throws: ClockError(.notFound, "Alarm 42 does not exist.")) {
            try await rig.clock.handle(.stop(alarm: 42, by: .cli))
        }
        await #expect(throws: ClockError(.refused, "No alarm can be snoozed now.")) {
            try await rig.clock.handle(.snooze(alarm: nil, by: .api))
        }
        await #expect(throws: ClockError(.invalid, "A sleep timer lasts between 1m and 12h.")) {
            try await rig.clock.handle(.sleep(seconds: 5, source: nil))
        }
        await #expect(throws: ClockError(.refused, "No sleep timer runs.")) { try await rig.clock.handle(.sleepCancel) }
        await #expect(throws: ClockError(.invalid, "Give an alarm id or --source, not both and not neither.")) {
            try await rig.clock.handle(.ring(RingTest(alarm: 1, source: "tone", seconds: 5, volume: nil)))
        }
        await rig.run(until: ClockRig.at(7, 0))
        await #expect(throws: ClockError(.refused, "An alarm is ringing; stop or snooze it first.")) {
            try await rig.clock.handle(.ring(RingTest(alarm: nil, source: "tone", seconds: 5, volume: nil)))
        }
    }

    @Test func aRingTestPlaysTheAlarmPathForItsLength() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0, sound: .station(id: 5))], stations: [ClockRig.station(5)])
        await rig.start()
        let reply = try await rig.clock.handle(.ring(RingTest(alarm: 1, source: nil, seconds: 20, volume: 70)))
        guard case .sound(_, let label, _) = reply else { throw RigError("no sound") }
        #expect(label == "station FIP")
        let played = try #require(rig.lastPlayed)
        #expect(played.request.priority == .alarm && played.request.limit == .seconds(20) && played.request.volume == 70)
        #expect(played.request.fallback?.tone == .classic)
    }

    @Test func aFollowedSoundStreamsItsEventsUntilItStops() async throws {
        let rig = ClockRig(stations: [ClockRig.station(5)])
        await rig.start()
        let (reply, events) = try await rig.clock.handle(.play(source: "FIP", seconds: 10, volume: nil), follow: true)
        guard case .sound(let id, _, _) = reply, let events else { throw RigError("no stream") }
        await rig.engineSays(.stream(id, .connecting(url: "http://radio.example/fip")))
        await rig.engineSays(.stream(SoundID(999), .connecting(url: "elsewhere")))
        await rig.engineSays(.audible(id, source: "station", after: .milliseconds(300)))
        await rig.engineSays(.title(id, "Miles Davis — So What"))
        await rig.engineSays(.stopped(id, .finished))
        var seen: [SoundEvent] = []
        for await event in events { seen.append(event) }
        #expect(
            seen == [
                .stream(id, .connecting(url: "http://radio.example/fip")),
                .audible(id, source: "station", after: .milliseconds(300)),
                .title(id, "Miles Davis — So What"), .stopped(id, .finished),
            ])
    }

    @Test func anAlarmNeverGoesSilentBecauseTheStoreFails() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)])
        await rig.start()
        rig.store.failWrites(with: .sqlite("disk I/O error"))
        await rig.run(until: ClockRig.at(7, 0))
        #expect(try await rig.status().ringing?.id == 1, "R9: a store failure is a warning, never a reason not to ring")
        #expect(rig.sound.calls.contains { if case .begin = $0 { true } else { false } })
        #expect(try await rig.status().warnings.contains { $0.contains("could not be saved") })
    }
}
