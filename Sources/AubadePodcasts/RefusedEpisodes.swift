public import AubadeCore
import Synchronization

/// The episodes refused for their size — the feed or the server announced more than an episode may take, or the
/// server sent more — with the sentence that refused them, so that the look-ahead, hour after hour, and the
/// pre-check never ask for them again. An episode is known by everything its feed says of it (`PodcastEpisode`:
/// id, address, announced length…): once the feed changes it, it is another episode and is tried again. Kept in
/// memory for the daemon's run (a restart tries each once more); at most `capacity` of them.
///
/// Thread-safe: the table is behind a mutex.
public final class RefusedEpisodes: Sendable {
    public static let capacity = 256
    private let table = Mutex<[PodcastEpisode: String]>([:])

    public init() {}

    /// Why `episode` was refused, if it was.
    public func reason(for episode: PodcastEpisode) -> String? {
        table.withLock { $0[episode] }
    }

    func remember(_ episode: PodcastEpisode, _ reason: String) {
        table.withLock { refused in
            if refused.count >= RefusedEpisodes.capacity { refused.removeAll() }
            refused[episode] = reason
        }
    }
}
