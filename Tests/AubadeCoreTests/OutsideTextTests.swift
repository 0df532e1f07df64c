import AubadeCore
import Foundation
import Testing

/// Text from outside the clock made plain where it enters (R40): the attacks found in feeds and the directory,
/// what stays, the cut at a limit, the names made from such text, and the log's escaped form of a message.
@Suite("Outside text: made plain where it enters")
struct OutsideTextTests {
    @Test(arguments: [
        // A file name turned around by a right-to-left override, and the isolates and marks.
        ("Invoice\u{202E}gpj.exe", "Invoicegpj.exe"),
        ("\u{2066}a\u{2067}b\u{2068}c\u{2069}\u{200E}d\u{200F}e\u{061C}f\u{202A}g\u{202B}h\u{202C}i\u{202D}", "abcdefghi"),
        // A line break that would forge a row of `aubade podcast episodes`, and runs of spaces.
        ("Monday\n2  2026-11-25  10m  Forged row", "Monday 2 2026-11-25 10m Forged row"),
        ("  \t Tab\tCR\r\nNEL\u{85}LS\u{2028}PS\u{2029}VT\u{0B}FF\u{0C}end \n", "Tab CR NEL LS PS VT FF end"),
        // C0 and C1 controls (a terminal's escape and control sequence introducers), DEL.
        ("Jazz\u{1B}]0;owned\u{07} FM\u{9B}2J\u{7F}\u{0}", "Jazz]0;owned FM2J"),
        // Invisible format characters: zero-width space, soft hyphen, byte-order mark, word joiner, language tag,
        // an interlinear annotation, and tags that would smuggle text ("AB") after a letter.
        ("a\u{200B}b\u{AD}c\u{FEFF}d\u{2060}e\u{E0001}f\u{FFF9}g", "abcdefg"),
        ("hello\u{E0041}\u{E0042}", "hello"),
        // A lone no-break space stays; one among other spaces is part of a run.
        ("10\u{A0}km", "10\u{A0}km"),
        ("10 \u{A0} km", "10 km"),
        ("\u{202E}\n\u{200B}", ""),
    ])
    func theAttacksAreMadePlain(_ raw: String, _ plain: String) {
        #expect(OutsideText.clean(raw, limit: 200) == plain)
    }

    @Test func noncharactersGo() {
        // Swift's string literals refuse them: made from their code points.
        let raw = String(String.UnicodeScalarView([0x78, 0xFFFE, 0x79, 0xFDD0, 0x7A, 0x10FFFF].compactMap(Unicode.Scalar.init)))
        #expect(raw.unicodeScalars.count == 6 && OutsideText.clean(raw, limit: 200) == "xyz")
    }

    @Test(arguments: [
        "Ünïcödé – 日本語, Привет, مرحبا, שלום, नमस्ते, ไทย, 한국어, Ελληνικά", "می\u{200C}خواهم (a Persian zero-width non-joiner)",
        "👍🏽 👨‍👩‍👧‍👦 🏳️‍🌈 🇫🇷🇩🇪 1️⃣ ❤️", "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Scotland",
        "«¿Qué?» — ¡Sí! [a] {b} (c) 50% #1 @home & co…",
        "\u{0600}\u{0661}\u{0662} an Arabic number sign over its digits",
    ])
    func ordinaryTextIsKeptAsItCame(_ text: String) {
        #expect(OutsideText.clean(text, limit: 200) == text)
    }

    @Test func theCutCountsCharactersAndNeverSplitsOne() {
        let family = "👨‍👩‍👧‍👦"
        #expect(OutsideText.clean(family + family, limit: 1) == family)
        #expect(OutsideText.clean("e\u{301}te\u{301}", limit: 1) == "e\u{301}")
        #expect(OutsideText.clean("🇫🇷🇩🇪", limit: 1) == "🇫🇷")
        // A cut that ends on a space is trimmed again.
        #expect(OutsideText.clean("one two", limit: 4) == "one")
        #expect(OutsideText.clean("anything", limit: 0) == "")
        // At most 8 tags follow a flag: no flag can carry a hidden sentence.
        let long = "🏴" + String(String.UnicodeScalarView((0..<20).map { Unicode.Scalar(0xE0061 + $0)! }))
        #expect(OutsideText.clean(long, limit: 10).unicodeScalars.count == 9)
    }

    @Test func namesMadeFromAFeedsTitleArePlainAndFitANamesLength() throws {
        #expect(Podcast.name(fromTitle: "Invoice\u{202E}gpj.exe") == "Invoicegpj.exe")
        #expect(Podcast.name(fromTitle: " Morning\nNews ") == "Morning News")
        // 64 Unicode scalars at most, as a name is counted: twenty families (7 scalars each) give nine whole ones.
        let families = Podcast.name(fromTitle: String(repeating: "👨‍👩‍👧‍👦", count: 20))
        #expect(families == String(repeating: "👨‍👩‍👧‍👦", count: 9))
        #expect(try Podcast.validName(families) == families)
        #expect(Names.cut("ab👨‍👩‍👧‍👦", to: 8) == "ab")
    }

    @Test func aPodcastKeepsItsTitlesPlainWhateverReachesIt() throws {
        let feed = try StreamURL(parsing: "https://news.example/feed.xml")
        let episode = PodcastEpisode(id: "1", title: "Monday\n2  x\u{202E}y", published: nil, audio: "https://news.example/1.mp3")
        let podcast = try Podcast(
            name: "News", feed: feed, title: "News\u{2067}\r\n", episodes: [episode], refreshedAt: Date(timeIntervalSince1970: 0))
        #expect(podcast.title == "News" && podcast.episodes.map(\.title) == ["Monday 2 xy"])
        let refreshed = podcast.refreshed(with: PodcastFeed(title: "\u{9B}News", episodes: [episode]), at: .distantFuture)
        #expect(refreshed.title == "News" && refreshed.episodes.map(\.title) == ["Monday 2 xy"])
    }

    @Test func aMessageIsLoggedEscapedOnOneLine() {
        let payload = "dance\n2026-01-01T00:00:00+0000 critical : forged\u{202E}gpj.exe\\\t\r\u{1B}[2J\u{2028}"
        let escaped = OutsideText.escaped(payload, limit: 200)
        #expect(escaped == #"dance\n2026-01-01T00:00:00+0000 critical : forged\u{202E}gpj.exe\\\t\r\u{1B}[2J\u{2028}"#)
        #expect(!escaped.contains("\n") && !escaped.unicodeScalars.contains("\u{202E}"))
        #expect(OutsideText.escaped("abcdef", limit: 3) == "abc…")
        #expect(OutsideText.escaped("Ünïcödé 👍🏽", limit: 20) == "Ünïcödé 👍🏽")
    }
}
