import AubadeCore
import AubadeTesting
import Foundation
import Testing

@testable import AubadeAudio

/// A station played for listening through the engine — libcurl → ICY demux → mpg123 → volume → alsa-lib
/// `file` plugin — against the fault server on 127.0.0.1, checking what reached the "sound card".
@Suite("Engine: listening to a station end to end", .serialized)
struct RadioPlayTests {
    /// Plays `url` for `seconds` of audio into a raw file, as fast as the CPU allows (unpaced). The stall
    /// timeout is the product's (10 s): a shorter one could mistake a busy machine's slow server for a stall.
    static func play(
        _ url: String, seconds: Double?, in dir: TemporaryDirectory,
        act: @escaping @Sendable (SoundEvent, SoundEngine, SoundID) -> Void = { _, _, _ in }
    ) async throws -> EnginePlay.Run {
        let rig = EnginePlay(in: dir, paced: false)
        return await rig.play(try EnginePlay.radio(url, seconds: seconds), act: act)
    }

    @Test func theStationsAudioAndTitlesReachTheSoundCard() async throws {
        let f = try await CurlTransferTests.Fixture()
        let run = try await Self.play(f.base + "/mp3-icy?metaint=4000&title=Morning%20Show", seconds: 1.5, in: f.dir)
        #expect(run.events.contains { if case .title(_, "Morning Show") = $0 { true } else { false } })
        #expect(run.events.contains { $0.isAudible })
        #expect(run.events.last?.end == .finished)
        #expect(run.pcm.count == 2 * Int(1.5 * 44_100))  // exactly the requested duration
        let mono = Signal.left(Array(run.pcm[22_050..<(22_050 + 8820)]))
        #expect(Signal.power(at: 440, mono) > 100 * Signal.power(at: 660, mono))
        #expect(Signal.rmsDBFS(run.pcm[44_100...]) > -15)  // the sine at vol 0.5 ≈ −9 dBFS
    }

    @Test func aWebPageIsNotAudioAndEndsTheSoundWithItsSentence() async throws {
        let f = try await CurlTransferTests.Fixture()
        let run = try await Self.play(f.base + "/html", seconds: 5, in: f.dir)
        #expect(run.events.contains { $0.stream == .failed("The station sent a web page, not audio.") })
        #expect(run.events.last?.end == .failed("The station sent a web page, not audio."))
        #expect(!run.events.contains { $0.isAudible }, "never reported as playing")
    }

    @Test func aRedirectLoopEndsTheSoundWithOneSentence() async throws {
        let f = try await CurlTransferTests.Fixture()
        let run = try await Self.play(f.base + "/loop", seconds: nil, in: f.dir)
        let sentence = "The station redirected more than 5 times (\(f.base)/loop)."
        #expect(run.events.last?.end == .failed(sentence), "\(run.events)")
        #expect(!run.events.contains { if case .reconnecting = $0.stream { true } else { false } }, "a loop is not retried")
    }

    @Test func aPermanentHTTPErrorEndsTheSound() async throws {
        let f = try await CurlTransferTests.Fixture()
        let run = try await Self.play(f.base + "/404", seconds: nil, in: f.dir)
        #expect(run.events.last?.end == .failed("The station answered HTTP 404 (\(f.base)/404)."))
    }

    @Test func aLimitEndsASoundEvenWhenTheStationNeverSendsAudio() async throws {
        let f = try await CurlTransferTests.Fixture()
        // Headers, then nothing: no audio ever reaches the card, yet the sound ends at its limit (`--for`).
        let rig = EnginePlay(in: f.dir, paced: true)
        let run = await rig.play(try EnginePlay.radio(f.base + "/stall?after=0", seconds: 2))
        #expect(run.events.last?.end == .finished)
        #expect(!run.events.contains { $0.isAudible })
    }

