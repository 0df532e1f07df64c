import AubadeHandoff
import Glibc

/// What the waker may do to the daemon named in the next-alarm file (by pid *and* start time, so never to a
/// stranger that inherited its number):
/// - `stopUnresponsive`: SIGKILL, only during a ring the daemon failed to make heard, and only when the daemon
///   holds what the ring needs — the sound device or a button line. A frozen daemon keeps an exclusive `hw:`
///   card and its GPIO lines for ever; without this the waker could neither sound nor be stopped. systemd
///   restarts the daemon (`Restart=always`).
/// - `tell`: when a person stops or snoozes the waker's ring, the same command on the daemon's control socket
///   (`<db>.sock`, one JSON line, as `aubade stop` sends it), so that a daemon that is back — catching the
///   occurrence up, or ringing it silently because the waker held the card — ends it too. Best effort: never
///   waits for an answer (a frozen daemon would never give one).
struct DaemonLink {
    let socketPath: LongText
    private let line = TextWriter(capacity: 256)

    init(database: String) {
        socketPath = LongText(database + ".sock")
    }

    /// Kills `daemon` if it is that same process, still alive, and not this one. True when it did.
    static func stopUnresponsive(_ daemon: ProcessIdentity) -> Bool {
        guard daemon.pid > 1, daemon.pid != getpid(), daemon.isAlive else { return false }
        return kill(daemon.pid, SIGKILL) == 0
    }

    /// Sends `{"command":{"stop"|"snooze":{"alarm":N,"by":"button"|"cli"}}}` to the daemon's socket.
    func tell(snooze: Bool, alarm: Int64, by: WakerInput) {
        ControlLine.write(snooze: snooze, alarm: alarm, by: by, to: line)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var length = 0
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for k in 0..<socketPath.count where k < raw.count - 1 {
                raw[k] = socketPath[k]
                length = k + 1
            }
        }
        let size = socklen_t(MemoryLayout<sa_family_t>.size + length + 1)
        let connected = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) }
        }
        guard connected == 0 else { return }
        let bytes = line.bytes
        _ = send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
    }
}
