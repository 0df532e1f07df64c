import AubadeSystem
import Glibc

/// The face's device token on disk: one line, mode 0600, in a folder the face makes 0700 when it is missing.
/// Replaced whole (a temporary file beside it, written, fsync'd and renamed over it, then the folder fsync'd),
/// so a power cut leaves the old token or the new one. `DurableWrite` does the same for files anyone may read;
/// a token must not be readable by other users even for a moment.
enum TokenFile {
    /// The token kept at `path`; nil when there is none (no file, empty, unreadable).
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = InlineArray<1024, UInt8>(repeating: 0)
        while bytes.count < 65536 {
            let n = withUnsafeMutableBytes(of: &chunk) { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            withUnsafeBytes(of: chunk) { bytes.append(contentsOf: $0[0..<n]) }
        }
        let text = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
        return text.isEmpty ? nil : text
    }

    /// Replaces the file at `path` with `token`; the failure, if any.
    @discardableResult
    static func write(_ token: String, to path: String) -> Errno? {
        makeFolders(of: path)
        let temp = path + ".tmp"
        unlink(temp)
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return .current }
        fchmod(fd, 0o600)  // whatever the umask
        let bytes = Array((token + "\n").utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return abandon(fd, temp) }
            done += n
        }
        guard fsync(fd) == 0 else { return abandon(fd, temp) }
        close(fd)
        guard rename(temp, path) == 0 else { return abandon(-1, temp) }
        path.withCString { DurableWrite.syncFolder(of: $0) }
        return nil
    }

    private static func abandon(_ fd: Int32, _ temp: String) -> Errno {
        let failure = Errno.current
        if fd >= 0 { close(fd) }
        unlink(temp)
        return failure
    }

    /// Makes the folders above `path` that are missing, each 0700.
    private static func makeFolders(of path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        var prefix = ""
        for (index, part) in parts.enumerated() {
            prefix += index == 0 ? String(part) : "/" + part
            guard !part.isEmpty, !prefix.isEmpty else { continue }
            mkdir(prefix, 0o700)
        }
    }
}
