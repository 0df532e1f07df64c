import AubadeCore
import AubadeTesting
import Foundation
import Testing

@testable import AubadeAudio

/// Every format beside MP3 played end to end — libcurl → container sniffing → libavformat/libavcodec on the
/// decoding thread → libswresample to the card's 44.1 kHz stereo → volume → alsa-lib `file` plugin — from the media
/// server on 127.0.0.1, with media made by Debian's ffmpeg at test time. What reached the card is measured: the
/// station's frequency (so a 48 kHz or 22.05 kHz stream played at the wrong rate would be heard off pitch), its
/// level, and exactly the requested length.
@Suite("Formats: AAC, Ogg Vorbis/Opus, FLAC and M4A end to end", .serialized)
struct FormatPlayTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/media_server.py").path

    /// The station's sine: not a harmonic of the tone's 880 Hz, nor the tone's.
    static let frequency = 523

    final class Fixture: Sendable {
        let dir: TemporaryDirectory
        let server: BackgroundProcess
        var base: String { "http://127.0.0.1:\(server.firstLine)" }

        init() async throws {
            dir = try TemporaryDirectory("formats")
            server = try await BackgroundProcess("/usr/bin/python3", [FormatPlayTests.script, dir.path])
        }

        /// Makes the sine in `format` and answers the name the server serves it under.
        func media(_ format: TestMedia.Format, rate: Int = 44_100, channels: Int = 2, seconds: Int = 4) async throws -> String {
            let path = try await TestMedia.sine(
                format, frequency: FormatPlayTests.frequency, seconds: seconds, rate: rate, channels: channels, in: dir)
            return URL(fileURLWithPath: path).lastPathComponent
        }
    }

    /// Whether the card held the station's sine from `from` for `seconds`: its frequency far above the others near it,
    /// and at least `level` dBFS (the test media's sines are at −9 dBFS; ffmpeg's own sine source, at −21).
    static func isTheSine(_ pcm: [Int16], from: Double, seconds: Double = 0.5, level: Double = -15) -> Bool {
        let range = (2 * Int(from * 44_100))..<(2 * Int((from + seconds) * 44_100))
        guard range.upperBound <= pcm.count else { return false }
        let mono = Signal.left(Array(pcm[range]))
        let at = Signal.power(at: Double(frequency), mono)
        // 5 % off pitch either way (a 48 kHz stream at 44.1 kHz would be 8.8 % low) is a different note.
        return at > 30 * Signal.power(at: Double(frequency) * 0.95, mono)
            && at > 30 * Signal.power(at: Double(frequency) * 1.05, mono)
            && Signal.rmsDBFS(pcm[range]) > level
    }

    @Test(arguments: [
        (TestMedia.Format.aac, 44_100, 2), (.aac, 48_000, 1), (.aac, 22_050, 1), (.aac, 48_000, 2),
        (.vorbis, 44_100, 2), (.vorbis, 48_000, 1), (.opus, 48_000, 2), (.flac, 44_100, 2), (.flac, 48_000, 1),
        (.m4a, 44_100, 2),
    ])
    func eachFormatReachesTheCardAtItsPitchAndLevel(format: TestMedia.Format, rate: Int, channels: Int) async throws {
        let f = try await Fixture()
        let name = try await f.media(format, rate: rate, channels: channels)
        let run = try await RadioPlayTests.play(f.base + "/file/" + name, seconds: 2, in: f.dir)
        #expect(run.events.contains { $0.isAudible("station") }, "\(run.events)")
        #expect(run.events.last?.end == .finished, "\(run.events)")
        #expect(run.pcm.count == 2 * 2 * 44_100, "exactly the requested length reached the card")
        #expect(Self.isTheSine(run.pcm, from: 0.5) && Self.isTheSine(run.pcm, from: 1.4), "\(format) \(rate) Hz × \(channels)")
    }

    /// HE-AAC v1 (SBR) and v2 (PS), made by Fraunhofer's encoder from Debian's archive: the core at 24 kHz signals
    /// SBR implicitly, so the decoder's rate doubles after the first frames — the card still hears the note.
    @Test(arguments: [1, 2])
    func heAACReachesTheCardAtItsPitchAndLevel(version: Int) async throws {
        let f = try await Fixture()
        let path = try await TestMedia.heAAC(version: version, frequency: Self.frequency, seconds: 4, in: f.dir)
        let probe = try await ProcessRunner.run(
            try TestMedia.tool("ffprobe"), ["-v", "error", "-show_entries", "stream=profile", "-of", "csv=p=0", path])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == (version == 2 ? "HE-AACv2" : "HE-AAC"))
        let run = try await RadioPlayTests.play(
            f.base + "/file/" + URL(fileURLWithPath: path).lastPathComponent, seconds: 2, in: f.dir)
        #expect(run.events.last?.end == .finished, "\(run.events)")
        #expect(run.pcm.count == 2 * 2 * 44_100)
        #expect(Self.isTheSine(run.pcm, from: 0.5) && Self.isTheSine(run.pcm, from: 1.4), "HE-AAC v\(version)")
        // Both channels carry it (v2's parametric stereo is rebuilt, not left silent).
        let right = (0..<(run.pcm.count / 2)).map { Double(run.pcm[2 * $0 + 1]) }
        #expect(
            Signal.power(at: Double(Self.frequency), Array(right[44_100..<52_920])) > 30
                * Signal.power(at: Double(Self.frequency) * 1.05, Array(right[44_100..<52_920])))
    }

    @Test func theBytesDecideTheDecoderNotTheTypeTheStationNames() async throws {
        let f = try await Fixture()
        let aac = try await f.media(.aac)
        let ogg = try await f.media(.vorbis)
        for path in ["/file/\(aac)?type=audio/mpeg", "/file/\(aac)?type=", "/file/\(ogg)?type=application/octet-stream"] {
            let run = try await RadioPlayTests.play(f.base + path, seconds: 1, in: f.dir)
            #expect(run.events.last?.end == .finished, "\(path): \(run.events)")
            #expect(Self.isTheSine(run.pcm, from: 0.3), "\(path)")
        }
    }

    @Test func aFormatAubadeDoesNotPlayIsRefusedWithOneSentence() async throws {
        let f = try await Fixture()
        let aac = try await f.media(.aac)
        try FileManager.default.copyItem(atPath: f.dir.file(aac), toPath: f.dir.file("station.wma"))
        // Random bytes labelled WMA: the type is the only clue, and it is refused.
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7919) }).write(to: URL(fileURLWithPath: f.dir.file("noise.wma")))
        let run = try await RadioPlayTests.play(f.base + "/file/noise.wma", seconds: 2, in: f.dir)
        #expect(
            run.events.last?.end
                == .failed("The stream is audio/x-ms-wma, which Aubade cannot play; pick the station's MP3, AAC or Ogg stream."),
            "\(run.events)")
        #expect(!run.events.contains { $0.isAudible })
    }

    @Test(arguments: [1, 20])
    func aStreamThatTurnsToGarbageFailsAndTheAlarmFallsBackToTheTone(speed: Int) async throws {
        let f = try await Fixture()
        let aac = try await f.media(.aac, seconds: 10)
        let size = try FileManager.default.attributesOfItem(atPath: f.dir.file(aac))[.size] as? Int ?? 0
        // Two seconds of the station, then random bytes, paced as a live station (or 20 times faster: the decoder
        // then knows first).
        let url = f.base + "/corrupt/\(aac)?seconds=10&speed=\(speed)&after=\(size / 5)"
        let rig = EnginePlay(in: f.dir)
        let run = await rig.play(try EnginePlay.alarm([url], seconds: 14), prepare: true)
        let fallback = try #require(run.first { $0.isFallback }, "\(run.events)")
        guard case .fallback(_, "station", "tone", let reason) = fallback.0 else {
            Issue.record("unexpected \(fallback.0)")
            return
        }
        // Known from the decoder (128 KiB without a frame) or from the card (10 s of silence), whichever is first.
        #expect(reason.contains("not decodable") || reason.contains("silent for 10 s"), "\(reason)")
        // On the card (its own time, not the wall's): never more than R16's 10 s of silence before the tone.
        let longest = Signal.longestSilence(run.pcm)
        #expect(longest <= 10.5, "the card was silent for \(longest) s")
        let heardStation = Signal.firstHeard(Double(Self.frequency), over: 880, in: run.pcm)
        let heardTone = Signal.firstHeard(880, over: Double(Self.frequency), in: run.pcm)
        let station = try #require(heardStation)
        let tone = try #require(heardTone)
        #expect(station < tone, "the station at \(station) s, the tone at \(tone) s of card time")
        figure("formats: garbage after 2 s of AAC, the tone on the card at", seconds: tone)
    }

    @Test func theDecodingThreadEndsWhenTheFeedStops() async throws {
        let f = try await Fixture()
        let aac = try await f.media(.aac, seconds: 10)
        let url = try StreamURL(parsing: f.base + "/live/\(aac)?seconds=10&speed=4")
        let ended = await onThread("aubade-test-feed") { () -> Bool in
            let feed = StationFeed(url: url, rate: SoundEngine.rate, allowLoopback: true) { _ in }
            var pcm = [Int16](repeating: 0, count: 2 * 4096)
            var got = 0
            let end = ContinuousClock.now + EventProcess.watchdog
            while got < 44_100, ContinuousClock.now < end, !feed.hasFailed {
                let n = pcm.withUnsafeMutableBufferPointer { feed.pull(frames: 4096, into: $0) }
                got += n
                if n == 0 { feed.waitForInput(atMost: .milliseconds(200)) }
            }
            guard got >= 44_100, feed.decodingThreadEnded == false else { return false }
            feed.stop()
            // The decoding thread ends within its wait (a second), freeing its demuxer and decoder.
            while feed.decodingThreadEnded != true, ContinuousClock.now < end { usleep(10_000) }
            return feed.decodingThreadEnded == true
        }
        #expect(ended)
    }
}
