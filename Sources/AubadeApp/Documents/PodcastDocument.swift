public import AubadeCore
import Foundation

/// A podcast as `aubade podcast … --json` prints it and the API answers it: its name, feed, title, when it was
/// read, and its episodes, newest first (dates as ISO 8601; `duration` in seconds when the feed gives it).
public struct PodcastDocument: Codable, Sendable {
    public struct Episode: Codable, Sendable {
        public var title: String
        public var published: String?
        public var audio: String
        public var duration: Int?
    }

    public var id: Int64?
    public var name: String
    public var feed: String
    public var title: String
    public var refreshedAt: String
    public var episodes: [Episode]

    public init(_ p: Podcast, episodes: [PodcastEpisode]? = nil) {
        id = p.id
        name = p.name
        feed = p.feed.text
        title = p.title
        refreshedAt = p.refreshedAt.formatted(.iso8601)
        self.episodes = (episodes ?? p.episodes).map {
            Episode(title: $0.title, published: $0.published?.formatted(.iso8601), audio: $0.audio, duration: $0.duration)
        }
    }
}

/// `{"podcasts": [...]}`, by name.
public struct PodcastList: Codable, Sendable {
    public var podcasts: [PodcastDocument]

    public init(podcasts: [PodcastDocument]) { self.podcasts = podcasts }
}
