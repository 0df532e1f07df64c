@testable import AubadeAudio
import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// The whole pipeline — libcurl → ICY demux → mpg123 → volume → alsa-lib `file` plugin — against the fault
/// server on 127.0.0.1, checking what reached the "sound card".
@Suite("Stream player end to end", .serialized)
struct StreamPlayerTests {
    static func play(_ url: String, seconds: Double, out: String) async throws -> [PlayerEvent] {
        var options = StreamPlayer.Options(volume: 100, duration: .milliseconds(Int64(seconds * 1000)), allowLoopback: true)
        options.stallTimeout = .seconds(2)
        let playback = StreamPlayer.start(try StreamURL(parsing: url), options: options,
                                          sink: SinkOptions(device: "file:'\(out)',raw", paced: false))
        var events: [PlayerEvent] = []
        let watchdog = Task {
            try await Task.sleep(for: .seconds(20))
            playback.stop()
        }
        for await e in playback.events { events.append(e) }
        watchdog.cancel()
        return events
    }

    static func pcm(_ path: String) throws -> [Int16] {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    @Test func theStationsAudioAndTitlesReachTheSoundCard() async throws {
        let f = try CurlTransferTests.Fixture()
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
        let f = try CurlTransferTests.Fixture()
        let events = try await Self.play(f.base + "/html", seconds: 5, out: f.dir.file("out.raw"))
        #expect(events.contains(.error("The station sent a web page, not audio.", fatal: true)))
        #expect(events.last == .stopped(reason: .failed))
    }

    @Test func aClosedStreamIsReconnected() async throws {
        let f = try CurlTransferTests.Fixture()
        let out = f.dir.file("out.raw")
        // The server sends the 2-s file and closes; 3 s of playback need a reconnect after 1 s of backoff.
        let events = try await Self.play(f.base + "/mp3", seconds: 3, out: out)
        #expect(events.contains(.reconnecting(attempt: 1, delay: .seconds(1))))
        #expect(events.filter { if case .connecting = $0 { true } else { false } }.count >= 2)
        #expect(events.last == .stopped(reason: .finished))
        #expect(try Self.pcm(out).count == 2 * 3 * 44_100)
    }

    @Test func theBackoffStartsOverAfterAConnectionThatBroughtAudio() async throws {
        let f = try CurlTransferTests.Fixture()
        // Each connection brings the 2-s file, then the server closes: 5 s need at least two reconnects (a third
        // may start as the playback ends), each after 1 s — not 1, 2, 4.
        let events = try await Self.play(f.base + "/mp3", seconds: 5, out: f.dir.file("out.raw"))
        let reconnects = events.filter { if case .reconnecting = $0 { true } else { false } }
        #expect(reconnects.count >= 2)
        #expect(reconnects.allSatisfy { $0 == .reconnecting(attempt: 1, delay: .seconds(1)) })
        #expect(events.last == .stopped(reason: .finished))
    }

    @Test func aStallIsReportedAndRetried() async throws {
        let f = try CurlTransferTests.Fixture()
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
        let f = try CurlTransferTests.Fixture()
        // A fast server keeps the ring full, so each read hands the decoder ~1 s of audio to play at real time.
        let playback = StreamPlayer.start(try StreamURL(parsing: f.base + "/fast?speed=10"),
                                          options: StreamPlayer.Options(volume: 50, allowLoopback: true),
                                          sink: SinkOptions(device: "null", paced: true))
        var asked: ContinuousClock.Instant?
        var last: PlayerEvent?
        for await e in playback.events {
            last = e
            if case .playing = e {
                try await Task.sleep(for: .milliseconds(1500))
                asked = ContinuousClock.now
                playback.stop()
            }
        }
        #expect(last == .stopped(reason: .requested))
        let took = asked.map { ContinuousClock.now - $0 }
        // Was up to a second (the whole read was played first); now one 93-ms piece and its pacing.
        #expect(took != nil && took! < .milliseconds(600), "took \(String(describing: took))")
    }

    @Test func garbageWithAnAudioTypeEndsAsNotDecodable() async throws {
        let f = try CurlTransferTests.Fixture()
        let began = ContinuousClock.now
        let events = try await Self.play(f.base + "/garbage", seconds: 5, out: f.dir.file("out.raw"))
        #expect(events.contains(.error("The stream is not decodable MP3 (128 KiB without a single audio frame).", fatal: true)))
        #expect(events.last == .stopped(reason: .failed))
        #expect(!events.contains { if case .playing = $0 { true } else { false } })
        #expect(ContinuousClock.now - began < .seconds(3))
    }
}