    @Test func aClosedStreamIsReconnected() async throws {
        let f = try await CurlTransferTests.Fixture()
        // The server sends the 2-s file and closes; 3 s of playback need a reconnect after 1 s of backoff.
        let run = try await Self.play(f.base + "/mp3", seconds: 3, in: f.dir)
        #expect(run.events.contains { $0.stream == .reconnecting(attempt: 1, delay: .seconds(1)) })
        #expect(run.events.filter { if case .connecting = $0.stream { true } else { false } }.count >= 2)
        #expect(run.events.last?.end == .finished)
        #expect(run.pcm.count == 2 * 3 * 44_100)
    }

    @Test func theBackoffStartsOverAfterAConnectionThatBroughtAudio() async throws {
        let f = try await CurlTransferTests.Fixture()
        // Each connection brings the 2-s file, then the server closes: 5 s need at least two reconnects, each
        // after 1 s — not 1, 2, 4.
        let run = try await Self.play(f.base + "/mp3", seconds: 5, in: f.dir)
        let reconnects = run.events.compactMap(\.stream).filter { if case .reconnecting = $0 { true } else { false } }
        #expect(reconnects.count >= 2)
        #expect(reconnects.allSatisfy { $0 == .reconnecting(attempt: 1, delay: .seconds(1)) })
        #expect(run.events.last?.end == .finished)
    }

    @Test func aStallIsReportedAndRetried() async throws {
        let f = try await CurlTransferTests.Fixture()
        let rig = EnginePlay(in: f.dir, device: "null", paced: true)
        let run = await rig.play(try EnginePlay.radio(f.base + "/stall?after=8000", seconds: nil)) { event, engine, id in
            if case .reconnecting = event.stream { engine.stop(id) }
        }
        #expect(run.events.contains { $0.stream == .stalled(after: .seconds(10)) })
        #expect(run.events.contains { $0.stream == .reconnecting(attempt: 1, delay: .seconds(1)) })
        #expect(run.events.last?.end == .requested)
    }

    @Test func aStopIsQuickEvenWithASecondOfAudioInHand() async throws {
        let f = try await CurlTransferTests.Fixture()
        let rig = EnginePlay(in: f.dir, paced: true)
        // A fast server keeps the ring full: the decoder always has a second of audio in hand.
        let id = rig.engine.play(try EnginePlay.radio(f.base + "/fast?speed=10", seconds: nil), paused: false)
        var events = rig.engine.events.makeAsyncIterator()
        while let event = await events.next(), !event.isAudible {}
        let deadline = ContinuousClock.now + EventProcess.watchdog
        while (rig.engine.bufferLevel?.buffered ?? 0) < 64 * 1024, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect((rig.engine.bufferLevel?.buffered ?? 0) >= 64 * 1024)
        rig.engine.stop(id)
        let atStop = Signal.frames(rig.card)  // read after asking: a late read only makes the count below smaller
        var end: SoundEnd?
        while let event = await events.next() {
            if case .stopped(id, let reason) = event {
                end = reason
                break
            }
        }
        #expect(end == .requested)
        await rig.engine.shutdown()
        // At most the turn being written (4096 frames, 93 ms) and what the device held (the sink's 200 ms),
        // counted in frames on the card, so a busy machine cannot make it look longer.
        let after = Signal.frames(rig.card) - atStop
        #expect(after <= 4096 + 8820, "\(after) frames reached the card after the stop")
        figure("engine: stream frames reaching the card after a stop, a second in hand", "\(after)")
    }

    @Test func garbageWithAnAudioTypeEndsAsNotDecodable() async throws {
        let f = try await CurlTransferTests.Fixture()
        // Ended by the byte count (128 KiB without a frame), not by the 5 s asked for: failed, not finished.
        let run = try await Self.play(f.base + "/garbage", seconds: 5, in: f.dir)
        #expect(run.events.last?.end == .failed("The stream is not decodable MP3 (128 KiB without a single audio frame)."))
        #expect(!run.events.contains { $0.isAudible })
    }
}
