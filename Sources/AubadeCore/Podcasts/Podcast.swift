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
    /// Where listening to it last stopped (the sleep timer continues there the next night), or nil.
    public var resume: PodcastResume?

    public init(
        id: Int64? = nil, name: String, feed: StreamURL, title: String, episodes: [PodcastEpisode], refreshedAt: Date,
        resume: PodcastResume? = nil
    ) throws(ValidationError) {
        self.id = id
        self.resume = resume
        self.name = try Podcast.validName(name)
        self.feed = feed
        self.title = OutsideText.clean(title, limit: Podcast.maxText)
        self.episodes = Podcast.fitted(episodes)
        self.refreshedAt = refreshedAt
    }

    /// The longest title kept, in characters (a feed's can be kilobytes). A feed's titles are plain text
    /// (`OutsideText`) when read; they are made so again here, so a podcast stored before that is too.
    public static let maxText = 200
    /// What a podcast's episodes may take as JSON: an edit travels to the running clock as one line of its control
    /// socket (64 KiB), so the newest episodes are kept while they fit in half of that.
    public static let episodesBudget = 32 * 1024

    /// `episodes` as stored: titles plain and cut to a sensible length, ids cut, episodes whose audio address is not one the
    /// clock could fetch (over 2 KB) left out, then the newest while they fit `episodesBudget`.
    static func fitted(_ episodes: [PodcastEpisode]) -> [PodcastEpisode] {
        var kept: [PodcastEpisode] = []
        var bytes = 2
        let encoder = JSONEncoder()
        for var e in episodes.prefix(PodcastFeed.kept) where e.audio.utf8.count <= 2048 {
            e.title = OutsideText.clean(e.title, limit: maxText)
            if e.id.utf8.count > 512 { e.id = e.audio }
            bytes += ((try? encoder.encode(e))?.count ?? 4096) + 1
            guard bytes <= episodesBudget else { break }
            kept.append(e)
        }
        return kept
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, feed, title, episodes, refreshedAt, resume
    }

    /// Decoding checks what the initialiser checks (a podcast arrives over the control socket as JSON).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            id: try c.decodeIfPresent(Int64.self, forKey: .id), name: try c.decode(String.self, forKey: .name),
            feed: try c.decode(StreamURL.self, forKey: .feed), title: try c.decode(String.self, forKey: .title),
            episodes: try c.decode([PodcastEpisode].self, forKey: .episodes),
            refreshedAt: try c.decode(Date.self, forKey: .refreshedAt),
            resume: try c.decodeIfPresent(PodcastResume.self, forKey: .resume))
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

    /// The name a podcast gets from its feed's title when the user gives none: the title made plain
    /// (`OutsideText`, so no control or bidirectional character names it) and cut to a name's length.
    public static func name(fromTitle title: String) -> String {
        Names.cut(OutsideText.clean(title, limit: Names.maxLength), to: Names.maxLength)
    }

    /// The feed as read now: its title and episodes replace the stored ones.
    public func refreshed(with feed: PodcastFeed, at now: Date) -> Podcast {
        var copy = self
        copy.title = OutsideText.clean(feed.title, limit: Podcast.maxText)
        copy.episodes = Podcast.fitted(feed.episodes)
        copy.refreshedAt = now
        return copy
    }
}

/// Where listening to a podcast stopped: the episode (its feed id) and the byte of its file.
public struct PodcastResume: Sendable, Hashable, Codable {
    public var episode: String
    public var byte: Int64

    public init(episode: String, byte: Int64) {
        self.episode = episode
        self.byte = max(0, byte)
    }
}

extension Podcast {
    /// What `choice` plays on the radio (`play`, the sleep timer): the chosen episode streamed from its address —
    /// from where listening to it stopped, when it is the episode listened to last. nil when the podcast has no
    /// such episode, or its address is not one the clock fetches.
    public func listening(_ choice: PodcastChoice) -> (episode: PodcastEpisode, audio: EpisodeAudio)? {
        guard let episode = choice.pick(episodes), let url = try? StreamURL(parsing: episode.audio) else { return nil }
        let from = resume.flatMap { $0.episode == episode.id ? $0.byte : nil } ?? 0
        return (episode, EpisodeAudio(origin: .stream(url), fromByte: from, title: episode.title))
    }
}
