import AubadeSystem
import Glibc

/// Reading and writing the handoff files with plain system calls, into and from fixed buffers.
public enum HandoffIO {
    /// Replaces the file at `path` with `bytes` atomically, through AubadeSystem's `DurableWrite` (the store's
    /// too): a temporary file beside it, written, fsync'd, renamed over it, and the folder fsync'd — a reader
    /// sees the old file or the new one, never a part, and after a power cut the new one is there (R35, as R27's
    /// backup copy). Mode 0644. Nothing allocated. Returns 0 or an errno.
    public static func replace(_ path: UnsafePointer<CChar>, with bytes: UnsafeRawBufferPointer) -> Int32 {
        do throws(DurableWrite.Failure) {
            try DurableWrite.replace(path, with: bytes)
            return 0
        } catch {
            return error.error.code
        }
    }

    /// Reads the whole file at `path` into `buffer`: its length, or -errno (-EFBIG when it does not fit).
    public static func read(_ path: UnsafePointer<CChar>, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return -Int(errno) }
        defer { close(fd) }
        var total = 0
        while total < buffer.count {
            let n = Glibc.read(fd, buffer.baseAddress! + total, buffer.count - total)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return -Int(errno) }
            if n == 0 { return total }
            total += n
        }
        var probe: UInt8 = 0
        return Glibc.read(fd, &probe, 1) == 0 ? total : -Int(EFBIG)
    }

    /// `<database><suffix>`: one of the handoff files beside the database.
    public static func path(database: String, suffix: StaticString) -> String {
        database
            + String(
                decoding: UnsafeRawBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount),
                as: UTF8.self)
    }
}
