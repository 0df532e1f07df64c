public import AubadeCore
import AubadeHTTP
import Foundation

/// A podcast's feed downloaded and read: through the streams' rules (R32: http(s) only, on every redirect; a
/// server on this machine only when allowed), at most 16 MiB (a feed of thousands of episodes is a few MiB; a larger
/// one is refused in one sentence, before its first byte when the server announces its size), then `FeedParser`,
/// which reads all that the cap lets through. Blocks: call it on a thread of its own.
public enum FeedFetch {
    public static let maxBytes = 16 << 20

    public static func feed(at url: StreamURL, allowLoopback: Bool, within: Duration = .seconds(60))
        throws(FeedParser.Refusal) -> PodcastFeed
    {
        let body: [UInt8]
        do {
            body = try HTTPFetch.get(
                url, what: "a podcast feed", maxBytes: maxBytes, allowLoopback: allowLoopback, deadline: within)
        } catch {
            throw FeedParser.Refusal(description: error.description)
        }
        return try FeedParser.parse(Data(body))
    }
}
