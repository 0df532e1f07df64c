import AubadeCore
import AubadeTesting
import Foundation
import Testing

@testable import AubadeAudio

/// A podcast's episode as the engine reads it: from its file, or fetched from a byte on — with an HTTP range, or
/// from a server that ignores ranges (the bytes before skipped) — the same audio either way, ending where the
/// episode ends, each decoded frame traced back to its byte.
@Suite("Episodes: files, ranges, the end, positions", .serialized)
struct EpisodeFeedTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/feed_server.py").path

    /// What a feed did: everything it decoded until it played to its end (or failed), and the byte of every 4096th
    /// frame.
    struct Decoded: Sendable {
        var pcm: [Int16] = []
        var failure: String?
        var playedToEnd = false
        var failedForGood = false
        var marks: [Int64] = []
    }

    static func decodeAll(_ source: FeedSource) async -> Decoded {
        await onThread("aubade-test-episode") {
            let got = read(source)
            var d = Decoded(pcm: got.pcm, failure: got.failure)
            d.playedToEnd = got.feed.playedToEnd
            d.failedForGood = got.feed.failedForGood
            d.marks = stride(from: Int64(0), through: Int64(got.pcm.count / 2), by: 4096).map { got.feed.byte(atFrame: $0) }
            got.feed.stop()
            return d
        }
    }

    private static func read(_ source: FeedSource) -> (pcm: [Int16], feed: StationFeed, failure: String?) {
        let feed = StationFeed(source: source, rate: SoundEngine.rate, allowLoopback: true) { _ in }
        var pcm: [Int16] = []
        var buffer = [Int16](repeating: 0, count: 2 * 4096)
        let deadline = ContinuousClock.now + EventProcess.watchdog
        while !feed.playedToEnd, ContinuousClock.now < deadline {
            let n = buffer.withUnsafeMutableBufferPointer { feed.pull(frames: 4096, into: $0) }
            if n > 0 {
                pcm += buffer[0..<(2 * n)]
                continue
            }
            if let failure = feed.takeFailure() { return (pcm, feed, failure) }
            feed.waitForInput(atMost: .milliseconds(200))
        }
        return (pcm, feed, nil)
    }

    /// An M4A episode downloaded before its alarm plays from its file whichever end its index (`moov`) is at: the
    /// file is read seekable; the same file streamed can be read only with its index first, and says why not.
    @Test func anM4AEpisodePlaysFromItsFileWhereverItsIndexIs() async throws {
        let dir = try TemporaryDirectory("episode-m4a")
        for format in [TestMedia.Format.m4a, .m4aIndexLast] {
            let path = try await TestMedia.sine(format, frequency: 523, seconds: 3, in: dir)
            let got = await Self.decodeAll(.episode(EpisodeAudio(origin: .file(path: path), fromByte: 0, title: "M4A")))
            #expect(got.failure == nil && got.playedToEnd, "\(format): \(String(describing: got.failure))")
            // Three seconds of it, give or take the encoder's priming and padding (one AAC frame, 23 ms, each).
            #expect(abs(got.pcm.count / 2 - 3 * 44_100) < 2048, "\(format): \(got.pcm.count / 2) frames")
            let middle = Signal.left(Array(got.pcm[88_200..<(88_200 + 8820)]))
            #expect(Signal.power(at: 523, middle) > 100 * Signal.power(at: 660, middle), "\(format)")
        }
        let server = try await BackgroundProcess("/usr/bin/python3", [Self.script, dir.path, dir.file("log")])
        let late = "http://127.0.0.1:\(server.firstLine)/sine-523-3-44100-2.late.m4a"
        let streamed = await Self.decodeAll(
            .episode(EpisodeAudio(origin: .stream(try StreamURL(parsing: late)), fromByte: 0, title: "M4A")))
        #expect(streamed.failure?.hasPrefix("The MP4 stream is not decodable") == true, "\(String(describing: streamed.failure))")
    }

    @Test func anEpisodeFromAByteIsTheSameAudioFromItsFileARangeOrAServerThatIgnoresRanges() async throws {
        let dir = try TemporaryDirectory("episode")
        let mp3 = try await TestMedia.partsMP3([(440, 3), (660, 3)], name: "talk", in: dir)
        let server = try await BackgroundProcess("/usr/bin/python3", [Self.script, dir.path, dir.file("log")])
        let base = "http://127.0.0.1:\(server.firstLine)/talk.mp3"
        let from: Int64 = 3 * 16_000  // 3 s at 128 kbps: the 660-Hz part
        let title = "Talk"
        let file = await Self.decodeAll(.episode(EpisodeAudio(origin: .file(path: mp3), fromByte: from, title: title)))
        let ranged = await Self.decodeAll(
            .episode(EpisodeAudio(origin: .stream(try StreamURL(parsing: base)), fromByte: from, title: title)))
        let ignored = await Self.decodeAll(
            .episode(EpisodeAudio(origin: .stream(try StreamURL(parsing: base + "?norange")), fromByte: from, title: title)))
        #expect(file.failure == nil && ranged.failure == nil && ignored.failure == nil)
        #expect(file.playedToEnd && ranged.playedToEnd && ignored.playedToEnd)
        #expect(!file.pcm.isEmpty && file.pcm == ranged.pcm && file.pcm == ignored.pcm)
        // About the last 3 s of the episode, all of the 660-Hz part.
        let seconds = Double(file.pcm.count / 2) / Double(SoundEngine.rate)
        #expect(seconds > 2.5 && seconds < 3.5, "\(seconds) s")
        #expect(Signal.isTone(660, over: 440, in: file.pcm[...]))
        let log = try String(contentsOfFile: dir.file("log"), encoding: .utf8)
        #expect(log.contains("\tbytes=\(from)-"), "\(log)")

        // Positions: a frame's byte is at or before where it came from, never before the start, rising.
        let marks = file.marks
        #expect(marks.first == from && marks == marks.sorted())
        #expect(marks.last! > from && marks.last! <= from + Int64(seconds * 16_000) + 1)
    }

    @Test func aFileThatIsMissingIsAFailureForGoodNotAnEnd() async throws {
        let got = await Self.decodeAll(.episode(EpisodeAudio(origin: .file(path: "/nonexistent/ep.mp3"), title: "Gone")))
        #expect(got.failure?.hasPrefix("The episode's file cannot be opened") == true, "\(got.failure ?? "")")
        #expect(!got.playedToEnd && got.failedForGood)
    }

    @Test func aRangeAtTheEndIsTheEpisodesEnd() async throws {
        let dir = try TemporaryDirectory("episode-end")
        let mp3 = try await TestMedia.sineMP3(frequency: 440, seconds: 1, in: dir)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: mp3)[.size] as? Int)
        let server = try await BackgroundProcess("/usr/bin/python3", [Self.script, dir.path])
        let url = try StreamURL(parsing: "http://127.0.0.1:\(server.firstLine)/\((mp3 as NSString).lastPathComponent)")
        let got = await Self.decodeAll(.episode(EpisodeAudio(origin: .stream(url), fromByte: Int64(size), title: "Done")))
        #expect(got.failure == nil && got.pcm.isEmpty && got.playedToEnd)
    }
}
