import AubadeCore
import AubadeSystem
import Foundation

/// An episode being downloaded: its temporary file (`<file>.<uuid>.part` in the cache's folder), made only when
/// the first byte arrives — a download refused before its body (a web page, a size announced over the cap) leaves
/// nothing on disk, not even an empty file — and either kept whole under the episode's name or removed.
///
/// Not Sendable: one download's thread makes, writes and ends it.
final class EpisodePart {
    let folder: String
    let path: String
    private var fd: Int32 = -1
    /// Why writing failed, when it did (the download then ends with this sentence).
    private(set) var failure: String?

    init(folder: String, file: String) {
        self.folder = folder
        path = file + ".\(UUID().uuidString).part"
    }

    /// Appends `bytes`, making the folder and the file first; a sentence when that fails.
    func write(_ bytes: UnsafeRawBufferPointer) -> String? {
        if fd < 0, let why = open() { return fail(why) }
        var rest = bytes
        while !rest.isEmpty {
            let n = Glibc.write(fd, rest.baseAddress, rest.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return fail("Writing the episode to \(path) failed: \(Errno(errno).description).") }
            rest = UnsafeRawBufferPointer(rebasing: rest[n...])
        }
        return nil
    }

    /// The download is complete: the file synced to disk and renamed to `file`, then the folder synced, so a
    /// power cut leaves either no episode or the whole of it under its name.
    func keep(as file: String) throws(PodcastFetchError) {
        guard fd >= 0 else { throw PodcastFetchError("The episode could not be kept in \(folder): nothing was written.") }
        let synced = fsync(fd) == 0
        let syncError = Errno(errno)
        close()
        guard synced else {
            unlink(path)
            throw PodcastFetchError("The episode could not be kept in \(folder): \(syncError.description).")
        }
        guard rename(path, file) == 0 else {
            let renameError = Errno(errno)
            unlink(path)
            throw PodcastFetchError("The episode could not be kept in \(folder): \(renameError.description).")
        }
        DurableWrite.syncFolder(folder)
    }

    /// The download failed: whatever was written goes.
    func discard() {
        guard fd >= 0 else { return }
        close()
        unlink(path)
    }

    private func open() -> String? {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            return "The episodes' folder \(folder) cannot be made: \(error.localizedDescription)"
        }
        fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        return fd < 0 ? "The episode cannot be written to \(path): \(Errno(errno).description)." : nil
    }

    private func fail(_ why: String) -> String {
        failure = why
        return why
    }

    private func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
