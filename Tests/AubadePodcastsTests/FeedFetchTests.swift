import AubadeCore
import AubadeTesting
import Foundation
import Testing

@testable import AubadePodcasts

/// Feeds fetched as the clock fetches them — curl from a feed server on 127.0.0.1 (Tests/Fixtures/feed_server.py),
/// then libxml2 through Foundation's XMLParser — at the size cap: a feed of exactly `FeedFetch.maxBytes` is read
/// whole (libxml2 given a document at once stops at 10,000,000 bytes), one byte more is refused in one sentence.
@Suite("Podcast feeds at the size cap", .serialized)
struct FeedFetchTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/feed_server.py").path

    /// An RSS feed of `bytes` bytes exactly: items of about 300 bytes, each a day older than the one before, and a
    /// comment at the end to make up the size.
    static func feed(bytes: Int) -> (xml: Data, items: Int) {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>Big Archive</title>\n"
        let end = "</channel></rss>\n"
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        var items = 0
        while true {
            let day = start.addingTimeInterval(Double(-items) * 86_400).formatted(.iso8601)
            let item =
                "<item><title>Episode \(items): a title as long as a real one</title><guid>archive-\(items)</guid>"
                + "<pubDate>\(day)</pubDate><enclosure url=\"https://archive.example/\(items).mp3\" type=\"audio/mpeg\""
                + " length=\"12345678\"/></item>\n"
            guard xml.utf8.count + item.utf8.count + end.utf8.count + 8 <= bytes else { break }
            xml += item
            items += 1
        }
        let padding = bytes - xml.utf8.count - end.utf8.count - 8
        xml += "<!--" + String(repeating: " ", count: padding) + "-->\n" + end
        return (Data(xml.utf8), items)
    }

    @Test func aFeedAsLargeAsTheCapIsReadWholeAndOneByteMoreIsRefused() async throws {
        let folder = try TemporaryDirectory("feeds")
        let (full, items) = Self.feed(bytes: FeedFetch.maxBytes)
        #expect(full.count == 16_777_216 && items > 70_000, "\(full.count) bytes, \(items) items")
        try full.write(to: URL(fileURLWithPath: folder.file("full.xml")))
        try Self.feed(bytes: 11_900_000).xml.write(to: URL(fileURLWithPath: folder.file("issue.xml")))
        try Self.feed(bytes: FeedFetch.maxBytes + 1).xml.write(to: URL(fileURLWithPath: folder.file("over.xml")))
        let server = try await BackgroundProcess("/usr/bin/python3", [Self.script, folder.path])
        let base = "http://127.0.0.1:\(server.firstLine)"

        // 16 MiB: every item read (the newest hundred kept), none lost past libxml2's 10,000,000 bytes.
        let feed = try FeedFetch.feed(at: try StreamURL(parsing: "\(base)/full.xml"), allowLoopback: true)
        #expect(feed.title == "Big Archive" && feed.episodes.count == PodcastFeed.kept)
        #expect(feed.episodes.first?.id == "archive-0" && feed.episodes.last?.id == "archive-99")
        // The size of the feed of the issue (11.9 MB, refused before as "line 62004: XML error 1").
        let issue = try FeedFetch.feed(at: try StreamURL(parsing: "\(base)/issue.xml"), allowLoopback: true)
        #expect(issue.episodes.count == PodcastFeed.kept)

        // One byte over: refused as announced, before the first byte is read into memory.
        let refused = #expect(throws: FeedParser.Refusal.self) {
            try FeedFetch.feed(at: try StreamURL(parsing: "\(base)/over.xml"), allowLoopback: true)
        }
        #expect(
            refused?.description
                == "\(base)/over.xml announces 16777217 bytes, more than the 16 MiB this clock takes for a podcast feed.")
        // Sent without its size: cut at the cap.
        let unannounced = #expect(throws: FeedParser.Refusal.self) {
            try FeedFetch.feed(at: try StreamURL(parsing: "\(base)/over.xml?nolength"), allowLoopback: true)
        }
        #expect(
            unannounced?.description
                == "\(base)/over.xml?nolength sends more than 16 MiB; that is not a podcast feed this clock reads.")
        withExtendedLifetime(server) {}
    }

    @Test func theParserRefusesADocumentOverTheCapInOneSentence() {
        let over = Data(count: FeedFetch.maxBytes + 1)
        #expect(
            throws: FeedParser.Refusal(
                description: "The feed is 16777217 bytes long; this clock reads feeds of at most 16 MiB.")
        ) { try FeedParser.parse(over) }
    }
}
