import Foundation
import Glibc

/// Reads the small text files of sysfs and procfs with plain POSIX calls, so that an I/O error (a sensor
/// that stopped answering on I2C gives EIO) comes back with the system's own message.
/// Blocking: a sysfs read of a sensor value talks to the device; call from a dedicated thread.
enum SysfsFile {
    struct ReadError: Error, Sendable {
        let message: String
    }

    /// The file's text, whitespace trimmed.
    static func read(_ path: String, limit: Int = 1 << 20) throws(ReadError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(message: "\(path): \(SystemError.message(errno))") }
        defer { close(fd) }
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while data.count < limit {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ReadError(message: "\(path): \(SystemError.message(errno))")
            }
            if n == 0 { break }
            data.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func number(_ path: String) throws(ReadError) -> Double {
        let text = try read(path, limit: 256)
        guard let value = Double(text), value.isFinite else {
            throw ReadError(message: "\(path): '\(text.prefix(40))' is not a number")
        }
        return value
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Names in a directory, sorted; empty when it cannot be listed.
    static func list(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }
}
