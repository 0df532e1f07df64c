/// Port: reads a podcast's feed from its address — downloaded and parsed into its title and newest episodes.
/// Implementation: `FeedReader` (AubadePodcasts: the download through curl under the streams' rules, then the XML).
///
/// Contract: `feed` blocks (a download): call it on a thread of its own, never on the cooperative pool or the
/// clock's thread. A feed that cannot be had or read is a `PodcastFeedError` sentence naming why.
public protocol PodcastFeedReader: Sendable {
    func feed(at url: StreamURL) throws(PodcastFeedError) -> PodcastFeed
}

/// Why a feed could not be read, in one sentence (the download, or the XML and its line).
public struct PodcastFeedError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
