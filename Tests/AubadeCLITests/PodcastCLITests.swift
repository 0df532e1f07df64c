import AubadeTesting
import Foundation
import GRDB
import Testing

/// `aubade podcast` as a user runs it, against feeds written for the test on a local server.
@Suite("podcast (CLI)", .serialized)
struct PodcastCLITests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/feed_server.py").path

    static func feed(_ items: [(title: String, date: String, file: String)]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Morning News</title>
        \(items.map { "<item><title>\($0.title)</title><pubDate>\($0.date)</pubDate><enclosure url=\"https://news.example/\($0.file)\" type=\"audio/mpeg\"/><itunes:duration>10:00</itunes:duration></item>" }.joined(separator: "\n"))
        </channel></rss>
        """
    }

    @Test func aPodcastIsFollowedListedRefreshedAndRemoved() async throws {
        let h = try CLIHarness()
        let folder = try TemporaryDirectory("feeds")
        try Self.feed([
            ("Monday", "Mon, 23 Nov 2026 06:00:00 GMT", "1.mp3"), ("Tuesday", "Tue, 24 Nov 2026 06:00:00 GMT", "2.mp3"),
        ])
        .write(toFile: folder.file("news.xml"), atomically: true, encoding: .utf8)
        try "<html>hello</html>".write(toFile: folder.file("page.html"), atomically: true, encoding: .utf8)
        try "<rss><channel><item></channel></rss>".write(toFile: folder.file("broken.xml"), atomically: true, encoding: .utf8)
        let server = try await BackgroundProcess("/usr/bin/python3", [Self.script, folder.path])
        let base = "http://127.0.0.1:\(server.firstLine)"

        // Behind three redirects, as feeds moved to a host often are.
        let added = try await h.run(["podcast", "add", "\(base)/redirect/3/news.xml", "--name", "News", "--allow-local"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "Added podcast 1: News, 2 episode(s); the newest: Tuesday (2026-11-24).\n")
        let episodes = try await h.run(["podcast", "episodes", "News"])
        #expect(
            episodes.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: " ").first.map(String.init) } == [
                "1", "2",
            ])
        #expect(episodes.stdout.contains("Tuesday") && episodes.stdout.contains("10m"))

        // A new episode appears in the feed; refresh reads it.
        try Self.feed([
            ("Monday", "Mon, 23 Nov 2026 06:00:00 GMT", "1.mp3"), ("Tuesday", "Tue, 24 Nov 2026 06:00:00 GMT", "2.mp3"),
            ("Wednesday", "Wed, 25 Nov 2026 06:00:00 GMT", "3.mp3"),
        ]).write(toFile: folder.file("news.xml"), atomically: true, encoding: .utf8)
        let refreshed = try await h.run(["podcast", "refresh", "--allow-local"])
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(refreshed.stdout == "News: 3 episode(s); the newest: Wednesday (2026-11-25).\n")
        let json = try h.json(try await h.run(["podcast", "episodes", "news", "--json", "--limit", "1"]).stdout)
        #expect((json["episodes"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Wednesday"])
        #expect((json["episodes"] as? [[String: Any]])?.first?["audio"] as? String == "https://news.example/3.mp3")

        // A feed that is now broken keeps the episodes read before, says why, and exits 1.
        try "<rss><channel><item></channel>".write(toFile: folder.file("news.xml"), atomically: true, encoding: .utf8)
        let failed = try await h.run(["podcast", "refresh", "News", "--allow-local"])
        #expect(failed.status == 1)
        #expect(failed.stderr.hasPrefix("aubade: News: The feed is not well-formed XML (line 1: "), "\(failed.stderr)")
        let listed = try h.json(try await h.run(["podcast", "list", "--json"]).stdout)
        #expect(((listed["podcasts"] as? [[String: Any]])?.first?["episodes"] as? [Any])?.count == 3)

        let removed = try await h.run(["podcast", "rm", "News"])
        #expect(removed.stdout == "Removed podcast 1 (News).\n")
        #expect(try await h.run(["podcast", "list"]).stdout.hasPrefix("No podcasts."))
    }

    @Test func badFeedsAndNamesAreOneSentenceAndStoreNothing() async throws {
        let h = try CLIHarness()
        let folder = try TemporaryDirectory("feeds")
        try "<html>hello</html>".write(toFile: folder.file("page.html"), atomically: true, encoding: .utf8)
        try "<rss><channel><title>x</title><item></channel></rss>".write(
            toFile: folder.file("broken.xml"), atomically: true, encoding: .utf8)
        let server = try await BackgroundProcess("/usr/bin/python3", [Self.script, folder.path])
        let base = "http://127.0.0.1:\(server.firstLine)"
        let cases: [([String], Int32, String)] = [
            (
                ["podcast", "add", "\(base)/page.html", "--allow-local"], 1,
                "\(base)/page.html answered with a web page (text/html), not a podcast feed."
            ),
            (["podcast", "add", "\(base)/broken.xml", "--allow-local"], 1, "The feed is not well-formed XML (line 1: "),
            (
                ["podcast", "add", "\(base)/missing.xml", "--allow-local"], 1,
                "The server answered HTTP 404 (\(base)/missing.xml)."
            ),
            (["podcast", "add", "\(base)/broken.xml"], 1, "resolves to a loopback address, which is refused"),
            (["podcast", "add", "ftp://news.example/feed.xml"], 2, "Stream URLs must use http or https, not 'ftp'."),
            (["podcast", "add", "\(base)/broken.xml", "--name", "News#1"], 2, "Podcast name 'News#1' is reserved"),
        ]
        for (args, status, sentence) in cases {
            let result = try await h.run(args)
            #expect(result.status == status, "\(args): \(result.stderr)")
            #expect(
                result.errorSentence?.contains(sentence) == true || result.errorSentence?.hasPrefix(sentence) == true,
                "\(args): \(result.stderr)")
        }
        #expect(try await h.run(["podcast", "list"]).stdout.hasPrefix("No podcasts."))
        withExtendedLifetime(server) {}
    }

    /// A feed's text is anyone's (R40): a title turned around by a right-to-left override names the podcast plainly,
    /// an episode title with a line break, C1 controls and an isolate is one plain row of `podcast episodes`, and
    /// the SQLite file holds the plain text.
    @Test func aFeedsTitlesArePlainInTheFileAndEachEpisodeIsOneRow() async throws {
        let h = try CLIHarness()
        let folder = try TemporaryDirectory("feeds")
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Invoice&#x202E;gpj.exe</title>
        <item><title>Monday&#10;2  2026-11-25  10m  Forged row</title><pubDate>Mon, 23 Nov 2026 06:00:00 GMT</pubDate>
          <enclosure url="https://news.example/1.mp3" type="audio/mpeg"/></item>
        <item><title>&#x9B;2JTuesday&#x2067; &#x85;live</title><pubDate>Tue, 24 Nov 2026 06:00:00 GMT</pubDate>
          <enclosure url="https://news.example/2.mp3" type="audio/mpeg"/></item>
        </channel></rss>
        """.write(toFile: folder.file("invoice.xml"), atomically: true, encoding: .utf8)
        let server = try await BackgroundProcess("/usr/bin/python3", [Self.script, folder.path])

        let added = try await h.run(["podcast", "add", "http://127.0.0.1:\(server.firstLine)/invoice.xml", "--allow-local"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "Added podcast 1: Invoicegpj.exe, 2 episode(s); the newest: 2JTuesday live (2026-11-24).\n")
        let episodes = try await h.run(["podcast", "episodes", "Invoicegpj.exe"])
        #expect(
            episodes.stdout == """
                #  PUBLISHED   LENGTH  TITLE
                1  2026-11-24  -       2JTuesday live
                2  2026-11-23  -       Monday 2 2026-11-25 10m Forged row

                """, "\(episodes.stdout)")

        let q = try DatabaseQueue(path: h.db)
        defer { try? q.close() }
        let row = try #require(try q.read { try Row.fetchOne($0, sql: "SELECT name, title, episodes FROM podcasts") })
        #expect(row["name"] as String == "Invoicegpj.exe" && row["title"] as String == "Invoicegpj.exe")
        let stored = try JSONSerialization.jsonObject(with: Data((row["episodes"] as String).utf8)) as? [[String: Any]]
        #expect(stored?.map { $0["title"] as? String } == ["2JTuesday live", "Monday 2 2026-11-25 10m Forged row"])
    }
}
