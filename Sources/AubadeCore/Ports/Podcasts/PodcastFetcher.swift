import Foundation

/// Port: the podcasts' side of the network — reads a feed, and downloads an episode into the cache beside the
/// database, so that an alarm plays a local file and a slow or dead feed never delays it. Implementation:
/// `PodcastLibrary` (AubadePodcasts: curl through the streams' rules, FoundationXML, `EpisodeCache`).
///
/// Contract: every call blocks (a download, file reads, an fsync): call it on a thread of its own, never on the
/// cooperative pool or the clock's thread. Refusals are `PodcastFetchError` sentences.
public protocol PodcastFetcher: Sendable {
    /// The feed at `url` as read now, giving up after `within`.
    func feed(at url: StreamURL, within: Duration) throws(PodcastFetchError) -> PodcastFeed
    /// The complete downloaded file of `episode`, if the cache holds one.
    func cachedFile(of episode: PodcastEpisode) -> String?
    /// Downloads `episode` into the cache (redirects followed, a User-Agent sent, size-capped) unless it is there,
    /// giving up after `within` (counted on the monotonic clock: the caller turns its deadline into a length on its
    /// own clock); then trims the cache to its budget, never removing the files of `keeping`. Returns the file.
    func download(_ episode: PodcastEpisode, within: Duration, keeping: [PodcastEpisode]) throws(PodcastFetchError)
        -> String
}

/// Why a feed or an episode could not be had, in one sentence.
public struct PodcastFetchError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
