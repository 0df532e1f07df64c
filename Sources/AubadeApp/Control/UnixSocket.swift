import AubadeSystem
import Foundation
import Glibc

/// Small, checked wrappers over AF_UNIX stream sockets for the control socket. Blocking; call them on a
/// dedicated thread (the server) or from a short-lived CLI process (the client).
enum UnixSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The address of `path`, or a failure when the path is too long for the kernel (108 bytes).
    static func address(_ path: String) throws(Failure) -> UnixAddress {
        do throws(Errno) {
            return try UnixAddress(path: path)
        } catch  where error.code == ENAMETOOLONG {
            throw Failure(
                description:
                    "The control socket path \(path) is longer than \(UnixAddress.capacity - 1) bytes; use a shorter database path."
            )
        } catch {
            throw Failure(description: "The control socket path \(path) cannot be used (\(error)).")
        }
    }

    /// A connected socket to `path`, with send/receive timeouts.
    static func connect(_ path: String, timeout: Int) throws(Failure) -> Int32 {
        let address = try address(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: \(String(cString: strerror(errno))).") }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let rc = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        guard rc == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: message)
        }
        return fd
    }

    /// Removes the receive timeout: reads wait as long as it takes.
    static func clearTimeout(_ fd: Int32) {
        var tv = timeval(tv_sec: 0, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes all of `text`.
    static func send(_ fd: Int32, _ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            bytes = bytes.dropFirst(n)
        }
        return true
    }

    /// Reads one line (without its newline), at most `limit` bytes; nil on error, timeout or EOF before any byte.
    static func readLine(_ fd: Int32, limit: Int = 64 * 1024) -> String? {
        var data: [UInt8] = []
        var byte: UInt8 = 0
        while data.count < limit {
            let n = recv(fd, &byte, 1, 0)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { break }
            if byte == UInt8(ascii: "\n") { return String(decoding: data, as: UTF8.self) }
            data.append(byte)
        }
        return data.isEmpty ? nil : String(decoding: data, as: UTF8.self)
    }
}
