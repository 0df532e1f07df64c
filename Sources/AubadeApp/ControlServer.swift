import AubadeCore
import CTimex
import Foundation
import Glibc
import Logging
import ServiceLifecycle

/// The daemon side of the control socket: a dedicated thread accepts connections (blocking calls stay off
/// the cooperative pool) and hands each request to the clock. Refuses to start when another daemon already
/// answers on the same database — two clocks ringing the same alarms would fight over the sound card.
public final class ControlServer: Sendable {
    let path: String
    private let fd: Int32

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Binds the socket for `databasePath`.
    public init(databasePath: String) throws(Failure) {
        path = ControlProtocol.socketPath(forDatabase: databasePath)
        if let probe = try? UnixSocket.connect(path, timeout: 2) {
            close(probe)
            throw Failure(description: "Another aubade is already running on this database (it answers on \(path)).")
        }
        unlink(path)
        var address: sockaddr_un
        var length: socklen_t
        do throws(UnixSocket.Failure) { (address, length) = try UnixSocket.address(path) } catch {
            throw Failure(description: error.description)
        }
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { throw Failure(description: "socket() failed: \(String(cString: strerror(errno))).") }
        let old = umask(0o177)
        let rc = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, length) }
        }
        umask(old)
        guard rc == 0, listen(s, 8) == 0 else {
            let message = String(cString: strerror(errno))
            close(s)
            throw Failure(description: "The control socket \(path) cannot be created: \(message).")
        }
        fd = s
    }

    /// Serves requests until shut down; each is answered by `handle` on the clock.
    public func serve(_ handle: @escaping @Sendable (ControlProtocol.Request) async -> ControlProtocol.Reply) {
        let fd = self.fd
        let thread = Thread {
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    return  // closed at shutdown
                }
                var tv = timeval(tv_sec: 5, tv_usec: 0)
                setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
                let reply: ControlProtocol.Reply
                if let line = UnixSocket.readLine(client),
                   let request = try? ControlProtocol.decoder.decode(ControlProtocol.Request.self, from: Data(line.utf8)) {
                    let box = ReplyBox()
                    let done = DispatchSemaphore(value: 0)
                    Task {
                        box.set(await handle(request))
                        done.signal()
                    }
                    done.wait()
                    reply = box.get() ?? ControlProtocol.Reply(ok: false, message: "No reply.")
                } else {
                    reply = ControlProtocol.Reply(ok: false, message: "The request is not a JSON object on one line.")
                }
                if let body = try? ControlProtocol.encoder.encode(reply) {
                    _ = UnixSocket.send(client, String(decoding: body, as: UTF8.self) + "\n")
                }
                close(client)
            }
        }
        thread.name = "aubade.control"
        thread.start()
    }

    /// Stops accepting and removes the socket file.
    public func shutdown() {
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        unlink(path)
    }
}

/// A reply handed from the clock's task to the control thread.
private final class ReplyBox: @unchecked Sendable {
    // @unchecked: written once by the task before the semaphore is signalled, read after the wait.
    private var reply: ControlProtocol.Reply?
    func set(_ r: ControlProtocol.Reply) { reply = r }
    func get() -> ControlProtocol.Reply? { reply }
}

extension AlarmClock {
    /// Answers one control request.
    public func handle(_ request: ControlProtocol.Request) -> ControlProtocol.Reply {
        switch request.command {
        case "status":
            return ControlProtocol.Reply(ok: true, status: status())
        case "reload":
            reload()
            return ControlProtocol.Reply(ok: true, message: "Reloaded.")
        case "stop":
            let stopped = stop(by: .cli, alarmID: request.alarm)
            return ControlProtocol.Reply(ok: stopped, message: stopped ? "Stopped." : "No alarm is ringing.")
        case "snooze":
            let snoozed = snooze(by: .cli, alarmID: request.alarm)
            return ControlProtocol.Reply(ok: snoozed, message: snoozed ? "Snoozed." : "No alarm can be snoozed now.")
        case "sleep":
            do {
                let text = try startSleep(duration: request.seconds.map { .seconds($0) }, source: request.source)
                return ControlProtocol.Reply(ok: true, message: text)
            } catch {
                return ControlProtocol.Reply(ok: false, message: "\(error)")
            }
        case "sleep-cancel":
            let cancelled = cancelRadio(reason: "cancelled")
            return ControlProtocol.Reply(ok: cancelled, message: cancelled ? "The sleep timer is cancelled." : "No sleep timer runs.")
        default:
            return ControlProtocol.Reply(ok: false, message: "Unknown command '\(request.command)'.")
        }
    }
}
