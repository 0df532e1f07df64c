/// What an alarm or the sleep timer plays: the built-in tone, a saved station, a stream address, or an episode of
/// a podcast followed.
public enum SoundSource: Hashable, Sendable, Codable, CustomStringConvertible {
    case tone
    case station(id: Int64)
    case stream(StreamURL)
    case podcast(PodcastChoice)

    /// The `clockMusic` column: "tone", "station:<id>" or the URL itself.
    public var storageText: String {
        switch self {
        case .tone: "tone"
        case .station(let id): "station:\(id)"
        case .stream(let url): url.text
        case .podcast(let choice): choice.text
        }
    }

    public init(storageText text: String) throws(ValidationError) {
        if text == "tone" {
            self = .tone
        } else if text.hasPrefix(PodcastChoice.prefix) {
            self = .podcast(try PodcastChoice(parsing: text))
        } else if text.hasPrefix("station:"), let id = Int64(text.dropFirst("station:".count)) {
            self = .station(id: id)
        } else {
            self = .stream(try StreamURL(parsing: text))
        }
    }

    /// Parses what a user typed: "tone", an http(s) URL, `podcast:<name>` or `podcast:<name>#<n>` (a podcast
    /// followed, looked up by `podcastNamed`), or a station name looked up by `stationNamed`.
    public init(
        userText text: String, stationNamed: (String) throws -> Station?, podcastNamed: (String) throws -> Podcast?
    ) throws {
        let t = text.trimmingSpaces
        if t.lowercased() == "tone" {
            self = .tone
        } else if t.lowercased().hasPrefix(PodcastChoice.prefix) {
            var choice = try PodcastChoice(parsing: PodcastChoice.prefix + t.dropFirst(PodcastChoice.prefix.count))
            guard let podcast = try podcastNamed(choice.name) else {
                throw ValidationError(
                    "No podcast is named '\(choice.name)'; list them with 'aubade podcast list'.", kind: .unprocessable)
            }
            choice.name = podcast.name
            self = .podcast(choice)
        } else if t.contains("://") {
            self = .stream(try StreamURL(parsing: t))
        } else if !t.isEmpty, let station = try stationNamed(t), let id = station.id {
            self = .station(id: id)
        } else {
            throw ValidationError(
                "Sound '\(t)' is neither tone, a saved station, podcast:<name> nor an http(s) URL; list stations with 'aubade station list'.",
                kind: t.isEmpty ? .malformed : .unprocessable)
        }
    }

    public var description: String { storageText }

    /// The saved station it names, if it names one.
    public var stationID: Int64? {
        if case .station(let id) = self { return id }
        return nil
    }
}

/// An episode of a podcast followed, as a sound: `podcast:<name>` is its newest episode, `podcast:<name>#2` the one
/// before, and so on (the order of `PodcastEpisode.newestFirst`, as `aubade podcast episodes` numbers them).
public struct PodcastChoice: Hashable, Sendable, Codable, CustomStringConvertible {
    public static let prefix = "podcast:"

    public var name: String
    /// 1 = the newest.
    public var episode: Int

    public init(name: String, episode: Int = 1) throws(ValidationError) {
        self.name = try Podcast.validName(name)
        guard (1...PodcastFeed.kept).contains(episode) else {
            throw ValidationError(
                "Episode #\(episode) is out of range; #1 is the newest and a podcast keeps \(PodcastFeed.kept).",
                kind: .unprocessable)
        }
        self.episode = episode
    }

    /// `podcast:<name>` or `podcast:<name>#<n>`.
    public init(parsing text: String) throws(ValidationError) {
        guard text.hasPrefix(PodcastChoice.prefix) else {
            throw ValidationError("'\(text)' is not a podcast sound; write podcast:<name> or podcast:<name>#<n>.")
        }
        let rest = text.dropFirst(PodcastChoice.prefix.count)
        guard let hash = rest.lastIndex(of: "#") else {
            try self.init(name: String(rest))
            return
        }
        guard let n = Int(rest[rest.index(after: hash)...]) else {
            throw ValidationError(
                "'\(text)' names no episode; write podcast:<name> for the newest or podcast:<name>#2 for the one before.",
                kind: .unprocessable)
        }
        try self.init(name: String(rest[..<hash]), episode: n)
    }

    public var text: String { PodcastChoice.prefix + name + (episode == 1 ? "" : "#\(episode)") }
    public var description: String { text }

    /// The chosen episode among `episodes` (newest first), nil when the podcast has fewer.
    public func pick(_ episodes: [PodcastEpisode]) -> PodcastEpisode? {
        episode <= episodes.count ? episodes[episode - 1] : nil
    }
}
