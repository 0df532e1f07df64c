@testable import AubadeAudio
import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// The supervised alarm sound (R16–R18) through the real alsa-lib `file` plugin, paced at real time like a
/// sound card, against the fault server on 127.0.0.1.
@Suite("Alarm sound: supervision and fallback", .serialized)
struct AlarmSoundTests {
    struct Run {
        var events: [AlarmSoundEvent]
        var pcm: [Int16]
        /// Seconds from `begin` to each event.
        var times: [Double]

        func first(_ match: (AlarmSoundEvent) -> Bool) -> (AlarmSoundEvent, Double)? {
            guard let i = events.firstIndex(where: match) else { return nil }
            return (events[i], times[i])
        }
    }

    static func ring(_ stations: [String], seconds: Double, pre: String? = nil, volume: Int = 100,
                     fadeIn: Duration = .zero, device: String? = nil, in dir: TemporaryDirectory) async throws -> Run {
        let out = dir.file("alarm-\(UUID().uuidString).raw")
        let plan = AlarmSoundPlan(stations: try stations.map { try StreamURL(parsing: $0) }, tone: .classic,
                                  volume: volume, fadeIn: fadeIn, toneVolume: 90, allowLoopback: true,
                                  preselectedFallback: pre, duration: .milliseconds(Int64(seconds * 1000)))
        let sound = AlarmSound.prepare(plan, sink: SinkOptions(device: device ?? "file:'\(out)',raw", paced: true))
        try await Task.sleep(for: .milliseconds(300))  // pre-roll
        let start = ContinuousClock.now
        sound.begin()
        let guardTask = Task {
            try await Task.sleep(for: .seconds(seconds + 15))
            sound.stop()
        }
        var events: [AlarmSoundEvent] = []
        var times: [Double] = []
        for await e in sound.events {
            events.append(e)
            times.append((ContinuousClock.now - start) / .seconds(1))
        }
        guardTask.cancel()
        let data = (try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data()
        return Run(events: events, pcm: data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }, times: times)
    }

    /// Dominant of the stream's 440 Hz and the tone's 880 Hz in a window starting at `second`.
    static func sounds440(_ pcm: [Int16], at second: Double) -> Bool {
        let from = Int(second * 44_100) * 2
        let mono = Signal.left(Array(pcm[from..<min(pcm.count, from + 8820)]))
        return Signal.power(at: 440, mono) > 100 * Signal.power(at: 880, mono)
    }

    static func sounds880(_ pcm: [Int16], from second: Double, seconds: Double) -> Bool {
        let from = Int(second * 44_100) * 2
        let mono = Signal.left(Array(pcm[from..<min(pcm.count, from + Int(seconds * 44_100) * 2)]))
        return Signal.power(at: 880, mono) > 100 * Signal.power(at: 440, mono)
    }

    @Test func aWorkingStationIsHeardAtTheAlarmSecond() async throws {
        let f = try CurlTransferTests.Fixture()
        let run = try await Self.ring([f.base + "/fast"], seconds: 3, in: f.dir)
        let audible = try #require(run.first { if case .audible = $0 { true } else { false } })
        #expect(audible.0 == .audible(source: "station", after: audible.0.after))
        // Verified over 2 s of consumed audio, dated from the window's start: pre-rolled audio starts at once.
        #expect(audible.0.after < .milliseconds(500), "pre-rolled audio heard after \(audible.0.after)")
        #expect(audible.1 < 3.0)
        #expect(!run.events.contains { if case .fallback = $0 { true } else { false } })
        #expect(run.pcm.count == 2 * 3 * 44_100)
        #expect(Self.sounds440(run.pcm, at: 1.0) && Self.sounds440(run.pcm, at: 2.5))
        #expect(run.events.last == .stopped)
    }

    @Test func aRefusedStationFallsBackToTheToneAtOnce() async throws {
        let dir = try TemporaryDirectory("alarm")
        let run = try await Self.ring(["http://127.0.0.1:9/radio"], seconds: 3, in: dir)
        let fallback = try #require(run.first { if case .fallback = $0 { true } else { false } })
        #expect(fallback.1 < 2.0, "a refused connection is knowable at once; fell back after \(fallback.1) s")
        guard case .fallback(let from, let to, let reason) = fallback.0 else { return }
        #expect(from == "station" && to == "tone")
        #expect(reason.lowercased().contains("refused") || reason.lowercased().contains("connect"))
        #expect(run.events.contains { if case .audible(source: "tone", _) = $0 { true } else { false } })
        #expect(Self.sounds880(run.pcm, from: 2.0, seconds: 1.0))
        #expect(Signal.rmsDBFS(run.pcm[(2 * 44_100 * 2)...]) > -20)  // the tone is loud (R18)
    }

