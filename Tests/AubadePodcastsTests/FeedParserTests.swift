import AubadeCore
import Foundation
import Testing

@testable import AubadePodcasts

/// Feeds written for the tests, read as the clock reads a podcast's feed: RSS 2.0 with iTunes tags, Atom, a feed that
/// is not well-formed, and one of 3,000 items.
@Suite("Podcast feeds (RSS 2.0, Atom)")
struct FeedParserTests {
    static func parse(_ xml: String) throws -> PodcastFeed { try FeedParser.parse(Data(xml.utf8)) }

    static let rss = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
        <channel>
          <title>Morning News</title>
          <item><title>Tuesday</title><guid>news-2</guid><pubDate>Tue, 24 Nov 2026 06:00:00 +0100</pubDate>
            <enclosure url="https://news.example/2.mp3" type="audio/mpeg" length="1234"/><itunes:duration>12:30</itunes:duration></item>
          <item><title>A trailer</title><guid>trailer</guid><pubDate>Thu, 26 Nov 2026 06:00:00 GMT</pubDate>
            <itunes:episodeType>trailer</itunes:episodeType><enclosure url="https://news.example/t.mp3" type="audio/mpeg"/></item>
          <item><title><![CDATA[Wednesday & more]]></title><guid>news-3</guid><pubDate>Wed, 25 Nov 2026 06:00:00 GMT</pubDate>
            <itunes:episodeType>full</itunes:episodeType><enclosure url="https://news.example/3.mp3" type="audio/mpeg"/></item>
          <item><title>No date</title><enclosure url="https://news.example/x.mp3" type="audio/mpeg"/></item>
          <item><title>Video</title><pubDate>Thu, 26 Nov 2026 07:00:00 GMT</pubDate><enclosure url="https://news.example/v.mp4" type="video/mp4"/></item>
          <item><title>Text only</title><pubDate>Thu, 26 Nov 2026 08:00:00 GMT</pubDate></item>
          <item><title>Monday</title><guid>news-1</guid><pubDate>23 Nov 2026 06:00:00 +0100</pubDate>
            <enclosure url="https://news.example/1.mp3"/><itunes:duration>3600</itunes:duration></item>
        </channel>
        </rss>
        """

    @Test func anRSSFeedGivesItsFullAudioEpisodesNewestFirst() throws {
        let feed = try Self.parse(Self.rss)
        #expect(feed.title == "Morning News")
        // The trailer, the video and the item without audio are left out; the undated one counts as the oldest.
        #expect(feed.episodes.map(\.title) == ["Wednesday & more", "Tuesday", "Monday", "No date"])
        let tuesday = feed.episodes[1]
        #expect(tuesday.id == "news-2" && tuesday.audio == "https://news.example/2.mp3" && tuesday.type == "audio/mpeg")
        #expect(tuesday.length == 1234 && tuesday.duration == 750)
        #expect(tuesday.published == Date(timeIntervalSince1970: 1_795_496_400))
        #expect(feed.episodes[2].duration == 3600 && feed.episodes[2].published != nil)
        #expect(feed.episodes[3].id == "https://news.example/x.mp3" && feed.episodes[3].published == nil)
    }

    @Test func anAtomFeedIsReadToo() throws {
        let feed = try Self.parse(
            """
            <?xml version="1.0"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
              <title>Atom Talks</title>
              <entry><title>Old</title><id>urn:1</id><updated>2026-11-20T05:00:00Z</updated>
                <link rel="alternate" href="https://talks.example/1"/>
                <link rel="enclosure" href="https://talks.example/1.mp3" type="audio/mpeg" length="99"/></entry>
              <entry><title>New</title><id>urn:2</id><published>2026-11-26T05:00:00.250+01:00</published>
                <link rel="enclosure" href="https://talks.example/2.mp3" type="audio/mpeg"/></entry>
            </feed>
            """)
        #expect(feed.title == "Atom Talks")
        #expect(feed.episodes.map(\.id) == ["urn:2", "urn:1"])
        #expect(feed.episodes[1].audio == "https://talks.example/1.mp3" && feed.episodes[1].length == 99)
        #expect(feed.episodes[0].published == Date(timeIntervalSince1970: 1_795_665_600.25))
    }

    @Test func aFeedsTextIsMadePlainAsItIsRead() throws {
        // A title turned around by a right-to-left override, a line break that would forge a row of
        // `aubade podcast episodes`, C1 controls, isolates and marks: none of it is kept (R40).
        let feed = try Self.parse(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Invoice&#x202E;gpj.exe</title>
              <item><title>Monday&#10;2  2026-11-25  10m  Forged row</title><guid>&#x2066;news-1&#x2069;</guid>
                <enclosure url="https://news.example/1.mp3" type="audio/mpeg&#x202E;"/></item>
              <item><title>&#x9B;2J&#x85;Tuesday&#x200F;</title><guid>news-2</guid>
                <enclosure url="https://news.example/2.mp3" type="audio/mpeg"/></item>
              <item><title>&#x202E;&#x200B;</title><enclosure url="https://news.example/3.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """)
        #expect(feed.title == "Invoicegpj.exe")
        #expect(feed.episodes.map(\.title) == ["Monday 2 2026-11-25 10m Forged row", "2J Tuesday", "Untitled"])
        #expect(feed.episodes.map(\.id) == ["news-1", "news-2", "https://news.example/3.mp3"])
        #expect(feed.episodes.allSatisfy { $0.type == "audio/mpeg" })
        #expect(try Self.parse("<rss><channel><title>&#x202E;&#10;</title></channel></rss>").title == "RSS feed")
    }

    @Test func aMalformedFeedIsRefusedNamingItsLine() {
        let error = #expect(throws: FeedParser.Refusal.self) {
            try Self.parse("<rss version=\"2.0\">\n<channel>\n<title>Broken</title>\n<item><title>x</item>\n</channel></rss>")
        }
        #expect(
            error?.description == "The feed is not well-formed XML (line 4: a closing tag does not match its opening tag).",
            "\(String(describing: error))")
        #expect(throws: FeedParser.Refusal(description: "The document is not a podcast feed (neither RSS nor Atom).")) {
            try Self.parse("<html><body>Hello</body></html>")
        }
    }

    @Test func aFeedOfThreeThousandItemsKeepsTheNewestHundred() throws {
        var xml = "<rss version=\"2.0\"><channel><title>Big</title>"
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        // Dates in a scrambled order: the newest is item 1729.
        for i in 0..<3000 {
            let day = (i * 7919) % 3000
            xml +=
                "<item><title>E\(i)</title><pubDate>\(formatter.string(from: start.addingTimeInterval(Double(day) * 86_400)))</pubDate>"
            xml += "<enclosure url=\"https://big.example/\(i).mp3\" type=\"audio/mpeg\"/></item>"
        }
        let feed = try Self.parse(xml + "</channel></rss>")
        #expect(feed.episodes.count == PodcastFeed.kept)
        #expect(feed.episodes.first?.title == "E\((0..<3000).max { ($0 * 7919) % 3000 < ($1 * 7919) % 3000 }!)")
        #expect(zip(feed.episodes, feed.episodes.dropFirst()).allSatisfy { $0.published! > $1.published! })
    }

    @Test(arguments: [
        ("Wed, 25 Nov 2026 06:00:00 GMT", 1_795_586_400.0), ("Wed, 25 Nov 2026 07:00:00 +0100", 1_795_586_400),
        ("Wed, 25 Nov 2026 06:00 GMT", 1_795_586_400), ("25 Nov 2026 06:00:00 +0000", 1_795_586_400),
        ("Wed, 5 Nov 2026 06:00:00 GMT", 1_793_858_400), ("2026-11-25T06:00:00Z", 1_795_586_400),
        ("2026-11-25T07:00:00+01:00", 1_795_586_400),
    ])
    func feedDates(text: String, seconds: Double) {
        #expect(FeedDate.parse(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test func unreadableDatesAndDurationsAreNone() {
        #expect(FeedDate.parse("yesterday") == nil && FeedDate.parse("") == nil)
        #expect(FeedDate.duration("1:02:03") == 3723 && FeedDate.duration("90") == 90 && FeedDate.duration("12:30.5") == 750)
        #expect(FeedDate.duration("long") == nil && FeedDate.duration("1:2:3:4") == nil)
    }
}
