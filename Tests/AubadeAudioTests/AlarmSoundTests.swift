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

    /// Prepares the alarm's sound (pre-roll: the device opens and the station is fetched), waits `preRoll`,
    /// begins it and collects its events until it stops after `seconds` of audio on the card — card time:
    /// the sink is paced like a sound card and the duration counts frames written.
    static func ring(_ stations: [String], seconds: Double, pre: String? = nil, volume: Int = 100,
                     fadeIn: Duration = .zero, device: String? = nil, preRoll: Duration = .milliseconds(300),
                     in dir: TemporaryDirectory) async throws -> Run {
        let out = dir.file("alarm-\(UUID().uuidString).raw")
        let plan = AlarmSoundPlan(stations: try stations.map { try StreamURL(parsing: $0) }, tone: .classic,
                                  volume: volume, fadeIn: fadeIn, toneVolume: 90, allowLoopback: true,
                                  preselectedFallback: pre, duration: .milliseconds(Int64(seconds * 1000)))
        let sound = AlarmSound.prepare(plan, sink: SinkOptions(device: device ?? "file:'\(out)',raw", paced: true))
        try await Task.sleep(for: preRoll)
        let start = ContinuousClock.now
        sound.begin()
        let guardTask = Task {  // a watchdog: ends a sound that never ends by itself (the test then fails)
            try await Task.sleep(for: .seconds(seconds) + EventProcess.watchdog)
            sound.stop()
        }
        var events: [AlarmSoundEvent] = []
        var times: [Double] = []
        for await e in sound.events {
            events.append(e)
            times.append((ContinuousClock.now - start) / .seconds(1))
        }
        guardTask.cancel()
        return Run(events: events, pcm: Signal.samples(out), times: times)
    }

    /// Dominant of the stream's 440 Hz and the tone's 880 Hz in a window starting at `second` (card time).
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

    /// Where in `run.events` the first event matching `match` stands (Int.max when none: sorts last).
    static func index(_ run: Run, _ match: (AlarmSoundEvent) -> Bool) -> Int {
        run.events.firstIndex(where: match) ?? Int.max
    }

    @Test func aWorkingStationIsHeardAtTheAlarmSecond() async throws {
        let f = try await CurlTransferTests.Fixture()
        // A pre-roll as the daemon gives one (it starts 15 s ahead): long enough for the station's audio to be
        // in hand at the alarm second on a busy machine too.
        let run = try await Self.ring([f.base + "/fast"], seconds: 3, preRoll: .seconds(3), in: f.dir)
        let audible = try #require(run.first { if case .audible = $0 { true } else { false } })
        #expect(audible.0 == .audible(source: "station", after: audible.0.after))
        // Pre-rolled audio starts at once: the station is on the card from its very first frame (card time
        // 0), with no silence and no tone before it. The supervisor's own "audible after" is a figure.
        let first = Signal.windows(run.pcm).first?.samples ?? []
        #expect(Signal.isTone(440, over: 880, in: first), "the card's first 100 ms: \(Signal.rmsDBFS(first)) dBFS")
        #expect(Signal.longestSilence(run.pcm) == 0)
        figure("alarm sound: pre-rolled station audible after", audible.0.after)
        #expect(!run.events.contains { if case .fallback = $0 { true } else { false } })
        #expect(run.pcm.count == 2 * 3 * 44_100)
        #expect(Self.sounds440(run.pcm, at: 1.0) && Self.sounds440(run.pcm, at: 2.5))
        #expect(run.events.last == .stopped)
    }

    @Test func aRefusedStationFallsBackToTheToneAtOnce() async throws {
        let dir = try TemporaryDirectory("alarm")
        let run = try await Self.ring(["http://127.0.0.1:9/radio"], seconds: 3, in: dir)
        let fallback = try #require(run.first { if case .fallback = $0 { true } else { false } })
        guard case .fallback(let from, let to, let reason) = fallback.0 else { return }
        #expect(from == "station" && to == "tone")
        // Knowable at once: the refusal itself is the reason — not the 10 s of silence R16 allows — and the
        // tone is on the card within its first two seconds (card time; the wall-clock time is a figure).
        #expect(reason.lowercased().contains("refused") || reason.lowercased().contains("connect"), "\(reason)")
        let tone = try #require(Signal.firstHeard(880, over: 440, in: run.pcm))
        #expect(tone < 2.0, "the tone started at \(tone) s of card time")
        figure("alarm sound: fallback from a refused station after", seconds: fallback.1)
        #expect(run.events.contains { if case .audible(source: "tone", _) = $0 { true } else { false } })
        #expect(Self.index(run) { if case .fallback = $0 { true } else { false } }
                < Self.index(run) { if case .audible(source: "tone", _) = $0 { true } else { false } })
        #expect(Self.sounds880(run.pcm, from: 2.0, seconds: 1.0))
        #expect(Signal.rmsDBFS(run.pcm[(2 * 44_100 * 2)...]) > -20)  // the tone is loud (R18)
    }

    @Test func aWebPageFallsBackThroughTheAlternateStation() async throws {
        let f = try await CurlTransferTests.Fixture()
        let run = try await Self.ring([f.base + "/html", f.base + "/fast"], seconds: 5, in: f.dir)
        #expect(run.events.contains(.fallback(from: "station", to: "alternate station",
                                              reason: "The station sent a web page, not audio.")))
        #expect(run.events.contains { if case .audible(source: "alternate station", _) = $0 { true } else { false } })
        #expect(Self.index(run) { if case .fallback = $0 { true } else { false } }
                < Self.index(run) { if case .audible = $0 { true } else { false } })
        // The alternate's sine reaches the card, and plays on to the end.
        #expect(Signal.firstHeard(440, over: 880, in: run.pcm) != nil)
        #expect(Self.sounds440(run.pcm, at: 4.7))
    }

    @Test func aStallWhileRingingNeverLeavesTheCardSilentForMoreThanTenSeconds() async throws {
        let f = try await CurlTransferTests.Fixture()
        // About 4 s of audio (verified), then nothing until the fetcher notices the stall (10 s after the last
        // byte) and reconnects for another 4 s. Whatever the fallback decides, the promise is measured on the
        // card: no stretch below −40 dBFS longer than 10 s (plus one 2-s verification window of slack). Card
        // time cannot be stretched by a busy machine: the audio thread never runs ahead of the wall clock by
        // more than the sink's lead, and the supervisor decides by the wall clock.
        let run = try await Self.ring([f.base + "/stall?after=64000"], seconds: 20, in: f.dir)
        _ = try #require(run.first { if case .audible(source: "station", _) = $0 { true } else { false } })
        let longest = Signal.longestSilence(run.pcm)
        #expect(longest > 3, "the stall should leave a gap before anything steps in (\(longest) s)")
        #expect(longest <= 10.5, "the card was silent for \(longest) s")
        figure("alarm sound: longest silence on the card through a stall", seconds: longest)
    }

    @Test func aShortBurstIsNotVerifiedAudio() async throws {
        let f = try await CurlTransferTests.Fixture()
        // One second of audio, then a stall: never 2 s of audio on the card, so the tone by 10 s after the start.
        let run = try await Self.ring([f.base + "/stall?after=16000"], seconds: 12, in: f.dir)
        #expect(!run.events.contains { if case .audible(source: "station", _) = $0 { true } else { false } })
        let fallback = try #require(run.first { if case .fallback = $0 { true } else { false } })
        #expect(fallback.0 == .fallback(from: "station", to: "tone", reason: "No audio from the station within 10 s."))
        // R16 gives the station 10 s: the fallback never comes sooner (wall clock, which a busy machine only
        // makes later) ...
        #expect(fallback.1 >= 9.5, "fell back at \(fallback.1) s")
        figure("alarm sound: fallback after a 1-s burst, at", seconds: fallback.1)
        // ... nor later, on the card: after the burst, the tone by 10 s of card time (plus the sink's lead).
        let station = try #require(Signal.firstHeard(440, over: 880, in: run.pcm))
        let tone = try #require(Signal.firstHeard(880, over: 440, in: run.pcm))
        #expect(station < tone && tone <= 10.5, "the burst at \(station) s, the tone at \(tone) s of card time")
    }

    @Test func aFailedPreCheckStartsOnTheToneAndTheStationReturnsAfterFifteenSeconds() async throws {
        let f = try await CurlTransferTests.Fixture()
        let run = try await Self.ring([f.base + "/fast"], seconds: 22, pre: "The pre-alarm check failed.", in: f.dir)
        #expect(run.events.first { if case .fallback = $0 { true } else { false } } ==
                .fallback(from: "station", to: "tone", reason: "The pre-alarm check failed."))
        let toneHeard = try #require(run.first { if case .audible(source: "tone", _) = $0 { true } else { false } })
        // The tone at once: the card's first frames are the tone (card time 0), and it holds 1.6 s later.
        let first = Signal.windows(run.pcm).first?.samples ?? []
        #expect(Signal.isTone(880, over: 440, in: first), "the card's first 100 ms: \(Signal.rmsDBFS(first)) dBFS")
        #expect(Self.sounds880(run.pcm, from: 0.0, seconds: 1.6))
        figure("alarm sound: pre-selected tone audible at", seconds: toneHeard.1)
        // The station returns only after 15 s of good audio (R16): never sooner by the wall clock ...
        let recovered = try #require(run.first { $0 == .recovered(to: "station") })
        #expect(recovered.1 >= 14.5, "recovered at \(recovered.1) s")
        figure("alarm sound: station recovered at", seconds: recovered.1)
        #expect(Self.index(run) { if case .fallback = $0 { true } else { false } }
                < Self.index(run) { $0 == .recovered(to: "station") })
        // ... and then it is what the card plays, to the end.
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

/// R18: which mixer belongs to a PCM device name (the card's control is unmuted and raised for an alarm).
@Suite("Mixer names")
struct MixerNameTests {
    @Test(arguments: [
        ("default", "default"), ("hw:1,0", "hw:1"), ("plughw:0", "hw:0"), ("hw:CARD=Headphones,DEV=0", "hw:CARD=Headphones"),
        ("plughw:CARD=Loopback,DEV=0", "hw:CARD=Loopback"), ("sysdefault:CARD=vc4hdmi", "hw:CARD=vc4hdmi"),
    ])
    func aCardsMixerIsFound(device: String, mixer: String) {
        #expect(MixerControl.mixerName(forDevice: device) == mixer)
    }

    @Test(arguments: ["null", "file:'/tmp/x.raw',raw", "pulse", ""])
    func pluginsWithoutACardHaveNoMixer(device: String) {
        #expect(MixerControl.mixerName(forDevice: device) == nil)
        #expect(MixerControl.open(forDevice: device) == nil)
    }

    @Test func aMissingCardHasNoMixer() {
        #expect(MixerControl.open(forDevice: "hw:42") == nil)
    }
}
