public import AubadeCore
public import Foundation
import Glibc

/// systemd's notify protocol without libsystemd: one datagram per message to the socket named in
/// `$NOTIFY_SOCKET` (a path, or `@name` for the abstract namespace). Without that variable — not started by
/// systemd — every call does nothing. Thread-safe (each call opens its own socket; messages are rare).
public struct SystemdNotifier: ServiceNotifier {
    private let socketPath: String?
    /// Half the watchdog interval systemd asked for (`$WATCHDOG_USEC`), or nil when there is no watchdog.
    public let watchdogInterval: Duration?

    /// Reads the socket and the watchdog interval from the environment.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = environment["NOTIFY_SOCKET"]
        socketPath = (path?.isEmpty ?? true) ? nil : path
        if let usec = environment["WATCHDOG_USEC"].flatMap(Int64.init), usec > 0 {
            watchdogInterval = .microseconds(usec / 2)
        } else {
            watchdogInterval = nil
        }
    }

    public var isActive: Bool { socketPath != nil }

    /// The service is up: database loaded, schedule computed, sound device opened and a test write taken (R34).
    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    /// Proof of life, sent from the scheduler loop (never from a free-running timer).
    public func watchdog() { send("WATCHDOG=1") }
    /// A one-line status shown by `systemctl status`.
    public func status(_ text: String) { send("STATUS=\(text)") }
    public func stopping() { send("STOPPING=1") }
    /// Still starting, and alive: systemd waits `by` longer before it gives up on the start (the clock waits
    /// for its sound device before READY, R34, but runs — and rings — meanwhile).
    public func extendStartTimeout(by duration: Duration) {
        send("EXTEND_TIMEOUT_USEC=\(duration.components.seconds * 1_000_000)")
    }

    /// Sends one message; failures are ignored (systemd going away must not stop an alarm).
    public func send(_ message: String) {
        guard let socketPath else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(socketPath.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
        let payload = Array(message.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                payload.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sa, length) }
            }
        }
    }
}
