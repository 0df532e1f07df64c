public import Glibc

/// systemd's notify protocol (sd_notify(3)) without libsystemd: one datagram per message to the socket named in
/// `$NOTIFY_SOCKET` (a path, or `@name` for the abstract namespace). Without that variable — not started by
/// systemd — every call does nothing. The watchdog is on when `$WATCHDOG_USEC` is set and `$WATCHDOG_PID` is
/// unset or names this process (a child that inherited the variables is not the one systemd watches).
///
/// Thread-safe: the socket is opened once, and each message is one `sendto`. Sending allocates nothing for the
/// `StaticString` and byte forms (the second waker's loop uses those); failures are ignored — systemd going
/// away must not stop an alarm.
public final class SystemdNotifier: Sendable {
    private let fd: Int32
    private let address: UnixAddress?
    /// Half the watchdog interval systemd asked for (`$WATCHDOG_USEC`): how often to send WATCHDOG=1; nil when
    /// systemd does not watch this process.
    public let watchdogInterval: Duration?

    /// The names this reads from the environment.
    public static let variables = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]

    /// Reads the socket and the watchdog from `environment`, for the process `processID`.
    public init(environment: [String: String], processID: pid_t = getpid()) {
        if let usec = environment["WATCHDOG_USEC"].flatMap(Int64.init), usec > 0,
            environment["WATCHDOG_PID"].map({ pid_t($0) == processID }) ?? true
        {
            watchdogInterval = .microseconds(usec / 2)
        } else {
            watchdogInterval = nil
        }
        var name = environment["NOTIFY_SOCKET"] ?? ""
        let address = try? name.withUTF8 { bytes throws(Errno) in
            try UnixAddress(notifySocket: UnsafeRawBufferPointer(bytes))
        }
        self.address = address
        fd = address == nil ? -1 : socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    /// Reads the socket and the watchdog from this process's environment.
    public convenience init() {
        var environment: [String: String] = [:]
        for name in SystemdNotifier.variables {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        self.init(environment: environment)
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Whether messages go anywhere (the variable named a socket, and one could be opened).
    public var isActive: Bool { fd >= 0 }

    /// The service is up: for the daemon, database loaded, schedule computed, sound device opened and a test
    /// write taken (R34).
    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    public func ready() { send("READY=1" as StaticString) }
    /// Proof of life, sent from the loop that does the work (never from a free-running timer).
    public func watchdog() { send("WATCHDOG=1" as StaticString) }
    /// A one-line status shown by `systemctl status`.
    public func status(_ text: String) { send("STATUS=\(text)") }
    public func stopping() { send("STOPPING=1" as StaticString) }
    /// Still starting, and alive: systemd waits `by` longer before it gives up on the start.
    public func extendStartTimeout(by duration: Duration) {
        send("EXTEND_TIMEOUT_USEC=\(duration.components.seconds * 1_000_000)")
    }

    /// Sends one message (lines of `NAME=value`).
    public func send(_ message: UnsafeRawBufferPointer) {
        guard fd >= 0, let address else { return }
        address.withSockaddr { sa, length in
            _ = sendto(fd, message.baseAddress, message.count, Int32(MSG_NOSIGNAL), sa, length)
        }
    }

    public func send(_ message: StaticString) {
        send(UnsafeRawBufferPointer(start: message.utf8Start, count: message.utf8CodeUnitCount))
    }

    public func send(_ message: String) {
        var message = message
        message.withUTF8 { send(UnsafeRawBufferPointer($0)) }
    }
}
