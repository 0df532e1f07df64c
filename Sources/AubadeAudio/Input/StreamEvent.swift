/// What the network side of a station reports, in order (`StreamFetcher`). A sound that plays the station
/// turns these into its own events; `aubade play --json` prints them.
public enum StreamEvent: Sendable, Equatable, Codable {
    /// A connection to `url` is being made (the station's address, a redirect target's, or a playlist entry's).
    case connecting(url: String)
    /// The ICY now-playing title changed.
    case title(String)
    /// The station's ICY metadata is unusable: titles are off, the audio plays on (R23). Never a failure.
    case metadataOff(String)
    /// No bytes for this long; a reconnect follows.
    case stalled(after: Duration)
    /// The next connection is tried after `delay` (backoff 1-2-4-8 s, R21).
    case reconnecting(attempt: Int, delay: Duration)
    /// A failure a reconnect may mend (a refused connection, a timeout, a 5xx, the stream ending).
    case error(String)
    /// A failure that ends the stream for good: a permanent refusal before any audio came (a 4xx, a refused
    /// address, a redirect loop, not audio, a bad playlist). Nothing follows it.
    case failed(String)

    /// A line for people about the stream's progress (nil for `connecting` and `title`, shown otherwise).
    public var noteText: String? {
        switch self {
        case .connecting, .title: nil
        case .metadataOff(let why): why
        case .stalled(let after): "The station stalled (no data for \(Int(after / .seconds(1))) s)."
        case .reconnecting(let attempt, let delay):
            "Reconnecting to the station (attempt \(attempt), in \(Int(delay / .seconds(1))) s)."
        case .error(let reason), .failed(let reason): reason
        }
    }

    /// The sentence of an `error` or `failed` event.
    public var failure: String? {
        switch self {
        case .error(let reason), .failed(let reason): reason
        default: nil
        }
    }
}

/// How a fetch thread learns that it should stop, and where it reports (house rule 1: `isStopped` and
/// `report` are called on the fetch thread and must not block).
struct FetchControl: Sendable {
    let isStopped: @Sendable () -> Bool
    /// Waits until stopped or `duration` has passed (the backoff between reconnects); whether stopped.
    let waitForStop: @Sendable (Duration) -> Bool
    let report: @Sendable (StreamEvent) -> Void
}
