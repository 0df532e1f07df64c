import AubadeHandoff
import AubadeSystem
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
    /// The daemon's control socket; nil when its path is too long for an AF_UNIX address (the daemon cannot
    /// have bound it either).
    let socket: UnixAddress?
    private let line = TextWriter(capacity: 256)

    init(database: String) {
        socket = try? UnixAddress(path: database + ".sock")
    }

    /// Kills `daemon` if it is that same process, still alive, and not this one. True when it did.
    static func stopUnresponsive(_ daemon: ProcessIdentity) -> Bool {
        guard daemon.pid > 1, daemon.pid != getpid(), daemon.isAlive else { return false }
        return kill(daemon.pid, SIGKILL) == 0
    }

    /// Sends `{"command":{"stop"|"snooze":{"alarm":N,"by":"button"|"cli"}}}` to the daemon's socket.
    func tell(snooze: Bool, alarm: Int64, by: WakerInput) {
        guard let socket else { return }
        ControlLine.write(snooze: snooze, alarm: alarm, by: by, to: line)
        let fd = Glibc.socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        guard socket.withSockaddr({ connect(fd, $0, $1) }) == 0 else { return }
        let bytes = line.bytes
        _ = send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
    }
}
