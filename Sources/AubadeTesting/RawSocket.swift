import AubadeSystem
public import Foundation
import Glibc

/// A plain blocking stream client — of a TCP port on 127.0.0.1 or of an AF_UNIX socket — that may send nothing,
/// half a request, or a whole one: for the servers' connection bounds (R37). Blocking reads belong on a thread of
/// their own (`onThread`); every wait gives up after a generous watchdog (60 s) instead of hanging a failing test.
public final class RawSocket: Sendable {
    public let fd: Int32

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static let watchdog: TimeInterval = 60

    /// Connected to the AF_UNIX stream socket at `path`.
    public init(path: String) throws {
        let address = try UnixAddress(path: path)
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: \(String(cString: strerror(errno)))") }
        let rc = address.withSockaddr { connect(fd, $0, $1) }
        try Self.connected(fd, rc, to: path)
    }

    /// Connected to TCP `port` on 127.0.0.1, from `source` (another loopback address — 127.0.0.2, … — stands in
    /// for another peer).
    public init(port: Int, from source: String = "127.0.0.1") throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: \(String(cString: strerror(errno)))") }
        if source != "127.0.0.1" {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let why = String(cString: strerror(errno))
                close(fd)
                throw Failure(description: "bind to \(source) failed: \(why)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try Self.connected(fd, rc, to: "127.0.0.1:\(port)")
    }

    /// After `connect` returned `rc`: the failure (the descriptor closed), or the watchdog set on reads.
    private static func connected(_ fd: Int32, _ rc: Int32, to peer: String) throws {
        guard rc == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "connect to \(peer) failed: \(why)")
        }
        var tv = timeval(tv_sec: Int(watchdog), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Makes each blocking read give up after `seconds` (the watchdog otherwise), for a reader that keeps its own
    /// deadline.
    public func readTimeout(_ seconds: Int) {
        var tv = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes all of `text`; false when the peer is gone.
    @discardableResult
    public func send(_ text: String) -> Bool {
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
    public func hangUp() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Whether anything (bytes or the end of the stream) is waiting to be read right now.
    public var hasInput: Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }

    /// Everything the server sends until it closes the connection; nil when it did not close it within the
    /// watchdog. Blocking.
    public func readUntilClosed() -> String? {
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

    /// One HTTP/1.1 response (head and a Content-Length body) on a connection kept open; nil when the connection
    /// ended first or the watchdog passed. Blocking.
    public func readResponse() -> String? {
        var data: [UInt8] = []
        var byte: UInt8 = 0
        while !data.suffix(4).elementsEqual("\r\n\r\n".utf8) {
            let n = recv(fd, &byte, 1, 0)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return nil }
            data.append(byte)
        }
        let head = String(decoding: data, as: UTF8.self)
        let length =
            head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        var body = [UInt8](repeating: 0, count: length)
        var got = 0
        while got < length {
            let n = body.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + got, length - got, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            got += n
        }
        return head + String(decoding: body, as: UTF8.self)
    }

    /// Waits until the server has closed every one of `sockets`; what each received before its end, in order, or
    /// nil when some were still open at the watchdog. Blocking (one thread polls them all).
    public static func waitUntilAllClosed(_ sockets: [RawSocket]) -> [String]? {
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
