import Foundation
import Glibc

/// A plain blocking client of an AF_UNIX stream socket — one that may send nothing, or half a line —
/// for the control socket's bounds (R37). Blocking reads belong on a thread of their own (`onThread`); every wait gives
/// up after a generous watchdog (60 s) instead of hanging a failing test.
final class RawSocket: Sendable {
    let fd: Int32

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let watchdog: TimeInterval = 60

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        let rc = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "connect to \(path) failed: \(why)")
        }
        var tv = timeval(tv_sec: Int(Self.watchdog), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Writes all of `text`; false when the peer is gone.
    @discardableResult
    func send(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            bytes = bytes.dropFirst(n)
        }
        return true
    }

    /// Ends the connection from this side (both directions); the descriptor is closed on release.
    func hangUp() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Whether anything (bytes or the end of the stream) is waiting to be read right now.
    var hasInput: Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }

    /// Everything the server sends until it closes the connection; nil when it did not close it within the
    /// watchdog. Blocking.
    func readUntilClosed() -> String? {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0 && errno == EINTR { continue }
            if n == 0 { return String(decoding: data, as: UTF8.self) }
            if n < 0 { return nil }
            data += chunk[0..<n]
        }
    }

    /// Waits until the server has closed every one of `sockets`; what each received before its end, in order, or
    /// nil when some were still open at the watchdog. Blocking (one thread polls them all).
    static func waitUntilAllClosed(_ sockets: [RawSocket]) -> [String]? {
        var received = [[UInt8]](repeating: [], count: sockets.count)
        var open = Set(sockets.indices)
        let giveUp = Date().addingTimeInterval(watchdog)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !open.isEmpty, Date() < giveUp {
            let order = Array(open)
            var fds = order.map { pollfd(fd: sockets[$0].fd, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), 1000) >= 0 || errno == EINTR else { return nil }
            for (k, i) in order.enumerated() where fds[k].revents != 0 {
                let n = recv(sockets[i].fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
                if n > 0 { received[i] += chunk[0..<n] } else if n == 0 || (errno != EAGAIN && errno != EINTR) { open.remove(i) }
            }
        }
        return open.isEmpty ? received.map { String(decoding: $0, as: UTF8.self) } : nil
    }
}