    @Test func aWebPageFallsBackThroughTheAlternateStation() async throws {
        let f = try CurlTransferTests.Fixture()
        let run = try await Self.ring([f.base + "/html", f.base + "/fast"], seconds: 3, in: f.dir)
        #expect(run.events.contains(.fallback(from: "station", to: "alternate station",
                                              reason: "The station sent a web page, not audio.")))
        #expect(run.events.contains { if case .audible(source: "alternate station", _) = $0 { true } else { false } })
        #expect(Self.sounds440(run.pcm, at: 2.2))
    }

    @Test func aStallWhileRingingNeverLeavesTheCardSilentForMoreThanTenSeconds() async throws {
        let f = try CurlTransferTests.Fixture()
        // About 4 s of audio (verified), then nothing until the fetcher notices the stall (10 s after the last
        // byte) and reconnects for another 4 s. Whatever the fallback decides, the promise is measured on the
        // card: no stretch below −40 dBFS longer than 10 s (plus one 2-s verification window of slack).
        let run = try await Self.ring([f.base + "/stall?after=64000"], seconds: 20, in: f.dir)
        _ = try #require(run.first { if case .audible(source: "station", _) = $0 { true } else { false } })
        let window = 44_100 / 10 * 2  // 100 ms of stereo samples
        var longest = 0.0, current = 0.0
        for start in stride(from: 0, to: run.pcm.count - window, by: window) {
            if Signal.rmsDBFS(run.pcm[start..<(start + window)]) < -40 { current += 0.1 } else { current = 0 }
            longest = max(longest, current)
        }
        #expect(longest > 3, "the stall should leave a gap before anything steps in (\(longest) s)")
        #expect(longest <= 10.5, "the card was silent for \(longest) s")
    }

    @Test func aShortBurstIsNotVerifiedAudio() async throws {
        let f = try CurlTransferTests.Fixture()
        // One second of audio, then a stall: never 2 s of audio on the card, so the tone by 10 s after the start.
        let run = try await Self.ring([f.base + "/stall?after=16000"], seconds: 12, in: f.dir)
        #expect(!run.events.contains { if case .audible(source: "station", _) = $0 { true } else { false } })
        let fallback = try #require(run.first { if case .fallback = $0 { true } else { false } })
        #expect(fallback.0 == .fallback(from: "station", to: "tone", reason: "No audio from the station within 10 s."))
        #expect(fallback.1 >= 9.5 && fallback.1 < 11, "fell back at \(fallback.1) s")
    }

    @Test func aFailedPreCheckStartsOnTheToneAndTheStationReturnsAfterFifteenSeconds() async throws {
        let f = try CurlTransferTests.Fixture()
        let run = try await Self.ring([f.base + "/fast"], seconds: 18, pre: "The pre-alarm check failed.", in: f.dir)
        #expect(run.events.first { if case .fallback = $0 { true } else { false } } ==
                .fallback(from: "station", to: "tone", reason: "The pre-alarm check failed."))
        let toneHeard = try #require(run.first { if case .audible(source: "tone", _) = $0 { true } else { false } })
        #expect(toneHeard.1 < 0.5)
        let recovered = try #require(run.first { $0 == .recovered(to: "station") })
        #expect(recovered.1 >= 14.5 && recovered.1 < 17.5, "recovered at \(recovered.1) s")
        #expect(Self.sounds880(run.pcm, from: 0.0, seconds: 1.6))
        #expect(Self.sounds440(run.pcm, at: 17.6))
    }

    @Test func theFadeInStartsAudible() async throws {
        let f = try CurlTransferTests.Fixture()
        let run = try await Self.ring([f.base + "/fast"], seconds: 2, volume: 80, fadeIn: .seconds(30), in: f.dir)
        // The sine is ≈ −9 dBFS; volume 80 fades in from 40 (−24 dB): about −33 dBFS, above −40 (audible).
        let firstAudio = try #require(run.pcm.firstIndex { $0 != 0 })
        let window = run.pcm[firstAudio..<(firstAudio + 8820)]
        #expect(Signal.rmsDBFS(window) > -40)
        #expect(Signal.rmsDBFS(window) < Signal.rmsDBFS(run.pcm[(run.pcm.count - 8820)...]) + 0.1)
    }

    @Test func aDeviceThatCannotBeOpenedIsReportedAndRetried() async throws {
        let dir = try TemporaryDirectory("alarm")
        let sound = AlarmSound.prepare(AlarmSoundPlan(stations: [], tone: .classic, volume: 50, fadeIn: .zero,
                                                      toneVolume: 90, allowLoopback: false),
                                       sink: SinkOptions(device: "hw:99,0"))
        sound.begin()
        var events: [AlarmSoundEvent] = []
        for await e in sound.events {
            events.append(e)
            if case .deviceError = e { sound.stop() }
        }
        _ = dir
        guard case .deviceError(let message) = events.first else {
            Issue.record("expected a device error first, got \(events)")
            return
        }
        #expect(message.contains("hw:99,0"))
        #expect(events.last == .stopped)
    }
}

extension AlarmSoundEvent {
    var after: Duration {
        if case .audible(_, let after) = self { return after }
        return .zero
    }
}
