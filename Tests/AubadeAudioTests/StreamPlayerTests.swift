@testable import AubadeAudio
import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// The whole pipeline — libcurl → ICY demux → mpg123 → volume → alsa-lib `file` plugin — against the fault
/// server on 127.0.0.1, checking what reached the "sound card".
@Suite("Stream player end to end", .serialized)
struct StreamPlayerTests {
    /// Plays `url` for `seconds` of audio into a raw file, as fast as the CPU allows (unpaced), and returns
    /// the events. The stall timeout is the product's (10 s): a shorter one could mistake a busy machine's
    /// slow server for a stall and reconnect, changing the audio the tests compare.
    static func play(_ url: String, seconds: Double, out: String) async throws -> [PlayerEvent] {
        let options = StreamPlayer.Options(volume: 100, duration: .milliseconds(Int64(seconds * 1000)), allowLoopback: true)
        let playback = StreamPlayer.start(try StreamURL(parsing: url), options: options,
                                          sink: SinkOptions(device: "file:'\(out)',raw", paced: false))
        var events: [PlayerEvent] = []
        let watchdog = Task {  // ends a playback that never ends by itself (the test then fails on its events)
            try await Task.sleep(for: EventProcess.watchdog)
            playback.stop()
        }
        for await e in playback.events { events.append(e) }
        watchdog.cancel()
        return events
    }

    static func pcm(_ path: String) throws -> [Int16] {
        Signal.samples(path)
    }

    @Test func theStationsAudioAndTitlesReachTheSoundCard() async throws {
        let f = try await CurlTransferTests.Fixture()
        let out = f.dir.file("out.raw")
        let events = try await Self.play(f.base + "/mp3-icy?metaint=4000&title=Morning%20Show", seconds: 1.5, out: out)
        #expect(events.contains(.title("Morning Show")))
        #expect(events.contains { if case .playing = $0 { true } else { false } })
        #expect(events.last == .stopped(reason: .finished))
        let pcm = try Self.pcm(out)
        #expect(pcm.count == 2 * Int(1.5 * 44_100))  // exactly the requested duration
        let mono = Signal.left(Array(pcm[22_050..<(22_050 + 8820)]))
        #expect(Signal.power(at: 440, mono) > 100 * Signal.power(at: 660, mono))
        #expect(Signal.rmsDBFS(pcm[44_100...]) > -15)  // the sine at vol 0.5 ≈ −9 dBFS
    }

    @Test func aWebPageIsNotAudio() async throws {
        let f = try await CurlTransferTests.Fixture()
        let events = try await Self.play(f.base + "/html", seconds: 5, out: f.dir.file("out.raw"))
        #expect(events.contains(.error("The station sent a web page, not audio.", fatal: true)))
        #expect(events.last == .stopped(reason: .failed))
    }

    @Test func aClosedStreamIsReconnected() async throws {
        let f = try await CurlTransferTests.Fixture()
        let out = f.dir.file("out.raw")
        // The server sends the 2-s file and closes; 3 s of playback need a reconnect after 1 s of backoff.
        let events = try await Self.play(f.base + "/mp3", seconds: 3, out: out)
        #expect(events.contains(.reconnecting(attempt: 1, delay: .seconds(1))))
        #expect(events.filter { if case .connecting = $0 { true } else { false } }.count >= 2)
        #expect(events.last == .stopped(reason: .finished))
        #expect(try Self.pcm(out).count == 2 * 3 * 44_100)
    }

    @Test func theBackoffStartsOverAfterAConnectionThatBroughtAudio() async throws {
        let f = try await CurlTransferTests.Fixture()
        // Each connection brings the 2-s file, then the server closes: 5 s need at least two reconnects (a third
        // may start as the playback ends), each after 1 s — not 1, 2, 4.
        let events = try await Self.play(f.base + "/mp3", seconds: 5, out: f.dir.file("out.raw"))
        let reconnects = events.filter { if case .reconnecting = $0 { true } else { false } }
        #expect(reconnects.count >= 2)
        #expect(reconnects.allSatisfy { $0 == .reconnecting(attempt: 1, delay: .seconds(1)) })
        #expect(events.last == .stopped(reason: .finished))
    }

    @Test func aStallIsReportedAndRetried() async throws {
        let f = try await CurlTransferTests.Fixture()
        let playback = StreamPlayer.start(try StreamURL(parsing: f.base + "/stall?after=8000"),
                                          options: { var o = StreamPlayer.Options(volume: 50, allowLoopback: true)
                                                     o.stallTimeout = .seconds(2); return o }(),
                                          sink: SinkOptions(device: "null", paced: true))
        var events: [PlayerEvent] = []
        for await e in playback.events {
            events.append(e)
            if case .reconnecting = e { playback.stop() }
        }
        #expect(events.contains(.stalled(after: .seconds(2))))
        #expect(events.contains(.reconnecting(attempt: 1, delay: .seconds(1))))
        #expect(events.last == .stopped(reason: .requested))
    }

    @Test func aStopIsQuickEvenWithASecondOfAudioInHand() async throws {
        let f = try await CurlTransferTests.Fixture()
        let out = f.dir.file("out.raw")
        // A fast server keeps the ring full, so each read hands the decoder ~1 s of audio to play at real time.
        let playback = StreamPlayer.start(try StreamURL(parsing: f.base + "/fast?speed=10"),
                                          options: StreamPlayer.Options(volume: 50, allowLoopback: true),
                                          sink: SinkOptions(device: "file:'\(out)',raw", paced: true))
        let events = StreamRecorder(playback.events)
        #expect(await events.wait { $0.contains { if case .playing = $0 { true } else { false } } })
        // Wait until the ring holds more than one read (16 KiB, a second of audio): the decoder then has a
        // whole second in hand whenever the stop comes.
        let deadline = ContinuousClock.now + EventProcess.watchdog
        while (playback.bufferLevel?.buffered ?? 0) < 64 * 1024, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect((playback.bufferLevel?.buffered ?? 0) >= 64 * 1024)
        playback.stop()
        let atStop = Signal.frames(out)  // read after asking: a late read only makes the count below smaller
        #expect(await events.waitForEnd())
        #expect(events.elements.last == .stopped(reason: .requested))
        // Was up to a second (the whole read was played first); now at most the piece being written (4096
        // frames, 93 ms) and what the device held (the sink's 200 ms), counted in frames on the card, so a
        // busy machine cannot make it look longer.
        let after = Signal.frames(out) - atStop
        #expect(after <= 4096 + 8820, "\(after) frames reached the card after the stop")
        figure("stream frames reaching the card after a stop, a second in hand", "\(after)")
    }

    @Test func garbageWithAnAudioTypeEndsAsNotDecodable() async throws {
        let f = try await CurlTransferTests.Fixture()
        let began = ContinuousClock.now
        // Ended by the byte count (128 KiB without a frame), not by the 5 s asked for: failed, not finished.
        let events = try await Self.play(f.base + "/garbage", seconds: 5, out: f.dir.file("out.raw"))
        #expect(events.contains(.error("The stream is not decodable MP3 (128 KiB without a single audio frame).", fatal: true)))
        #expect(events.last == .stopped(reason: .failed))
        #expect(!events.contains { if case .playing = $0 { true } else { false } })
        figure("stream garbage refused after", ContinuousClock.now - began)
    }
}
