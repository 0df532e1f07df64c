import AubadeCore
import AubadeTesting
import Foundation
import Synchronization
import Testing

@testable import AubadeAudio

/// The one sound engine through the real alsa-lib `file` plugin, paced at real time like a sound card, against
/// the fault server on 127.0.0.1: the supervised alarm sound (R16–R18) and the engine's priorities (R13, R14).
@Suite("Sound engine: alarms, supervision and priorities", .serialized)
struct SoundEngineTests {
    /// Dominant of the stream's 440 Hz and the tone's 880 Hz in a window starting at `second` (card time).
    static func sounds440(_ pcm: [Int16], at second: Double) -> Bool {
        let from = min(pcm.count, Int(second * 44_100) * 2)
        let mono = Signal.left(Array(pcm[from..<min(pcm.count, from + 8820)]))
        return !mono.isEmpty && Signal.power(at: 440, mono) > 100 * Signal.power(at: 880, mono)
    }

    static func sounds880(_ pcm: [Int16], from second: Double, seconds: Double) -> Bool {
        let from = min(pcm.count, Int(second * 44_100) * 2)
        let mono = Signal.left(Array(pcm[from..<min(pcm.count, from + Int(seconds * 44_100) * 2)]))
        return !mono.isEmpty && Signal.power(at: 880, mono) > 100 * Signal.power(at: 440, mono)
    }

    static func ring(
        _ stations: [String], seconds: Double, pre: String? = nil, volume: Int = 100,
        fadeIn: Duration = .zero, in dir: TemporaryDirectory
    ) async throws -> EnginePlay.Run {
        let rig = EnginePlay(in: dir)
        return await rig.play(
            try EnginePlay.alarm(stations, seconds: seconds, pre: pre, volume: volume, fadeIn: fadeIn),
            prepare: true)
    }

    // MARK: Supervision (R16–R18), as the alarm sound always had

    @Test func aPreRolledStationIsHeardFromTheAlarmSecond() async throws {
        let f = try await CurlTransferTests.Fixture()
        let run = try await Self.ring([f.base + "/fast"], seconds: 3, in: f.dir)
        // Begun at `ready`: the station's audio is already decoded, so the card's very first frames are it.
        #expect(run.index { if case .ready = $0 { true } else { false } } < run.index { $0.isAudible })
        let audible = try #require(run.first { $0.isAudible("station") })
        let first = Signal.windows(run.pcm).first?.samples ?? []
        #expect(Signal.isTone(440, over: 880, in: first), "the card's first 100 ms: \(Signal.rmsDBFS(first)) dBFS")
        #expect(Signal.longestSilence(run.pcm) == 0)
        figure("engine: pre-rolled station audible after", audible.0.audibleAfter)
        #expect(!run.events.contains { $0.isFallback })
        #expect(run.pcm.count == 2 * 3 * 44_100, "exactly the requested length reached the card")
        #expect(Self.sounds440(run.pcm, at: 1.0) && Self.sounds440(run.pcm, at: 2.5))
        #expect(run.events.last?.end == .finished)
        #expect(run.opens == 1)
    }

    @Test func aRefusedStationFallsBackToTheToneAtOnce() async throws {
        let dir = try TemporaryDirectory("engine")
        let run = try await Self.ring(["http://127.0.0.1:9/radio"], seconds: 3, in: dir)
        let fallback = try #require(run.first { $0.isFallback })
        guard case .fallback(_, let from, let to, let reason) = fallback.0 else { return }
        #expect(from == "station" && to == "tone")
        // Knowable at once: the refusal itself is the reason, not 10 s of silence; on the card, the tone
        // within its first two seconds (card time).
        #expect(reason.lowercased().contains("refused") || reason.lowercased().contains("connect"), "\(reason)")
        let heardTone = Signal.firstHeard(880, over: 440, in: run.pcm)
        let tone = try #require(heardTone)
        #expect(tone < 2.0, "the tone started at \(tone) s of card time")
        figure("engine: fallback from a refused station after", seconds: fallback.1)
        #expect(run.index { $0.isFallback } < run.index { $0.isAudible("tone") })
        #expect(Self.sounds880(run.pcm, from: 2.0, seconds: 1.0))
        #expect(Signal.rmsDBFS(run.pcm[(2 * 44_100 * 2)...]) > -20)  // the tone is loud (R18)
    }

