public import AubadeCore
import AubadeHTTP
import AubadeSystem
import Foundation

/// The episodes downloaded for alarms, in a folder beside the database (`<db>.episodes/`): one file per episode,
/// named by a hash of its address, written whole under a temporary name and renamed when complete (fsync'd, so a
/// power cut leaves no half episode under its real name). The folder keeps within `budget`: after each download the
/// oldest files go, never those an alarm still needs (`keeping`).
///
/// An episode larger than `maxEpisodeBytes` is refused before a byte of it is written (R40): at once when its feed
/// announces that much (`length`), after the answer's head when the server does (Content-Length), and cut at the cap
/// when it sends more than it announced. A refusal for its size is remembered (`refused`) until the feed changes the
/// episode: it is not asked for again.
///
/// Contract: every call blocks (file I/O, a download): call it on a thread of its own. Safe from several threads:
/// each download writes a temporary file of its own, and one episode is downloaded by one caller at a time — a
/// second caller for the same episode waits for the first and takes its file.
public struct EpisodeCache: Sendable {
    public let folder: String
    /// The largest episode downloaded (a 3-hour show at 320 kbps is 430 MB).
    public let maxEpisodeBytes: Int64
    /// What the folder may hold after a download (at least the episode just downloaded).
    public let budget: Int64
    let allowLoopback: Bool
    private let gate = DownloadGate()
    /// The episodes refused for their size, shared by every copy of this cache.
    public let refused = RefusedEpisodes()

    /// A temporary file older than this is a leftover of a download that was cut off (no download runs longer:
    /// the clock gives each one until its alarm).
    static let leftoverAge: TimeInterval = 24 * 3600

    public static let defaultMaxEpisodeBytes: Int64 = 512 << 20
    public static let defaultBudget: Int64 = 1 << 30

    public init(
        databasePath: String, allowLoopback: Bool, maxEpisodeBytes: Int64 = EpisodeCache.defaultMaxEpisodeBytes,
        budget: Int64 = EpisodeCache.defaultBudget
    ) {
        folder = databasePath + ".episodes"
        self.allowLoopback = allowLoopback
        self.maxEpisodeBytes = maxEpisodeBytes
        self.budget = budget
    }

