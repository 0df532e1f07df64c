import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// An alarm on its second: the clock tells the engine the monotonic instant of the second at the pre-roll, moves
/// it when the wall clock steps, takes back a sound a step put out of reach, and records the onset the engine
/// measured — in the history, the status and the morning report — even when the engine says it before the
/// scheduler's own turn at the second.
@Suite("Daemon decisions: the alarm on its second")
struct OnsetTests {
    /// The instant the engine was told to begin `id` at, last.
    static func instant(of id: SoundID, in rig: ClockRig) -> MonotonicInstant? {
        rig.sound.calls.compactMap { call -> MonotonicInstant? in
            if case .beginAt(id, let at) = call { return at } else { return nil }
        }.last
    }

    @Test func thePreRollTellsTheEngineTheMonotonicInstantOfTheSecond() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)])
        await rig.start()
        await rig.run(until: ClockRig.at(6, 59, 50))
        let prepared = try #require(rig.sound.played.first)
        let now = rig.time.now()
        let told = try #require(Self.instant(of: prepared.id, in: rig))
        #expect(told == now.mono + .seconds(10), "the second is 10 s ahead on both clocks")
        #expect(rig.journal.first("sound.begin-at \(prepared.id.value)") != nil)

        await rig.run(until: ClockRig.at(7, 0))
        #expect(
            rig.sound.calls.last == .begin(prepared.id), "the scheduler's turn confirms it (or begins it if the engine could not)"
        )
        #expect(rig.sound.calls.filter { if case .beginAt = $0 { true } else { false } }.count == 1)
    }

    @Test func aWallClockStepBetweenThePreRollAndTheSecondMovesTheInstant() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)])
        await rig.start()
        await rig.run(until: ClockRig.at(6, 59, 48))
        let prepared = try #require(rig.sound.played.first)
        let first = try #require(Self.instant(of: prepared.id, in: rig))
        // NTP sets the clock 3 s forward (too little for the history's clock-step line): 07:00 is now 3 s sooner on
        // the monotonic clock.
        rig.time.stepWall(by: 3)
        _ = await rig.clock.tick()
        let moved = try #require(Self.instant(of: prepared.id, in: rig))
        #expect(first - moved == .seconds(3))
        #expect(!rig.sound.calls.contains(.stop(prepared.id)), "the same sound, at its new instant")
    }

    @Test func aStepBackBeyondThePreRollTakesTheSoundBack() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)])
        await rig.start()
        await rig.run(until: ClockRig.at(6, 59, 50))
        let prepared = try #require(rig.sound.played.first)
        // The clock was an hour fast: 07:00 is an hour away again; the engine must not sound it in 10 s.
        rig.time.stepWall(by: -3600)
        _ = await rig.clock.tick()
        #expect(rig.sound.calls.contains(.stop(prepared.id)))
        #expect(try await rig.status().ringing == nil)
        // An hour later it is pre-rolled again, for the same second on the new time.
        await rig.run(until: ClockRig.at(6, 59, 50))
        let again = try #require(rig.sound.played.last)
        #expect(again.id != prepared.id && again.paused)
        #expect(Self.instant(of: again.id, in: rig) == rig.time.now().mono + .seconds(10))
    }

    @Test func anOnsetSaidBeforeTheSchedulersTurnIsRecordedOnceItRings() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)])
        await rig.start()
        await rig.run(until: ClockRig.at(6, 59, 59).addingTimeInterval(0.9))
        let prepared = try #require(rig.sound.played.first)
        // The engine began it on the second by itself and measured its first frame 3 ms late, before the clock's
        // timer for 07:00 fired.
        await rig.engineSays(.onset(prepared.id, late: .microseconds(3_200), timing: .device))
        #expect(!rig.history.contains("onset"), "not an alarm run yet")
        await rig.run(until: ClockRig.at(7, 0))
        let rang = try #require(rig.history.firstIndex(of: "rang"))
        let onset = try #require(rig.history.firstIndex(of: "onset"))
        #expect(rang < onset)
        #expect(rig.store.history.last { $0.kind == "onset" }?.detail == "late_ms=3 by=device")
        let status = try await rig.status()
        #expect(status.ringing?.onsetMilliseconds == 3.2)
        #expect(status.lines.first?.contains("first sound 3 ms after its second") == true)

        _ = try await rig.clock.handle(.stop(alarm: nil, by: .cli))
        let report = try await rig.status().report
        #expect(report.contains { $0.contains("rang on time") && $0.contains("first sound 3 ms after its second") }, "\(report)")
    }

    @Test func ofAlarmsDueAtTheSameSecondOnlyTheOneThatSoundsIsGivenToTheEngine() async throws {
        // R38: alarms 1 and 2 at 07:00 ring as one group with alarm 2's sound; the engine begins a pre-rolled sound
        // by itself, so alarm 1's must not be pre-rolled at all.
        let rig = ClockRig(
            alarms: [ClockRig.alarm(1, 7, 0), ClockRig.alarm(2, 7, 0, sound: .station(id: 5))], stations: [ClockRig.station(5)])
        await rig.start()
        await rig.run(until: ClockRig.at(6, 59, 50))
        #expect(rig.sound.played.count == 1)
        let prepared = try #require(rig.sound.played.first)
        #expect(prepared.request.content != .tone(.classic), "alarm 2's station, not alarm 1's tone")
        #expect(Self.instant(of: prepared.id, in: rig) != nil)
        await rig.run(until: ClockRig.at(7, 0))
        #expect(rig.sound.calls.last == .begin(prepared.id))
        #expect(!rig.sound.calls.contains(.stop(prepared.id)))
        #expect(try await rig.status().ringing?.id == 2)
    }

    @Test func theMorningReportSaysEarlyLateAndOnTheSecond() {
        #expect(MorningReport.onsetPhrase(.microseconds(400)) == "first sound on its second")
        #expect(MorningReport.onsetPhrase(.milliseconds(-7)) == "first sound 7 ms before its second")
        #expect(MorningReport.onsetPhrase(.milliseconds(1_250)) == "first sound 1.2 s after its second")
        #expect(HistoryDetail.onset(late: .microseconds(-2_600), timing: .delay) == "late_ms=-3 by=delay")
        #expect(HistoryDetail.onsetLate(in: "late_ms=-3 by=delay") == .milliseconds(-3))
        #expect(HistoryDetail.onsetLate(in: "after_ms=40") == nil)
    }
}
