public import Foundation

/// A podcast the user follows: a name of their choosing, its feed's address, and the newest episodes as last read
/// from it (so listing them, and later playing one, never waits for the feed).
public struct Podcast: Sendable, Hashable, Codable {
    public var id: Int64?
    public var name: String
    public var feed: StreamURL
    /// The feed's own title.
    public var title: String
    /// Newest first, at most `PodcastFeed.kept`.
    public var episodes: [PodcastEpisode]
    /// When the feed was last read.
    public var refreshedAt: Date

    public init(
        id: Int64? = nil, name: String, feed: StreamURL, title: String, episodes: [PodcastEpisode], refreshedAt: Date
    ) throws(ValidationError) {
        self.id = id
        self.name = try Podcast.validName(name)
        self.feed = feed
        self.title = title
        self.episodes = Array(episodes.prefix(PodcastFeed.kept))
        self.refreshedAt = refreshedAt
    }

    /// 1–64 characters, no control characters (`Names`); not "tone", no "://" and no "#", so that
    /// `podcast:<name>#<n>` stays unambiguous.
    public static func validName(_ raw: String) throws(ValidationError) -> String {
        let name = try Names.validated(raw, what: "Podcast name")
        guard name.lowercased() != "tone", !name.contains("://"), !name.contains("#") else {
            throw ValidationError("Podcast name '\(name)' is reserved; pick a name that is not 'tone' and has no '://' or '#'.")
        }
        return name
    }

    /// The feed as read now: its title and episodes replace the stored ones.
    public func refreshed(with feed: PodcastFeed, at now: Date) -> Podcast {
        var copy = self
        copy.title = feed.title
        copy.episodes = feed.episodes
        copy.refreshedAt = now
        return copy
    }
}
