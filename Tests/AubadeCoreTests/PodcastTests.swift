import AubadeCore
import Foundation
import Testing

/// What a podcast keeps of its feed: the newest episodes while they fit the control socket's line, titles cut,
/// and a name that keeps `podcast:<name>#<n>` unambiguous.
@Suite("Podcasts: what is kept")
struct PodcastTests {
    static let feed = try! StreamURL(parsing: "https://news.example/feed.xml")

    @Test func theNewestEpisodesAreKeptWhileTheyFitTheBudget() throws {
        let long = String(repeating: "é", count: 5_000)
        let episodes =
            (0..<100).map { i in
                PodcastEpisode(
                    id: String(repeating: "x", count: 1_000), title: "\(i) \(long)",
                    published: Date(timeIntervalSince1970: Double(1_000_000 - i)),
                    audio: "https://news.example/\(String(repeating: "a", count: 900))/\(i).mp3")
            } + [
                PodcastEpisode(
                    id: "huge", title: "Huge", published: nil, audio: "https://x.example/" + String(repeating: "b", count: 3_000))
            ]
        let p = try Podcast(name: "News", feed: Self.feed, title: long, episodes: episodes, refreshedAt: Date())
        let size = try JSONEncoder().encode(p).count
        #expect(size <= Podcast.episodesBudget + 2 * 1024, "\(size) bytes")
        #expect(!p.episodes.isEmpty && p.episodes.count < 100)
        #expect(p.episodes.first?.title.hasPrefix("0 ") == true)
        #expect(p.episodes.allSatisfy { $0.title.unicodeScalars.count <= Podcast.maxText && $0.id == $0.audio })
        #expect(!p.episodes.contains { $0.id == "huge" })
        #expect(p.title.unicodeScalars.count == Podcast.maxText)
    }

    @Test func aNameThatWouldMakeASourceAmbiguousIsRefusedAlsoWhenDecoded() throws {
        for bad in ["tone", "News#2", "http://x", ""] {
            #expect(throws: ValidationError.self) { try Podcast.validName(bad) }
        }
        let good = try Podcast(
            name: "News", feed: Self.feed, title: "T", episodes: [], refreshedAt: Date(timeIntervalSince1970: 0))
        let json = String(decoding: try JSONEncoder().encode(good), as: UTF8.self).replacingOccurrences(
            of: "\"News\"", with: "\"News#1\"")
        #expect(throws: ValidationError.self) { try JSONDecoder().decode(Podcast.self, from: Data(json.utf8)) }
        #expect(try JSONDecoder().decode(Podcast.self, from: try JSONEncoder().encode(good)) == good)
    }

    @Test(arguments: [
        ("podcast:News", "News", 1), ("podcast:News#1", "News", 1), ("podcast:News#2", "News", 2),
        ("podcast:Le Journal#100", "Le Journal", 100),
    ])
    func aChoiceIsItsTextAndBack(text: String, name: String, episode: Int) throws {
        let choice = try PodcastChoice(parsing: text)
        #expect(choice.name == name && choice.episode == episode)
        #expect(try SoundSource(storageText: choice.text) == .podcast(choice))
        #expect(choice.text == (episode == 1 ? "podcast:\(name)" : "podcast:\(name)#\(episode)"))
    }

    @Test(arguments: ["podcast:", "podcast:News#0", "podcast:News#101", "podcast:News#", "podcast:News#x", "podcast:tone"])
    func aChoiceThatNamesNoEpisodeIsOneSentence(text: String) {
        #expect(throws: ValidationError.self) { try PodcastChoice(parsing: text) }
    }

    @Test func aUserNamesAPodcastFollowedInAnyCaseAndItsStoredNameIsKept() throws {
        let news = try Podcast(name: "News", feed: Self.feed, title: "T", episodes: [], refreshedAt: Date())
        let named: (String) -> Podcast? = { $0.lowercased() == "news" ? news : nil }
        #expect(
            try SoundSource(userText: " PODCAST:news#2 ", stationNamed: { _ in nil }, podcastNamed: named)
                == .podcast(try PodcastChoice(name: "News", episode: 2)))
        let unknown = #expect(throws: ValidationError.self) {
            try SoundSource(userText: "podcast:Sport", stationNamed: { _ in nil }, podcastNamed: named)
        }
        #expect(unknown?.message == "No podcast is named 'Sport'; list them with 'aubade podcast list'.")
    }

    @Test func listeningGoesOnWhereItStoppedOnlyInTheSameEpisode() throws {
        let episodes = [
            PodcastEpisode(id: "wed", title: "Wednesday", published: nil, audio: "https://news.example/wed.mp3"),
            PodcastEpisode(id: "tue", title: "Tuesday", published: nil, audio: "https://news.example/tue.mp3"),
        ]
        var p = try Podcast(name: "News", feed: Self.feed, title: "T", episodes: episodes, refreshedAt: Date())
        p.resume = PodcastResume(episode: "tue", byte: 123_456)
        #expect(p.listening(try PodcastChoice(name: "News"))?.audio.fromByte == 0)
        #expect(p.listening(try PodcastChoice(name: "News", episode: 2))?.audio.fromByte == 123_456)
        #expect(p.listening(try PodcastChoice(name: "News", episode: 3)) == nil)
        // A podcast read again keeps where listening stopped.
        #expect(p.refreshed(with: PodcastFeed(title: "T", episodes: episodes), at: Date()).resume == p.resume)
    }
}
