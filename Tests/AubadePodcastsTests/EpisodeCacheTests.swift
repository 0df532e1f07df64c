import AubadeCore
import AubadeTesting
import Foundation
import Testing

@testable import AubadePodcasts

/// The episodes' cache beside the database: a download kept whole or not at all, refused when it is a web page or
/// too large, and the folder trimmed to its budget — oldest first, never an episode an alarm still needs.
@Suite("Episode cache", .serialized)
struct EpisodeCacheTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/feed_server.py").path

    static func episode(_ base: String, _ name: String) -> PodcastEpisode {
        PodcastEpisode(id: name, title: name, published: nil, audio: "\(base)/\(name)")
    }

    @Test func downloadsAreWholeRefusedWhenNotEpisodesAndTheFolderKeepsToItsBudget() async throws {
        let served = try TemporaryDirectory("served")
        for name in ["a.mp3", "b.mp3", "c.mp3"] {
            try Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) }).write(to: URL(fileURLWithPath: served.file(name)))
        }
        try "<html>gone</html>".write(toFile: served.file("page.html"), atomically: true, encoding: .utf8)
        let server = try await BackgroundProcess("/usr/bin/python3", [Self.script, served.path, served.file("log")])
        let base = "http://127.0.0.1:\(server.firstLine)"
        let db = try TemporaryDirectory("db")
        let cache = EpisodeCache(
            databasePath: db.file("aubade.sqlite"), allowLoopback: true, maxEpisodeBytes: 150_000, budget: 250_000)
        let (a, b, c) = (Self.episode(base, "a.mp3"), Self.episode(base, "b.mp3"), Self.episode(base, "c.mp3"))

        #expect(cache.file(of: a) == nil)
        let fileA = try cache.download(a, within: .seconds(60), keeping: [])
        #expect(fileA.hasPrefix(db.file("aubade.sqlite.episodes/")) && cache.file(of: a) == fileA)
        #expect(try Data(contentsOf: URL(fileURLWithPath: fileA)).count == 100_000)
        // Already here: not fetched again.
        _ = try cache.download(a, within: .seconds(60), keeping: [])
        let log = try String(contentsOfFile: served.file("log"), encoding: .utf8)
        #expect(log.components(separatedBy: "/a.mp3").count == 2, "\(log)")

        // Three of 100 kB over a 250-kB budget: the oldest that no alarm needs goes (b), not a (kept), not c (new).
        _ = try cache.download(b, within: .seconds(60), keeping: [])
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: fileA)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -1800)], ofItemAtPath: cache.path(of: b))
        // A download cut off two days ago left its temporary file; one running now has a fresh one.
        let leftover = cache.path(of: c) + ".cut.part"
        let running = cache.path(of: c) + ".running.part"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: leftover))
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: running))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -2 * 86_400)], ofItemAtPath: leftover)
        _ = try cache.download(c, within: .seconds(60), keeping: [a])
        #expect(cache.file(of: a) != nil && cache.file(of: b) == nil && cache.file(of: c) != nil)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cache.folder).sorted()
                == [fileA, cache.path(of: c), running].map { ($0 as NSString).lastPathComponent }.sorted())

        // A web page, a missing file and a file over the cap: one sentence each, nothing left behind.
        let refusals: [(PodcastEpisode, String)] = [
            (Self.episode(base, "page.html"), "answered with a web page (text/html), not an episode"),
            (Self.episode(base, "nothing.mp3"), "HTTP 404"),
        ]
        for (episode, words) in refusals {
            let error = #expect(throws: PodcastFetchError.self) { try cache.download(episode, within: .seconds(60), keeping: []) }
            #expect(error?.message.contains(words) == true, "\(error?.message ?? "")")
            #expect(cache.file(of: episode) == nil)
        }
        let small = EpisodeCache(databasePath: db.file("other.sqlite"), allowLoopback: true, maxEpisodeBytes: 50_000)
        let tooLarge = #expect(throws: PodcastFetchError.self) { try small.download(b, within: .seconds(60), keeping: []) }
        #expect(
            tooLarge?.message.contains("announces 100000 bytes, more than the 50000 bytes this clock takes") == true,
            "\(tooLarge?.message ?? "")")
        #expect(!FileManager.default.fileExists(atPath: small.folder), "refused before a byte: not even the folder is made")
    }

    @Test func twoChecksOfOneEpisodeDownloadItOnceAndBothGetTheFile() async throws {
        let served = try TemporaryDirectory("served")
        try Data(repeating: 7, count: 2_000_000).write(to: URL(fileURLWithPath: served.file("big.mp3")))
        let server = try await BackgroundProcess("/usr/bin/python3", [Self.script, served.path, served.file("log")])
        let db = try TemporaryDirectory("db")
        let cache = EpisodeCache(databasePath: db.file("aubade.sqlite"), allowLoopback: true)
        let episode = Self.episode("http://127.0.0.1:\(server.firstLine)", "big.mp3")
        async let first = onThread("aubade-test-a") { try? cache.download(episode, within: .seconds(120), keeping: []) }
        async let second = onThread("aubade-test-b") { try? cache.download(episode, within: .seconds(120), keeping: []) }
        let (a, b) = await (first, second)
        #expect(a != nil && a == b && a == cache.file(of: episode))
        let log = try String(contentsOfFile: served.file("log"), encoding: .utf8)
        #expect(log.components(separatedBy: "/big.mp3").count == 2, "\(log)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(a))).count == 2_000_000)
    }

    /// How many requests for `name` the server logged.
    static func requests(_ served: TemporaryDirectory, _ name: String) throws -> Int {
        let log = (try? String(contentsOfFile: served.file("log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0.hasPrefix("/\(name)") }.count
    }

    /// An episode announced larger than the cap — by its feed or by the server — is refused before a byte of it is
    /// written: the episodes' folder is never even made. The refusal is remembered, so a second check (the
    /// look-ahead's next hour) does not ask again; the same episode changed by its feed is tried again.
    @Test func anEpisodeAnnouncedOverTheCapIsRefusedBeforeAByteAndAskedForOnce() async throws {
        let served = try TemporaryDirectory("served")
        try Data(repeating: 7, count: 100_000).write(to: URL(fileURLWithPath: served.file("big.mp3")))
        let server = try await BackgroundProcess("/usr/bin/python3", [Self.script, served.path, served.file("log")])
        let base = "http://127.0.0.1:\(server.firstLine)"
        let db = try TemporaryDirectory("db")
        let cache = EpisodeCache(databasePath: db.file("aubade.sqlite"), allowLoopback: true)

        // The feed says 2 GiB: not even asked for.
        let byFeed = PodcastEpisode(
            id: "a", title: "A", published: nil, audio: "\(base)/big.mp3", length: 2_147_483_648)
        let first = #expect(throws: PodcastFetchError.self) { try cache.download(byFeed, within: .seconds(30), keeping: []) }
        #expect(
            first?.message
                == "The episode is not downloaded: its feed announces 2 GiB, more than the 512 MiB an episode may take. It is not tried again until its feed changes it."
        )
        #expect(try Self.requests(served, "big.mp3") == 0)

        // The server says 2 GiB (Content-Length): asked for once, refused at the answer's head, twice the same.
        let byServer = Self.episode(base, "big.mp3?length=2147483648")
        for _ in 0..<2 {
            let error = #expect(throws: PodcastFetchError.self) {
                try cache.download(byServer, within: .seconds(30), keeping: [])
            }
            #expect(
                error?.message
                    == "The episode is not downloaded: \(base)/big.mp3?length=2147483648 announces 2 GiB, more than the 512 MiB this clock takes for an episode. It is not tried again until its feed changes it."
            )
        }
        #expect(try Self.requests(served, "big.mp3") == 1)
        #expect(!FileManager.default.fileExists(atPath: cache.folder), "nothing was written, not even the folder")

        // The feed changes the episode (its announced length): it is another episode, and is tried again.
        var changed = byServer
        changed.length = 100_000
        #expect(throws: PodcastFetchError.self) { try cache.download(changed, within: .seconds(30), keeping: []) }
        #expect(try Self.requests(served, "big.mp3") == 2)
        withExtendedLifetime(server) {}
    }

    /// A server that announces nothing (or the feed a small size) and sends more is still cut at the cap, nothing
    /// kept, and not asked again.
    @Test func anEpisodeThatSendsMoreThanTheCapIsCutThereAndAskedForOnce() async throws {
        let served = try TemporaryDirectory("served")
        try Data(repeating: 7, count: 100_000).write(to: URL(fileURLWithPath: served.file("liar.mp3")))
        let server = try await BackgroundProcess("/usr/bin/python3", [Self.script, served.path, served.file("log")])
        let db = try TemporaryDirectory("db")
        let cache = EpisodeCache(databasePath: db.file("aubade.sqlite"), allowLoopback: true, maxEpisodeBytes: 50_000)
        var liar = Self.episode("http://127.0.0.1:\(server.firstLine)", "liar.mp3?nolength")
        liar.length = 1_000
        for _ in 0..<2 {
            let error = #expect(throws: PodcastFetchError.self) { try cache.download(liar, within: .seconds(30), keeping: []) }
            #expect(error?.message.contains("sends more than 50000 bytes") == true, "\(error?.message ?? "")")
        }
        #expect(try Self.requests(served, "liar.mp3") == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.folder).isEmpty)
        withExtendedLifetime(server) {}
    }

    @Test func anEpisodeOnThisMachineIsRefusedUnlessAllowed() async throws {
        let db = try TemporaryDirectory("db")
        let cache = EpisodeCache(databasePath: db.file("aubade.sqlite"), allowLoopback: false)
        let error = #expect(throws: PodcastFetchError.self) {
            try cache.download(Self.episode("http://127.0.0.1:9", "a.mp3"), within: .seconds(30), keeping: [])
        }
        #expect(error?.message.contains("refused") == true, "\(error?.message ?? "")")
    }
}
