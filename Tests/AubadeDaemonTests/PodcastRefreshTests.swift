import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadePodcasts
import AubadeStore
import AubadeTesting
import Foundation
import Testing

/// The podcasts' feeds read again on their schedule by the running clock over its SQLite file, through the daemon's
/// own `PodcastLibrary` and a feed server on 127.0.0.1 (Tests/Fixtures/feed_server.py); the clock's time is the
/// rig's, so six hours pass at once.
@Suite("Podcasts: feeds read again on schedule, Wi-Fi-only, a failing feed", .serialized)
struct PodcastRefreshTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/feed_server.py").path
    static let start = try! Date("2027-03-01T05:00:00Z", strategy: .iso8601)

    static func feed(_ titles: [String]) -> String {
        """
        <?xml version="1.0"?><rss version="2.0"><channel><title>Morning News</title>
        \(titles.enumerated().map { i, t in "<item><title>\(t)</title><pubDate>0\(i + 1) Feb 2027 06:00:00 GMT</pubDate><enclosure url=\"https://news.example/\(i).mp3\" type=\"audio/mpeg\"/></item>" }.joined())
        </channel></rss>
        """
    }

    func wait(_ rig: SQLiteRig) async throws -> Duration {
        guard case .wait(let wait) = try await rig.clock.send(.refreshPodcasts) else { return .zero }
        return wait
    }

    func newest(_ rig: SQLiteRig) throws -> String? { try rig.store.podcast(named: "News")?.episodes.first?.title }

    func warnings(_ rig: SQLiteRig) async throws -> [String] {
        guard case .status(let status) = try await rig.clock.handle(.status) else { return [] }
        return status.warnings
    }

    @Test func aFeedIsReadAgainWhenDueNotBeforeAndAFailureKeepsTheEpisodes() async throws {
        let folder = try TemporaryDirectory("feeds")
        try Self.feed(["Monday"]).write(toFile: folder.file("news.xml"), atomically: true, encoding: .utf8)
        let server = try await BackgroundProcess("/usr/bin/python3", [Self.script, folder.path])
        let url = try StreamURL(parsing: "http://127.0.0.1:\(server.firstLine)/news.xml")
        let rig = try SQLiteRig(start: Self.start, podcasts: true) { store in
            let feed = try FeedFetch.feed(at: url, allowLoopback: true)
            _ = try store.apply(
                .addPodcast(
                    try Podcast(name: "News", feed: url, title: feed.title, episodes: feed.episodes, refreshedAt: Self.start)),
                zone: .gmt, now: Self.start)
        }
        await rig.start()
        try Self.feed(["Monday", "Tuesday"]).write(toFile: folder.file("news.xml"), atomically: true, encoding: .utf8)

        // Read at the start: nothing is due for six hours.
        #expect(try await wait(rig) == .seconds(6 * 3600))
        #expect(try newest(rig) == "Monday")
        rig.time.advance(to: Self.start.addingTimeInterval(6 * 3600))
        #expect(try await wait(rig) == .seconds(6 * 3600))
        #expect(try newest(rig) == "Tuesday")

        // Off Wi-Fi with Wi-Fi-only on: not downloaded, a warning, the episodes stay.
        try await rig.edit(.setSettings([SettingChange(key: "isWifi", value: .bool(true))]))
        rig.network.set(ClockRig.wired)
        try Self.feed(["Monday", "Tuesday", "Wednesday"]).write(
            toFile: folder.file("news.xml"), atomically: true, encoding: .utf8)
        rig.time.advance(to: Self.start.addingTimeInterval(12 * 3600))
        _ = try await wait(rig)
        #expect(try newest(rig) == "Tuesday")
        let offWifi = try await warnings(rig)
        #expect(offWifi.contains { $0.hasPrefix("The feed of podcast News was not read:") }, "\(offWifi)")

        // Back on Wi-Fi, the feed now broken: a warning in words, the episodes stay; mended, the warning goes.
        rig.network.set(ClockRig.wifi)
        try "<rss><channel><item></channel>".write(toFile: folder.file("news.xml"), atomically: true, encoding: .utf8)
        rig.time.advance(to: Self.start.addingTimeInterval(18 * 3600))
        _ = try await wait(rig)
        #expect(try newest(rig) == "Tuesday")
        let broken = try await warnings(rig)
        #expect(broken.contains { $0.contains("not well-formed XML") }, "\(broken)")
        try Self.feed(["Monday", "Tuesday", "Wednesday"]).write(
            toFile: folder.file("news.xml"), atomically: true, encoding: .utf8)
        rig.time.advance(to: Self.start.addingTimeInterval(24 * 3600))
        _ = try await wait(rig)
        #expect(try newest(rig) == "Wednesday")
        #expect(try await warnings(rig).allSatisfy { !$0.contains("podcast News") })
    }
}
