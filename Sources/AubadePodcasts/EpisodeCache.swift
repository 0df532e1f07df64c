public import AubadeCore
import AubadeHTTP
import AubadeSystem
public import Foundation

/// The episodes downloaded for alarms, in a folder beside the database (`<db>.episodes/`): one file per episode,
/// named by a hash of its address, written whole under a temporary name and renamed when complete (fsync'd, so a
/// power cut leaves no half episode under its real name). The folder keeps within `budget`: after each download the
/// oldest files go, never those an alarm still needs (`keeping`).
///
/// Contract: every call blocks (file I/O, a download): call it on a thread of its own. Safe from several threads for
/// different episodes; one episode is downloaded by one caller at a time (the clock checks an alarm once at a time).
public struct EpisodeCache: Sendable {
    public let folder: String
    /// The largest episode downloaded (a 3-hour show at 320 kbps is 430 MB).
    public let maxEpisodeBytes: Int64
    /// What the folder may hold after a download (at least the episode just downloaded).
    public let budget: Int64
    let allowLoopback: Bool

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
    /// at most `maxEpisodeBytes`), giving up at `deadline`; then trims the folder. Returns the file.
    public func download(_ episode: PodcastEpisode, deadline: Date, keeping: [PodcastEpisode]) throws(PodcastFetchError)
        -> String
    {
        if let done = file(of: episode) { return done }
        let url: StreamURL
        do { url = try StreamURL(parsing: episode.audio) } catch {
            throw PodcastFetchError("The episode's address cannot be fetched: \(error.message)")
        }
        try makeFolder()
        let path = path(of: episode)
        let part = path + ".part"
        let fd = open(part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PodcastFetchError("The episode cannot be written to \(part): \(Errno(errno).description).") }
        var writeError: String?
        do {
            let seconds = max(1, deadline.timeIntervalSinceNow)
            try HTTPFetch.stream(
                url, what: "an episode", maxBytes: maxEpisodeBytes, allowLoopback: allowLoopback,
                deadline: .seconds(seconds)
            ) { bytes in
                var rest = bytes
                while !rest.isEmpty {
                    let n = write(fd, rest.baseAddress, rest.count)
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else {
                        writeError = "Writing the episode to \(part) failed: \(Errno(errno).description)."
                        return writeError
                    }
                    rest = UnsafeRawBufferPointer(rebasing: rest[n...])
                }
                return nil
            }
        } catch {
            close(fd)
            unlink(part)
            throw PodcastFetchError(writeError ?? "The episode could not be downloaded: \(error.description)")
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, rename(part, path) == 0 else {
            let why = Errno(errno).description
            unlink(part)
            throw PodcastFetchError("The episode could not be kept in \(folder): \(why).")
        }
        DurableWrite.syncFolder(folder)
        trim(keeping: Set(keeping.map { self.path(of: $0) } + [path]))
        return path
    }

    /// Removes the oldest files until the folder holds at most `budget`, never one of `keep`; leftovers of
    /// interrupted downloads go first.
    func trim(keeping keep: Set<String>) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: folder) else { return }
        var files: [(path: String, size: Int64, date: Date)] = []
        for name in names {
            let path = folder + "/" + name
            guard let a = try? fm.attributesOfItem(atPath: path) else { continue }
            if name.hasSuffix(".part") {
                unlink(path)  // one caller downloads at a time: a part file here is a leftover
                continue
            }
            files.append((path, (a[.size] as? NSNumber)?.int64Value ?? 0, a[.modificationDate] as? Date ?? .distantPast))
        }
        var total = files.reduce(0) { $0 + $1.size }
        for f in files.sorted(by: { $0.date < $1.date }) where total > budget && !keep.contains(f.path) {
            if unlink(f.path) == 0 { total -= f.size }
        }
    }

    private func makeFolder() throws(PodcastFetchError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw PodcastFetchError("The episodes' folder \(folder) cannot be made: \(error.localizedDescription)")
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

    public func feed(at url: StreamURL) throws(PodcastFetchError) -> PodcastFeed {
        do { return try FeedFetch.feed(at: url, allowLoopback: allowLoopback) } catch {
            throw PodcastFetchError("The feed \(url.text) could not be read: \(error.description)")
        }
    }

    public func cachedFile(of episode: PodcastEpisode) -> String? { cache.file(of: episode) }

    public func download(_ episode: PodcastEpisode, deadline: Date, keeping: [PodcastEpisode]) throws(PodcastFetchError)
        -> String
    {
        try cache.download(episode, deadline: deadline, keeping: keeping)
    }
}
