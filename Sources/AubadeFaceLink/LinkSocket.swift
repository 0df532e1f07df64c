import AubadeSystem
import Glibc
import Synchronization

/// Why an exchange with the clock ended without a whole answer.
enum LinkFailure: Error, Equatable {
    /// No connection could be made (refused, unreachable, or not in time).
    case connect(Errno)
    /// No byte came (or could be sent) within the wait.
    case timedOut
    /// The clock closed the connection before the answer was complete.
    case closed
    /// What came back is not HTTP/1.x as this link reads it, or an event-stream line is absurdly long.
    case malformed
    /// The answer is larger than the link keeps.
    case tooLarge
    /// The link was stopped.
    case stopped
    /// A read or write failed.
    case io(Errno)
}

/// How long a socket call may wait: until `deadline` (a `Monotonic` instant; nil: no deadline), and never longer
/// than `idle` for any one byte.
struct Patience {
    var deadline: Duration?
    var idle: Duration

    /// A whole exchange that must be over within `total` from now.
    static func within(_ total: Duration) -> Patience {
        Patience(deadline: Monotonic.now() + total, idle: total)
    }

    /// The milliseconds one poll may wait now; nil when the deadline has passed.
    var pollMilliseconds: Int32? {
        var wait = idle
        if let deadline {
            let left = deadline - Monotonic.now()
            guard left > .zero else { return nil }
            wait = min(wait, left)
        }
        let (seconds, attoseconds) = wait.components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: ms)
    }
}

/// The link's open sockets, so that `stop()` on any thread can shut them down and wake the thread blocked on
/// each. A descriptor is closed only under the same lock, so a shutdown never reaches a number reused since.
final class OpenSockets: Sendable {
    private let state = Mutex<(stopped: Bool, descriptors: Set<Int32>)>((false, []))

    /// Takes `fd` in; false (and `fd` closed) once the link is stopped.
    func adopt(_ fd: Int32) -> Bool {
        state.withLock { state in
            guard !state.stopped else {
                Glibc.close(fd)
                return false
            }
            state.descriptors.insert(fd)
            return true
        }
    }

    /// Closes `fd`, taken in by `adopt`.
    func close(_ fd: Int32) {
        state.withLock { state in
            state.descriptors.remove(fd)
            Glibc.close(fd)
        }
    }

    /// Marks the link stopped and shuts every open socket down (their reads and writes end at once).
    func stopAll() {
        state.withLock { state in
            state.stopped = true
            for fd in state.descriptors { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    var isStopped: Bool { state.withLock { $0.stopped } }
}

/// One TCP connection to the clock, used by one thread: non-blocking, every wait a `poll` bounded by a
/// `Patience`. Closed when the value goes away.
final class LinkSocket {
    let fd: Int32
    private let sockets: OpenSockets

    private init(fd: Int32, sockets: OpenSockets) {
        self.fd = fd
        self.sockets = sockets
    }

    deinit { sockets.close(fd) }

    /// Connects to `host` (a numeric address, or a name the resolver knows) on `port`.
    static func connect(
        host: String, port: Int, patience: Patience, sockets: OpenSockets
    ) throws(LinkFailure) -> LinkSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw .connect(Errno(EHOSTUNREACH))
        }
        defer { freeaddrinfo(list) }
        var failure = LinkFailure.connect(Errno(ECONNREFUSED))
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            do throws(LinkFailure) {
                return try connect(to: entry.pointee, patience: patience, sockets: sockets)
            } catch {
                if error == .stopped || error == .timedOut { throw error }
                failure = error
            }
        }
        throw failure
    }

    private static func connect(to address: addrinfo, patience: Patience, sockets: OpenSockets) throws(LinkFailure)
        -> LinkSocket
    {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let fd = socket(address.ai_family, type, 0)
        guard fd >= 0 else { throw .connect(.current) }
        guard sockets.adopt(fd) else { throw .stopped }
        let link = LinkSocket(fd: fd, sockets: sockets)
        if Glibc.connect(fd, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS || errno == EINTR else { throw .connect(.current) }
            try link.wait(for: Int16(POLLOUT), patience)
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { throw .connect(.current) }
            guard code == 0 else { throw .connect(Errno(code)) }
        }
        return link
    }

    /// Sends all of `bytes`.
    func write(_ bytes: [UInt8], _ patience: Patience) throws(LinkFailure) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + done, raw.count - done, Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                done += n
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                try wait(for: Int16(POLLOUT), patience)
            } else {
                throw sockets.isStopped ? .stopped : .io(.current)
            }
        }
    }

    /// Appends what arrives next (waiting for it) to `buffer`; false at the end of the stream.
    func read(into buffer: inout [UInt8], _ patience: Patience) throws(LinkFailure) -> Bool {
        var chunk = InlineArray<16384, UInt8>(repeating: 0)
        while true {
            let n = withUnsafeMutableBytes(of: &chunk) { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                withUnsafeBytes(of: chunk) { buffer.append(contentsOf: $0[0..<n]) }
                return true
            }
            if n == 0 {
                if sockets.isStopped { throw .stopped }
                return false
            }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                throw sockets.isStopped ? .stopped : .io(.current)
            }
            try wait(for: Int16(POLLIN), patience)
        }
    }

    /// Waits until the socket is ready for `events` (or failed, or was shut down).
    private func wait(for events: Int16, _ patience: Patience) throws(LinkFailure) {
        while true {
            if sockets.isStopped { throw .stopped }
            guard let ms = patience.pollMilliseconds else { throw .timedOut }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let n = poll(&entry, 1, ms)
            if n > 0 { return }
            if n == 0 { throw .timedOut }
            guard errno == EINTR else { throw .io(.current) }
        }
    }
}
