import Glibc

/// Files replaced so that a crash or a power cut leaves the old contents or the new, never part of either: the
/// bytes go to a temporary file beside the target, are written and fsync'd, the temporary file is renamed over
/// the target, and the folder is fsync'd so that the rename itself survives (R27's backup copy, R35's handoff
/// files). A reader sees the old file or the new one. Mode 0644.
///
/// Blocking calls: run them on a thread of their own, never the cooperative pool. Nothing is allocated (names
/// are built in fixed buffers on the stack), so the second waker may replace its state file after start.
public enum DurableWrite {
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public enum Step: Sendable {
            /// The temporary file's name is too long.
            case name
            /// The temporary file could not be created.
            case create
            /// Writing, syncing or renaming it failed (the temporary file is removed).
            case write
        }

        public let step: Step
        public let error: Errno

        public init(step: Step, error: Errno) {
            self.step = step
            self.error = error
        }

        public var description: String { error.description }
    }

    /// Longest path handled, its NUL included (Linux's PATH_MAX).
    static let pathCapacity = 4096

    /// Replaces the file at `path` with `bytes` by way of `temp` (nil: `path` + ".tmp").
    public static func replace(
        _ path: UnsafePointer<CChar>, with bytes: UnsafeRawBufferPointer,
        temp: UnsafePointer<CChar>? = nil
    ) throws(Failure) {
        if let temp {
            try replace(path, with: bytes, via: temp)
            return
        }
        var name = InlineArray<4096, CChar>(repeating: 0)
        let length = strlen(path)
        guard length + 5 <= pathCapacity else { throw Failure(step: .name, error: Errno(ENAMETOOLONG)) }
        try withUnsafeMutableBytes(of: &name) { raw throws(Failure) in
            let buffer = raw.bindMemory(to: CChar.self)
            guard let base = buffer.baseAddress else { throw Failure(step: .name, error: Errno(EINVAL)) }
            base.update(from: path, count: length)
            var end = length
            for b in ".tmp".utf8 {
                base[end] = CChar(bitPattern: b)
                end += 1
            }
            base[end] = 0
            try replace(path, with: bytes, via: base)
        }
    }

    /// Replaces the file at `path` with `bytes` by way of `temp` (nil: `path` + ".tmp").
    public static func replace(_ path: String, with bytes: UnsafeRawBufferPointer, temp: String? = nil) throws(Failure) {
        // withCString rethrows untyped errors: the outcome comes out as a Result.
        let outcome = path.withCString { p in
            Result { () throws(Failure) in
                guard let temp else { return try replace(p, with: bytes) }
                try temp.withCString { t in Result { () throws(Failure) in try replace(p, with: bytes, via: t) } }.get()
            }
        }
        try outcome.get()
    }

    private static func replace(
        _ path: UnsafePointer<CChar>, with bytes: UnsafeRawBufferPointer,
        via temp: UnsafePointer<CChar>
    ) throws(Failure) {
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(step: .create, error: .current) }
        var done = 0
        while done < bytes.count, let base = bytes.baseAddress {
            let n = write(fd, base + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw abandon(fd, temp) }
            done += n
        }
        guard fsync(fd) == 0 else { throw abandon(fd, temp) }
        close(fd)
        guard rename(temp, path) == 0 else { throw abandon(-1, temp) }
        syncFolder(of: path)
    }

    /// After a failed write, sync or rename: the failure (errno read first), the descriptor closed and the
    /// temporary file removed.
    private static func abandon(_ fd: Int32, _ temp: UnsafePointer<CChar>) -> Failure {
        let failure = Failure(step: .write, error: .current)
        if fd >= 0 { close(fd) }
        unlink(temp)
        return failure
    }

    /// fsyncs the folder holding `path` ("." for a bare name), so that a rename in it survives a power cut.
    public static func syncFolder(of path: UnsafePointer<CChar>) {
        let length = strlen(path)
        var slash = -1
        for i in 0..<length where path[i] == 0x2F { slash = i }
        guard slash > 0 else {
            syncFolder(at: slash == 0 ? "/" : ".")
            return
        }
        guard slash < pathCapacity else { return }
        var name = InlineArray<4096, CChar>(repeating: 0)
        withUnsafeMutableBytes(of: &name) { raw in
            let buffer = raw.bindMemory(to: CChar.self)
            guard let base = buffer.baseAddress else { return }
            base.update(from: path, count: slash)
            base[slash] = 0
            syncFolder(at: base)
        }
    }

    /// fsyncs the folder `folder` ("" for the current one).
    public static func syncFolder(_ folder: String) {
        if folder.isEmpty {
            syncFolder(at: ".")
        } else {
            folder.withCString { syncFolder(at: $0) }
        }
    }

    private static func syncFolder(at folder: UnsafePointer<CChar>) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }
}
