public import Foundation

/// One episode of a podcast as its feed lists it: what the clock shows, orders and downloads.
public struct PodcastEpisode: Sendable, Hashable, Codable {
    /// The feed's id for it (`guid`, Atom `id`), else its enclosure's address.
    public var id: String
    public var title: String
    /// Its publication date; nil when the feed gives none or one that cannot be read.
    public var published: Date?
    /// The audio file's address (the enclosure).
    public var audio: String
    /// Its MIME type as the feed says ("audio/mpeg"), or empty.
    public var type: String
    /// Its size in bytes as the feed says (often wrong or 0); nil when not given.
    public var length: Int?
    /// Its duration in seconds (`itunes:duration`), nil when not given.
    public var duration: Int?

    public init(
        id: String, title: String, published: Date?, audio: String, type: String = "", length: Int? = nil,
        duration: Int? = nil
    ) {
        self.id = id
        self.title = title
        self.published = published
        self.audio = audio
        self.type = type
        self.length = length
        self.duration = duration
    }

    /// Newest first by publication date; an episode without a date counts as the oldest; episodes of the same
    /// date keep the feed's order. So `podcast:<name>` is the first and `podcast:<name>#2` the second.
    public static func newestFirst(_ episodes: [PodcastEpisode]) -> [PodcastEpisode] {
        episodes.enumerated().sorted { a, b in
            switch (a.element.published, b.element.published) {
            case (let x?, let y?) where x != y: return x > y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a.offset < b.offset
            }
        }.map(\.element)
    }
}

/// A podcast's feed as read: its title and its full episodes (trailers and bonus episodes left out), newest
/// first, at most `PodcastFeed.kept`.
public struct PodcastFeed: Sendable, Hashable, Codable {
    /// How many of the newest episodes are kept (a feed may list thousands).
    public static let kept = 100

    public var title: String
    public var episodes: [PodcastEpisode]

    public init(title: String, episodes: [PodcastEpisode]) {
        self.title = title
        self.episodes = Array(PodcastEpisode.newestFirst(episodes).prefix(PodcastFeed.kept))
    }
}
