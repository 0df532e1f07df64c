import Foundation

/// Files replaced so that a crash or a power cut leaves the old contents or the new, never part of either: the
/// bytes go to a temporary file beside the target, are fsync'd, and the temporary file is renamed over the
/// target. The schedule's backup copy and the calendars' cached copies are written this way. Blocking calls:
/// callers run them where the store's other file I/O runs, never on the cooperative pool.
enum DurableFile {
    enum Failure: Error {
        /// The temporary file could not be created.
        case cannotCreate(temp: String, reason: String)
        /// Writing, syncing or renaming it failed (the temporary file is removed).
        case cannotWrite(reason: String)
    }

    /// Writes `data` to `temp`, fsyncs it and renames it over `path`.
    static func replace(_ path: String, with data: Data, temp: String) throws(Failure) {
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotCreate(temp: temp, reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written, synced, rename(temp, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temp)
            throw .cannotWrite(reason: reason)
        }
    }

    /// fsyncs `folder` ("" for the current one), so that a rename in it survives a power cut.
    static func syncFolder(_ folder: String) {
        let fd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }
}