    @Test func aWebPageFallsBackThroughTheAlternateStation() async throws {
        let f = try await CurlTransferTests.Fixture()
        let run = try await Self.ring([f.base + "/html", f.base + "/fast"], seconds: 5, in: f.dir)
        #expect(
            run.events.contains { event in
                if case .fallback(_, "station", "alternate station", "The station sent a web page, not audio.") = event {
                    true
                } else {
                    false
                }
            })
        #expect(run.events.contains { $0.isAudible("alternate station") })
        #expect(run.index { $0.isFallback } < run.index { $0.isAudible })
        #expect(Signal.firstHeard(440, over: 880, in: run.pcm) != nil)
        #expect(Self.sounds440(run.pcm, at: 4.7))
    }

    @Test func aStallWhileRingingNeverLeavesTheCardSilentForMoreThanTenSeconds() async throws {
        let f = try await CurlTransferTests.Fixture()
        // About 4 s of audio (verified), then nothing until the fetcher notices the stall (10 s after the last
        // byte) and reconnects. The promise is measured on the card: no stretch below −40 dBFS longer than 10 s
        // (plus one 2-s verification window of slack), in card time, which a busy machine cannot stretch.
        let run = try await Self.ring([f.base + "/stall?after=64000"], seconds: 20, in: f.dir)
        _ = try #require(run.first { $0.isAudible("station") })
        let longest = Signal.longestSilence(run.pcm)
        #expect(longest > 3, "the stall should leave a gap before anything steps in (\(longest) s)")
        #expect(longest <= 10.5, "the card was silent for \(longest) s")
        figure("engine: longest silence on the card through a stall", seconds: longest)
    }

    @Test func aShortBurstIsNotVerifiedAudio() async throws {
        let f = try await CurlTransferTests.Fixture()
        // One second of audio, then a stall: never 2 s of audio on the card, so the tone by 10 s after the start.
        let run = try await Self.ring([f.base + "/stall?after=16000"], seconds: 12, in: f.dir)
        #expect(!run.events.contains { $0.isAudible("station") })
        let fallback = try #require(run.first { $0.isFallback })
        guard case .fallback(_, "station", "tone", "No audio from the station within 10 s.") = fallback.0 else {
            Issue.record("unexpected \(fallback.0)")
            return
        }
        #expect(fallback.1 >= 9.5, "R16 gives the station 10 s; fell back at \(fallback.1) s")
        let heardStation = Signal.firstHeard(440, over: 880, in: run.pcm)
        let station = try #require(heardStation)
        let heardTone = Signal.firstHeard(880, over: 440, in: run.pcm)
        let tone = try #require(heardTone)
        #expect(station < tone && tone <= 10.5, "the burst at \(station) s, the tone at \(tone) s of card time")
    }

    @Test func aFailedPreCheckStartsOnTheToneAndTheStationReturnsAfterFifteenSeconds() async throws {
        let f = try await CurlTransferTests.Fixture()
        let run = try await Self.ring([f.base + "/fast"], seconds: 22, pre: "The pre-alarm check failed.", in: f.dir)
        guard case .fallback(_, "station", "tone", "The pre-alarm check failed.")? = run.events.first(where: { $0.isFallback })
        else {
            Issue.record("no pre-selected fallback: \(run.events)")
            return
        }
        let first = Signal.windows(run.pcm).first?.samples ?? []
        #expect(Signal.isTone(880, over: 440, in: first), "the card's first 100 ms: \(Signal.rmsDBFS(first)) dBFS")
        #expect(Self.sounds880(run.pcm, from: 0.0, seconds: 1.6))
        let recovered = try #require(run.first { if case .recovered(_, "station") = $0 { true } else { false } })
        #expect(recovered.1 >= 14.5, "R16: the station returns only after 15 s of good audio; at \(recovered.1) s")
        #expect(run.index { $0.isFallback } < run.index { if case .recovered = $0 { true } else { false } })
        #expect(Self.sounds440(run.pcm, at: 21.7))
    }

    @Test func theFadeInStartsAudible() async throws {
        let f = try await CurlTransferTests.Fixture()
        let run = try await Self.ring([f.base + "/fast"], seconds: 2, volume: 80, fadeIn: .seconds(30), in: f.dir)
        // The sine is ≈ −9 dBFS; volume 80 fades in from 40 (−24 dB): about −33 dBFS, above −40 (audible).
        let firstAudio = try #require(run.pcm.firstIndex { $0 != 0 })
        let window = run.pcm[firstAudio..<(firstAudio + 8820)]
        #expect(Signal.rmsDBFS(window) > -40)
        #expect(Signal.rmsDBFS(window) < Signal.rmsDBFS(run.pcm[(run.pcm.count - 8820)...]) + 0.1)
    }

    @Test func aDeviceThatCannotBeOpenedIsReportedAndTheSoundStillEndsAtItsLimit() async throws {
        let dir = try TemporaryDirectory("engine")
        let rig = EnginePlay(in: dir, device: "hw:99,0")
        let run = await rig.play(try EnginePlay.alarm([], seconds: 3), prepare: true)
        guard case .deviceFailed(let message)? = run.events.first else {
            Issue.record("expected a device failure first, got \(run.events)")
            return
        }
        #expect(message.contains("hw:99,0"))
        #expect(!run.events.contains { $0.isAudible })
        #expect(run.events.last?.end == .finished, "a sound that is never heard still ends at its limit")
    }

    @Test func aBrokenFirstMetadataBlockNeverSendsTheAlarmToTheTone() async throws {
        let f = try await CurlTransferTests.Fixture()
        // The very first ICY block announces the 4080-byte maximum and 100 KB of title follow (the fault battery's
        // case): titles go off and the audio plays on from the first second (R23) — it is no reason to leave the
        // station. (The 2-s test file is served 10 times over: a station long enough to verify.)
        let run = try await Self.ring([f.base + "/mp3-icy?metaint=8192&block=@100000&repeat=10"], seconds: 8, in: f.dir)
        #expect(run.events.contains { if case .metadataOff? = $0.stream { true } else { false } })
        #expect(!run.events.contains { $0.isFallback }, "\(run.events)")
        #expect(run.events.contains { $0.isAudible("station") })
        let heardStation = Signal.firstHeard(440, over: 880, in: run.pcm)
        let station = try #require(heardStation)
        #expect(station < 1.0, "the station's audio from its first second (card time \(station) s)")
        #expect(Signal.firstHeard(880, over: 440, in: run.pcm) == nil, "the tone never played")
    }

    // MARK: The engine's priorities (R13, R14) and one device for every sound

    @Test func anAlarmPreemptsTheRadioWithoutReopeningTheDevice() async throws {
        let f = try await CurlTransferTests.Fixture()
        let rig = EnginePlay(in: f.dir)
        let radio = rig.engine.play(try EnginePlay.radio(f.base + "/fast", seconds: nil), paused: false)
        let alarm = Shared<SoundID?>(nil)
        // Once the radio has been heard for a while, the alarm (the tone) comes.
        let run = await rig.collect(until: radio, keepRunning: true) { event, engine, _ in
            if case .audible(radio, _, _) = event {
                alarm.set(engine.play(try! EnginePlay.alarm([], seconds: 3), paused: false))
            }
        }
        #expect(
            run.events.last?.end.map { if case .preempted = $0 { true } else { false } } == true,
            "\(run.events.last.map(String.init(describing:)) ?? "")")
        #expect(run.opens == 1, "one device for the radio and the alarm: no close and reopen between them")
        let alarmID = try #require(alarm.get())
        let ended = await rig.collect(until: alarmID)
        #expect(ended.opens == 1)
        // On the card: the radio's 440 Hz, then the tone's 880 Hz, with no gap between them.
        let pcm = Signal.samples(rig.card)
        let heardStation = Signal.firstHeard(440, over: 880, in: pcm), heardTone = Signal.firstHeard(880, over: 440, in: pcm)
        let station = try #require(heardStation), tone = try #require(heardTone)
        #expect(station < tone)
        let handOver = Array(pcm[max(0, Int((tone - 0.3) * 44_100) * 2)..<min(pcm.count, Int((tone + 0.3) * 44_100) * 2)])
        #expect(Signal.longestSilence(handOver) == 0, "silence at the hand-over")
    }

    @Test func theRadioAndChimesAreRefusedWhileAnAlarmSounds() async throws {
        let dir = try TemporaryDirectory("engine")
        let rig = EnginePlay(in: dir)
        let alarm = rig.engine.play(try EnginePlay.alarm([], seconds: 2), paused: false)
        let refused = Shared<[SoundID]>([])
        let run = await rig.collect(until: alarm) { event, engine, _ in
            if case .audible(alarm, _, _) = event {
                refused.set([
                    engine.play(.tone(.chime, priority: .radio, volume: 50), paused: false),
                    engine.play(.tone(.chime, priority: .chime, volume: 50, limit: .seconds(1)), paused: false),
                ])
            }
        }
        let ids = refused.get()
        for id in ids {
            #expect(
                run.events.contains { if case .stopped(id, .failed(let why)) = $0 { why.contains("alarm") } else { false } },
                "\(id) must be refused while the alarm sounds")
        }
        #expect(run.events.last?.end == .finished, "the alarm was never interrupted")
    }

    @Test func aNewAlarmReplacesTheSoundingOneWithoutASilentMoment() async throws {
        let f = try await CurlTransferTests.Fixture()
        let rig = EnginePlay(in: f.dir)
        let first = rig.engine.play(try EnginePlay.alarm([f.base + "/fast"], seconds: 30), paused: false)
        let second = Shared<SoundID?>(nil)
        let run = await rig.collect(until: first, keepRunning: true) { event, engine, _ in
            if case .audible(first, _, _) = event {
                second.set(engine.play(try! EnginePlay.alarm([], seconds: 2), paused: false))
            }
        }
        let next = try #require(second.get())
        #expect(run.events.last?.end == .replaced(by: next))
        _ = await rig.collect(until: next)
        let pcm = Signal.samples(rig.card)
        let heardTone = Signal.firstHeard(880, over: 440, in: pcm)
        let tone = try #require(heardTone)
        let handOver = Array(pcm[max(0, Int((tone - 0.3) * 44_100) * 2)..<min(pcm.count, Int((tone + 0.3) * 44_100) * 2)])
        #expect(Signal.longestSilence(handOver) == 0, "R13: no silent moment between two alarms")
    }

    @Test func aChimeSoundsOverTheRadioWhichDipsBeneathIt() async throws {
        let f = try await CurlTransferTests.Fixture()
        let rig = EnginePlay(in: f.dir)
        let radio = rig.engine.play(try EnginePlay.radio(f.base + "/fast", seconds: 6), paused: false)
        let chime = Shared<SoundID?>(nil)
        let run = await rig.collect(until: radio) { event, engine, _ in
            if case .audible(radio, _, _) = event {
                chime.set(engine.play(.tone(.chime, priority: .chime, volume: 90, limit: .seconds(2)), paused: false))
            }
        }
        let chimeID = try #require(chime.get())
        #expect(run.events.contains(.stopped(chimeID, .finished)))
        #expect(run.events.last?.end == .finished, "the radio played on under the chime")
        // During the chime both are on the card: the radio's 440 Hz and the chime's first note, 659 Hz.
        let pcm = run.pcm
        let heardChime = Signal.firstHeard(659.25, over: 1500, in: pcm)
        let chimeStart = try #require(heardChime)
        let during = Signal.left(Array(pcm[Int(chimeStart * 44_100) * 2..<min(pcm.count, Int((chimeStart + 0.2) * 44_100) * 2)]))
        #expect(Signal.power(at: 440, during) > 0 && Signal.power(at: 659.25, during) > 0)
        #expect(run.opens == 1)
    }
}

/// A value a test's event handler sets and the test reads after. Thread-safe.
final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func set(_ new: Value) { value.withLock { $0 = new } }
    func get() -> Value { value.withLock { $0 } }
}