    /// The file an episode is kept in: a 64-bit FNV-1a hash of its address (stable across runs and versions).
    public func path(of episode: PodcastEpisode) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in episode.audio.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return folder + "/" + String(format: "%016llx.mp3", hash)
    }

    /// The episode's complete file, if downloaded.
    public func file(of episode: PodcastEpisode) -> String? {
        let path = path(of: episode)
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Downloads `episode` unless it is here (redirects followed, the clock's User-Agent, R32's address rules,
    /// at most `maxEpisodeBytes`), giving up after `within`; then trims the folder. Returns the file.
    public func download(_ episode: PodcastEpisode, within: Duration, keeping: [PodcastEpisode]) throws(PodcastFetchError)
        -> String
    {
        let started = ContinuousClock.now
        let path = path(of: episode)
        // One download of an episode at a time: a second caller waits for the first (at most its own time).
        guard gate.enter(path, waitingAtMost: within) else {
            throw PodcastFetchError("The episode is still being downloaded for another check.")
        }
        defer { gate.leave(path) }
        if let done = file(of: episode) { return done }
        if let known = refused.reason(for: episode) { throw PodcastFetchError(known) }
        if let announced = episode.length, Int64(announced) > maxEpisodeBytes {
            try refuse(
                episode,
                "its feed announces \(HTTPFetch.size(Int64(announced))), more than the \(HTTPFetch.size(maxEpisodeBytes)) an episode may take."
            )
        }
        return try fetch(episode, to: path, within: within - (ContinuousClock.now - started), keeping: keeping)
    }

    private func fetch(_ episode: PodcastEpisode, to path: String, within: Duration, keeping: [PodcastEpisode])
        throws(PodcastFetchError) -> String
    {
        let url: StreamURL
        do { url = try StreamURL(parsing: episode.audio) } catch {
            throw PodcastFetchError("The episode's address cannot be fetched: \(error.message)")
        }
        let part = EpisodePart(folder: folder, file: path)
        do throws(HTTPFetch.Failure) {
            try HTTPFetch.stream(
                url, what: "an episode", maxBytes: maxEpisodeBytes, allowLoopback: allowLoopback,
                deadline: max(.seconds(1), within)
            ) { bytes in part.write(bytes) }
        } catch {
            part.discard()
            if error.tooLarge { try refuse(episode, error.description) }
            throw PodcastFetchError(part.failure ?? "The episode could not be downloaded: \(error.description)")
        }
        try part.keep(as: path)
        trim(keeping: Set(keeping.map { self.path(of: $0) } + [path]))
        return path
    }

    /// Refuses `episode` for its size, and remembers it: it is not asked for again while the feed says the same.
    private func refuse(_ episode: PodcastEpisode, _ why: String) throws(PodcastFetchError) -> Never {
        let sentence = "The episode is not downloaded: \(why) It is not tried again until its feed changes it."
        refused.remember(episode, sentence)
        throw PodcastFetchError(sentence)
    }

    /// Removes the oldest files until the folder holds at most `budget`, never one of `keep`; leftovers of
    /// downloads cut off long ago go first (one still running has its own, newer, temporary file).
    func trim(keeping keep: Set<String>) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: folder) else { return }
        var files: [(path: String, size: Int64, date: Date)] = []
        for name in names {
            let path = folder + "/" + name
            guard let a = try? fm.attributesOfItem(atPath: path) else { continue }
            if name.hasSuffix(".part") {
                let age = Date().timeIntervalSince(a[.modificationDate] as? Date ?? .distantPast)
                if age > EpisodeCache.leftoverAge { unlink(path) }
                continue
            }
            files.append((path, (a[.size] as? NSNumber)?.int64Value ?? 0, a[.modificationDate] as? Date ?? .distantPast))
        }
        var total = files.reduce(0) { $0 + $1.size }
        for f in files.sorted(by: { $0.date < $1.date }) where total > budget && !keep.contains(f.path) {
            if unlink(f.path) == 0 { total -= f.size }
        }
    }
}

/// The podcasts' port for the running clock (`PodcastFetcher`): feeds through `FeedFetch`, episodes through
/// `EpisodeCache`.
public struct PodcastLibrary: PodcastFetcher {
    public let cache: EpisodeCache
    let allowLoopback: Bool

    public init(cache: EpisodeCache, allowLoopback: Bool) {
        self.cache = cache
        self.allowLoopback = allowLoopback
    }

    public func feed(at url: StreamURL, within: Duration) throws(PodcastFetchError) -> PodcastFeed {
        do { return try FeedFetch.feed(at: url, allowLoopback: allowLoopback, within: within) } catch {
            throw PodcastFetchError("The feed \(url.text) could not be read: \(error.description)")
        }
    }

    public func cachedFile(of episode: PodcastEpisode) -> String? { cache.file(of: episode) }

    public func download(_ episode: PodcastEpisode, within: Duration, keeping: [PodcastEpisode]) throws(PodcastFetchError)
        -> String
    {
        try cache.download(episode, within: within, keeping: keeping)
    }
}

/// Which episodes are being downloaded now: a caller for one of them waits until it is done. Thread-safe: `busy` is
/// read and written only with `condition`'s mutex held.
final class DownloadGate: @unchecked Sendable {
    private var busy: Set<String> = []
    private let condition = MonotonicCondition()

    /// Takes `key`, waiting while another holder has it, for at most `wait`; false when the wait ran out.
    func enter(_ key: String, waitingAtMost wait: Duration) -> Bool {
        condition.locked {
            condition.wait(while: { busy.contains(key) }, atMost: max(.zero, wait))
            guard !busy.contains(key) else { return false }
            busy.insert(key)
            return true
        }
    }

    func leave(_ key: String) {
        condition.locked {
            busy.remove(key)
            condition.broadcast()
        }
    }
}
