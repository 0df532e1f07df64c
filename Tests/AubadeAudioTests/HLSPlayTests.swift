import AubadeCore
import AubadeTesting
import Foundation
import Synchronization
import Testing

@testable import AubadeAudio

/// Live HLS stations end to end: Tests/Support/hls_live.py runs ffmpeg in real time into a sliding playlist of 2-s
/// segments with a master playlist of three variants (32, 96 and 256 kbit/s), served on 127.0.0.1; the engine plays
/// its master playlist through libcurl, `HLSFetcher`, libavformat and the ALSA `file` card. What the card heard is
/// measured (the station's 523 Hz), and the station is made to misbehave on cue (its playlist frozen or gone, a
/// discontinuity).
@Suite("HLS: live stations end to end", .serialized)
struct HLSPlayTests {
    typealias Station = HLSLiveStation

    /// The station's sine (ffmpeg's sine source is at −21 dBFS RMS).
    static func isTheSine(_ pcm: [Int16], from: Double) -> Bool { FormatPlayTests.isTheSine(pcm, from: from, level: -25) }

    static func connections(_ events: [SoundEvent]) -> [String] {
        events.compactMap { if case .connecting(let url)? = $0.stream { url } else { nil } }
    }

    @Test(arguments: ["ts", "fmp4", "adts"])
    func aLiveStationPlaysFromTheVariantUnderTheCap(mode: String) async throws {
        let station = try await Station(mode, frequency: FormatPlayTests.frequency)
        let run = try await RadioPlayTests.play(station.master, seconds: 4, in: station.dir)
        #expect(run.events.last?.end == .finished, "\(run.events)")
        #expect(run.events.contains { $0.isAudible("station") })
        // The 128 kbit/s cap picks the 96 kbit/s variant (v1) of the three.
        #expect(Self.connections(run.events) == [station.master, station.base + "/v1.m3u8"], "\(run.events)")
        // Four seconds from the request, connecting and the first segments included: a live station gives no more
        // than real time, so a loaded machine's slower start leaves less than 4 s of audio (but never more).
        let seconds = Double(run.pcm.count / 2) / 44_100
        #expect(seconds >= 3 && seconds <= 4, "\(seconds) s on the card")
        #expect(Self.isTheSine(run.pcm, from: 1) && Self.isTheSine(run.pcm, from: 2.4), "\(mode)")
        if mode == "adts" {
            // Packed audio carries its title in each segment's ID3 tag.
            #expect(run.events.contains { if case .title(_, "Live at Aubade") = $0 { true } else { false } }, "\(run.events)")
        }
    }

    @Test func anEncryptedStationIsRefusedWithItsSentence() async throws {
        let station = try await Station("aes", frequency: FormatPlayTests.frequency)
        let run = try await RadioPlayTests.play(station.master, seconds: 4, in: station.dir)
        let sentence = "The station encrypts its HLS segments (AES-128), which Aubade cannot play; pick another stream."
        #expect(run.events.last?.end == .failed(sentence), "\(run.events)")
        #expect(!run.events.contains { $0.isAudible })
    }

    @Test func aPlaylistThatIsGoneBeforeAnyAudioFallsBackAtOnce() async throws {
        let station = try await Station("ts", frequency: FormatPlayTests.frequency)
        try await station.control("vanish")
        let rig = EnginePlay(in: station.dir)
        let run = await rig.play(try EnginePlay.alarm([station.master], seconds: 4), prepare: true)
        let fallback = try #require(run.first { $0.isFallback }, "\(run.events)")
        guard case .fallback(_, "station", "tone", let reason) = fallback.0 else { return }
        #expect(reason == "The station answered HTTP 404 (\(station.master)).")
        #expect(Signal.firstHeard(880, over: Double(FormatPlayTests.frequency), in: run.pcm).map { $0 < 1 } == true)
    }

    @Test(arguments: ["freeze", "vanish"])
    func aStationThatStopsGrowingFallsBackToTheToneAfterTenSecondsOfSilence(fault: String) async throws {
        let station = try await Station("ts", frequency: FormatPlayTests.frequency)
        let rig = EnginePlay(in: station.dir)
        let faulted = Flag()
        let run = await rig.play(try EnginePlay.alarm([station.master], seconds: 60), prepare: true) { event, engine, id in
            // The tone heard: enough seen (a second more of it on the card first).
            if event.isAudible("tone") {
                Task {
                    try? await Task.sleep(for: .seconds(1))
                    engine.stop(id)
                }
            }
            guard event.isAudible("station"), faulted.set() else { return }
            Task { try? await station.control(fault) }
        }
        let fallback = try #require(run.first { $0.isFallback }, "\(run.events)")
        guard case .fallback(_, "station", "tone", let reason) = fallback.0 else {
            Issue.record("unexpected \(fallback.0)")
            return
        }
        #expect(reason == "The station went silent for 10 s.", "\(reason)")
        // What was fetched before the fault plays out; then at most R16's 10 s of silence before the tone.
        let heardStation = Signal.firstHeard(Double(FormatPlayTests.frequency), over: 880, in: run.pcm)
        let heardTone = Signal.firstHeard(880, over: Double(FormatPlayTests.frequency), in: run.pcm)
        let stationAt = try #require(heardStation)
        let tone = try #require(heardTone)
        #expect(stationAt < tone)
        let longest = Signal.longestSilence(run.pcm)
        #expect(longest <= 10.5, "the card was silent for \(longest) s")
        if fault == "freeze" {
            #expect(run.events.contains { $0.stream == .error("The station's HLS playlist stopped growing.") }, "\(run.events)")
        }
        figure("HLS \(fault): the tone on the card at (s of card time)", seconds: tone)
    }

    @Test func aDiscontinuityStartsTheStreamAfreshAndTheAudioGoesOn() async throws {
        let station = try await Station("ts", frequency: FormatPlayTests.frequency)
        let faulted = Flag()
        let run = try await RadioPlayTests.play(station.master, seconds: 24, in: station.dir) { event, _, _ in
            guard event.isAudible("station"), faulted.set() else { return }
            Task { try? await station.control("discontinuity") }
        }
        #expect(run.events.last?.end == .finished, "\(run.events)")
        #expect(
            run.events.contains { if case .error(let why)? = $0.stream { why.contains("discontinuity") } else { false } },
            "\(run.events)")
        #expect(Self.isTheSine(run.pcm, from: 22), "the station plays on after its discontinuity")
    }
}

/// A flag set once, from any thread: true for the caller that set it.
final class Flag: Sendable {
    private let state = Mutex(false)
    func set() -> Bool {
        state.withLock { was in
            defer { was = true }; return !was
        }
    }
}
