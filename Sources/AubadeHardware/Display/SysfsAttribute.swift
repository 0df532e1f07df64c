import Glibc

/// Writes a sysfs attribute the way `echo 25 > brightness` does: one `write(2)` of the value and a newline
/// into the file opened write-only and truncated (the truncation matters only for the plain files of a
/// test tree). Never creates a file. Blocking, on the calling thread.
enum SysfsAttribute {
    /// Why a write failed: the path and the errno.
    struct WriteFailure: Error, Sendable {
        let path: String
        let code: Int32

        /// "<path>: Permission denied".
        var message: String { "\(path): \(SystemError.message(code))" }
    }

    static func write(_ value: Int, to path: String) throws(WriteFailure) {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw WriteFailure(path: path, code: errno) }
        defer { close(fd) }
        let bytes = Array("\(value)\n".utf8)
        while true {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n == bytes.count { return }
            if n < 0, errno == EINTR { continue }
            // sysfs takes an attribute in one write; a short one means the value was not taken.
            throw WriteFailure(path: path, code: n < 0 ? errno : EIO)
        }
    }

    /// The whole number in the file at `path`.
    static func integer(_ path: String) throws(SysfsFile.ReadError) -> Int {
        let text = try SysfsFile.read(path, limit: 64)
        guard let value = Int(text) else {
            throw SysfsFile.ReadError(message: "\(path): '\(text.prefix(20))' is not a whole number")
        }
        return value
    }

    /// The path with every symbolic link resolved (/sys/class/backlight/x → /sys/devices/…/backlight/x),
    /// or the path itself when it cannot be resolved.
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}
