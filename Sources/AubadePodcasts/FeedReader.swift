public import AubadeCore

/// The `PodcastFeedReader` port over `FeedFetch`: a feed on this machine or a private network only when
/// `allowLoopback` (the config's local-streams switch, as for stations, R32).
public struct FeedReader: PodcastFeedReader {
    public let allowLoopback: Bool

    public init(allowLoopback: Bool) { self.allowLoopback = allowLoopback }

    public func feed(at url: StreamURL) throws(PodcastFeedError) -> PodcastFeed {
        do { return try FeedFetch.feed(at: url, allowLoopback: allowLoopback) } catch {
            throw PodcastFeedError(error.description)
        }
    }
}
