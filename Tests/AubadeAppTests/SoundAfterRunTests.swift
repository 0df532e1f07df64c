import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import Testing

/// "Vibrate first, sound after" (`--sound-after`) through the real `RunningClock` with `FakeOutputs`, the fake
/// engine and a manual clock: the ring begins at its time with the outputs and no sound, the sound at time + N
/// (pre-rolled 15 s before, so still on its second), the ladder, the microphone and the duration from the sound's start.
@Suite("Daemon decisions: vibrate first, sound after")
struct SoundAfterRunTests {
    static func alarm(_ id: Int64 = 1, after seconds: Int = 60, sound: SoundSource = .station(id: 1)) -> Alarm {
        var a = ClockRig.alarm(id, 7, 0, sound: sound)
        a.soundAfter = .seconds(seconds)
        return a
    }

    @Test func theRingBeginsWithTheOutputsAndNoSoundAndAStopInTheSilentPartEndsItWithNoSoundEver() async throws {
        let outputs = FakeOutputs(available: [.shaker, .lamp])
        let rig = ClockRig(alarms: [Self.alarm()], stations: [ClockRig.station(1)], outputs: outputs)
        await rig.start()
        await rig.run(until: ClockRig.at(7, 0))
        #expect(outputs.isOn(.shaker) && outputs.isOn(.lamp), "the outputs left to the top come on with the ring")
        #expect(rig.sound.played.isEmpty, "no sound, not even a pre-roll, at 07:00")
        let status = try await rig.status()
        #expect(status.ringing?.id == 1, "the clock is ringing: Stop and Snooze work")
        #expect(rig.history.contains("rang"))
        #expect(rig.events.contains("vibrate-first"))
        #expect(await rig.live().ringing != nil, "the kiosk's ringing face")
        await rig.run(until: ClockRig.at(7, 0, 30))
        #expect(rig.sound.played.isEmpty)
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .button))
        #expect(!outputs.isOn(.shaker) && !outputs.isOn(.lamp))
        #expect(try await rig.status().ringing == nil)
        await rig.run(until: ClockRig.at(7, 10))
        #expect(rig.sound.played.isEmpty, "no sound ever: \(rig.sound.calls)")
        #expect(rig.history.contains("dismissed"))
    }

    @Test func theSoundIsPreRolledForItsOwnSecondAndTheLadderCountsFromIt() async throws {
        let outputs = FakeOutputs(available: [.shaker])
        let room = FakeRoomListener()
        let rig = ClockRig(alarms: [Self.alarm()], stations: [ClockRig.station(1)], outputs: outputs, room: room)
        await rig.start()
        await rig.run(until: ClockRig.at(6, 59, 50))
        #expect(rig.sound.played.isEmpty && room.calls.isEmpty, "no pre-roll 15 s before the alarm's time")
        await rig.run(until: ClockRig.at(7, 0, 44))
        #expect(rig.sound.played.isEmpty && outputs.isOn(.shaker))
        #expect(!room.calls.contains { if case .listen = $0 { true } else { false } }, "no listening in the silent part")
        await rig.run(until: ClockRig.at(7, 0, 45))
        let own = try #require(rig.lastPlayed)
        #expect(own.paused, "pre-rolled 15 s before the sound's second")
        let soundMono = try #require(
            rig.sound.calls.compactMap { if case .beginAt(let id, let at) = $0, id == own.id { at } else { nil } }.last)
        await rig.run(until: ClockRig.at(7, 1))
        #expect(rig.sound.calls.contains(.begin(own.id)), "confirmed at 07:01")
        #expect(room.calls == [.arm, .listen(since: soundMono)], "armed at the pre-roll, listening from the sound's start")
        #expect(try await rig.status().ringing?.source.contains("FIP") == true)
        // The clock's ladder: 3 minutes a step from the sound's start, not from the ring's.
        await rig.run(until: ClockRig.at(7, 3, 59))
        #expect(!rig.sound.calls.contains(.volume(own.id, 75)), "not at 07:03")
        await rig.run(until: ClockRig.at(7, 4))
        #expect(rig.sound.calls.last == .volume(own.id, 75), "the louder step at the sound's start + 3 min")
        #expect(rig.store.history.contains { $0.kind == "climbed" && $0.at == ClockRig.at(7, 4) })
    }

    @Test func aSnoozedRingVibratesFirstAgainButALaddersRoundSoundsAtOnce() async throws {
        let outputs = FakeOutputs(available: [.shaker])
        let rig = ClockRig(alarms: [Self.alarm(after: 30, sound: .tone)], outputs: outputs)
        await rig.start()
        await rig.run(until: ClockRig.at(7, 1))
        let first = try #require(rig.lastPlayed?.id)
        _ = try await rig.clock.handle(.snooze(alarm: nil, by: .button))
        #expect(!outputs.isOn(.shaker) && rig.sound.calls.last == .stop(first))
        let played = rig.sound.played.count
        await rig.run(until: ClockRig.at(7, 10))
        #expect(outputs.isOn(.shaker), "the snooze's end: the shaker first")
        #expect(rig.sound.played.count == played, "no sound for 30 s")
        await rig.run(until: ClockRig.at(7, 10, 30))
        #expect(rig.sound.played.count == played + 1, "then the sound")
        // Unanswered from 07:10:30: louder 07:13:30, the tone 07:16:30, the top 07:19:30, a rest of 5 min, then the
        // next round at once, at the top.
        await rig.run(until: ClockRig.at(7, 25, 30))
        #expect(rig.history.contains("rested"), "\(rig.history)")
        let resting = rig.sound.played.count
        await rig.run(until: ClockRig.at(7, 27, 29))
        #expect(rig.sound.played.count == resting)
        await rig.run(until: ClockRig.at(7, 27, 30))
        #expect(rig.sound.played.count > resting, "the round after the rest sounds at once: \(rig.history)")
        #expect(rig.history.last == "climbed" && rig.history.contains("snooze-ended"))
    }

    @Test func withoutAnOutputTheSoundStartsAtOnceAndTheClockSaysWhy() async throws {
        let rig = ClockRig(alarms: [Self.alarm(sound: .tone)])
        await rig.start()
        await rig.run(until: ClockRig.at(7, 0))
        #expect(rig.lastPlayed != nil, "never a silent alarm")
        #expect(
            rig.store.history.contains { $0.kind == "warning" && $0.detail.contains("no shaker or lamp") },
            "\(rig.store.history.map(\.detail))")
        #expect(try await rig.status().warnings.contains { $0.contains("no shaker or lamp") })
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .button))
        #expect(try await rig.status().warnings.allSatisfy { !$0.contains("no shaker or lamp") })
    }

    /// Across the pre-roll's edge (N under, at and over 15 s, up to 10 min) and with a Stop before, at or after the
    /// sound: nothing the engine is told begins before 07:00 + N (a pre-roll is paused, its instant 07:00 + N); unless
    /// stopped first, the sound begins then; the shaker is on from 07:00; a Stop before the sound leaves none ever.
    @Test(arguments: [1, 5, 14, 15, 16, 45, 60, 599, 600], [-1, 0, 1])
    func theEngineNeverBeginsTheSoundBeforeItsTimePlusN(seconds: Int, stopAroundSound: Int) async throws {
        let outputs = FakeOutputs(available: [.shaker])
        let rig = ClockRig(alarms: [Self.alarm(after: seconds, sound: .tone)], outputs: outputs)
        await rig.start()
        await rig.run(until: ClockRig.at(7, 0))
        #expect(outputs.isOn(.shaker), "N=\(seconds): on from the ring")
        let soundAt = ClockRig.at(7, 0).addingTimeInterval(TimeInterval(seconds))
        let stopAt = soundAt.addingTimeInterval(TimeInterval(stopAroundSound))
        func begun() -> [FakeSound.Call] {
            rig.sound.calls.filter {
                switch $0 {
                case .begin: true
                case .play(_, _, let paused): !paused
                default: false
                }
            }
        }
        if stopAroundSound < 0 {
            await rig.run(until: stopAt)
            #expect(begun().isEmpty, "N=\(seconds): nothing before 07:00 + N")
            _ = try await rig.clock.handle(.stop(alarm: nil, by: .button))
            await rig.run(until: soundAt.addingTimeInterval(60))
            #expect(begun().isEmpty && !outputs.isOn(.shaker), "N=\(seconds): stopped in the silent part, no sound ever")
            let made = rig.sound.played.map(\.id)
            #expect(made.allSatisfy { rig.sound.calls.contains(.stop($0)) }, "a pre-roll made is stopped")
            return
        }
        await rig.run(until: soundAt.addingTimeInterval(-0.001))
        #expect(begun().isEmpty, "N=\(seconds): nothing before 07:00 + N")
        let preroll = rig.sound.played.last
        let told = rig.sound.calls.compactMap { if case .beginAt(_, let at) = $0 { at } else { nil } }
        await rig.run(until: soundAt)
        let mono = rig.time.now().mono
        #expect(!begun().isEmpty, "N=\(seconds): the sound at 07:00 + N")
        if let preroll {
            #expect(preroll.paused && told.last == mono, "N=\(seconds): pre-rolled for its own second")
        }
        await rig.run(until: stopAt)
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .button))
        #expect(!outputs.isOn(.shaker))
    }
}
