import Glibc

/// Reading and writing the handoff files with plain system calls, into and from fixed buffers.
public enum HandoffIO {
    /// Replaces the file at `path` with `bytes` atomically: a temporary file beside it, written, fsync'd,
    /// renamed over it, and the folder fsync'd — a reader sees the old file or the new one, never a part, and
    /// after a power cut the new one is there (R35, as R27's backup copy). Mode 0644. Returns 0 or an errno.
    public static func replace(_ path: UnsafePointer<CChar>, with bytes: UnsafeRawBufferPointer) -> Int32 {
        var temp = LongText()
        var length = 0
        while path[length] != 0 { length += 1 }
        guard length + 5 < 255 else { return ENAMETOOLONG }
        for i in 0..<length { temp.append(UInt8(bitPattern: path[i])) }
        for b in ".tmp".utf8 { temp.append(b) }
        return temp.withCString { tmp -> Int32 in
            let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return errno }
            var done = 0
            while done < bytes.count {
                let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    let e = errno
                    close(fd)
                    unlink(tmp)
                    return e == 0 ? EIO : e
                }
                done += n
            }
            guard fsync(fd) == 0 else {
                let e = errno
                close(fd)
                unlink(tmp)
                return e
            }
            close(fd)
            guard rename(tmp, path) == 0 else {
                let e = errno
                unlink(tmp)
                return e
            }
            syncFolder(of: path, length: length)
            return 0
        }
    }

    /// fsync of the folder holding `path`, so the rename itself is durable.
    private static func syncFolder(of path: UnsafePointer<CChar>, length: Int) {
        var folder = LongText()
        var slash = -1
        for i in 0..<length where path[i] == 0x2F { slash = i }
        if slash <= 0 {
            folder.append(slash == 0 ? 0x2F : 0x2E)
        } else {
            for i in 0..<slash { folder.append(UInt8(bitPattern: path[i])) }
        }
        folder.withCString { dir in
            let fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if fd >= 0 {
                fsync(fd)
                close(fd)
            }
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
        database + String(decoding: UnsafeRawBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount),
                          as: UTF8.self)
    }
}
