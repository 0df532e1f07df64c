import AubadeHandoff
import Glibc

/// sd_notify(3) by hand: datagrams to `$NOTIFY_SOCKET` (READY=1, STATUS=…, WATCHDOG=1, STOPPING=1). Without the
/// variable (not under systemd) every call does nothing. The watchdog interval is half of `$WATCHDOG_USEC`
/// when `$WATCHDOG_PID` is unset or names this process.
final class SystemdNotifier {
    private let fd: Int32
    private var address = sockaddr_un()
    private var addressLength: socklen_t = 0
    private let message = TextWriter(capacity: 512)
    /// How often to send WATCHDOG=1, in nanoseconds; nil when systemd does not watch this process.
    let watchdogInterval: Int64?

    init() {
        var interval: Int64?
        if let usec = getenv("WATCHDOG_USEC").map({ atoll($0) }), usec > 0 {
            let pid = getenv("WATCHDOG_PID").map { atoi($0) } ?? getpid()
            if pid == getpid() { interval = Int64(usec) * 1000 / 2 }
        }
        watchdogInterval = interval
        guard let path = getenv("NOTIFY_SOCKET"), path.pointee != 0 else {
            fd = -1
            return
        }
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        address.sun_family = sa_family_t(AF_UNIX)
        var length = 0
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            while path[length] != 0 && length < raw.count - 1 {
                raw[length] = UInt8(bitPattern: path[length])
                length += 1
            }
            if raw[0] == UInt8(ascii: "@") { raw[0] = 0 }  // an abstract socket
        }
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + length)
    }

    /// Sends `text` plus what `fill` adds (e.g. "STATUS=armed for …").
    func send(_ text: StaticString, _ fill: (TextWriter) -> Void = { _ in }) {
        guard fd >= 0 else { return }
        message.reset()
        message.text(text)
        fill(message)
        let bytes = message.bytes
        withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                _ = sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), sa, addressLength)
            }
        }
    }
}
