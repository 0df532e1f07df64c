import AubadeSystem
import AubadeTesting
import Foundation
import Glibc
import Testing

/// The one systemd notifier (the daemon's and the second waker's), against a real AF_UNIX datagram socket
/// standing in for systemd's: what arrives, byte for byte, and when the watchdog is on.
@Suite("systemd notifier")
struct SystemdNotifierTests {
    /// A bound datagram socket, as systemd's notify socket is. A datagram to a local AF_UNIX socket is queued
    /// before `sendto` returns, so `received` reads without waiting.
    final class Listener {
        let fd: Int32

        init(_ address: UnixAddress) throws {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw Errno.current }
            guard address.withSockaddr({ bind(fd, $0, $1) }) == 0 else {
                let failure = Errno.current
                close(fd)
                throw failure
            }
        }

        deinit { close(fd) }

        /// Every datagram waiting, in order.
        func received() -> [String] {
            var messages: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                guard n >= 0 else { return messages }
                messages.append(String(decoding: buffer[0..<n], as: UTF8.self))
            }
        }
    }

    @Test func everyMessageArrivesAsOneDatagramOnAPathSocket() throws {
        let dir = try TemporaryDirectory("notify")
        let path = dir.file("notify.sock")
        let listener = try Listener(try UnixAddress(path: path))
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        #expect(notifier.isActive)
        notifier.ready()
        notifier.ready(status: "armed for 07:00")
        notifier.watchdog()
        notifier.status("ringing alarm 3")
        notifier.extendStartTimeout(by: .seconds(15))
        notifier.stopping()
        let bytes: [UInt8] = Array("STATUS=by bytes".utf8)
        bytes.withUnsafeBytes { notifier.send($0) }
        #expect(
            listener.received() == [
                "READY=1", "READY=1\nSTATUS=armed for 07:00", "WATCHDOG=1", "STATUS=ringing alarm 3",
                "EXTEND_TIMEOUT_USEC=15000000", "STOPPING=1", "STATUS=by bytes",
            ])
    }

    @Test func anAtNamesAnAbstractSocket() throws {
        let name = "@aubade-notify-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let address = try Array(name.utf8).withUnsafeBytes { try UnixAddress(notifySocket: $0) }
        #expect(address.isAbstract)
        let listener = try Listener(address)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name])
        notifier.ready()
        notifier.watchdog()
        #expect(listener.received() == ["READY=1", "WATCHDOG=1"])
    }

    @Test func withoutASocketNothingIsSent() {
        for environment in [[:], ["NOTIFY_SOCKET": ""], ["NOTIFY_SOCKET": "@"]] as [[String: String]] {
            let notifier = SystemdNotifier(environment: environment)
            #expect(!notifier.isActive)
            notifier.ready(status: "nobody listens")  // does nothing, fails nothing
        }
    }

    /// A socket path too long for `sun_path` is refused, not cut: the cut path would be another socket.
    @Test func aPathTooLongIsNotCutToAnotherSocket() throws {
        let dir = try TemporaryDirectory("notify")
        let fits = dir.path + "/" + String(repeating: "s", count: UnixAddress.capacity - 2 - dir.path.utf8.count)
        #expect(fits.utf8.count == UnixAddress.capacity - 1)
        let listener = try Listener(try UnixAddress(path: fits))
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": fits + "-longer"])
        #expect(!notifier.isActive)
        notifier.ready()
        #expect(listener.received().isEmpty)
    }

    @Test func theWatchdogIsHalfItsIntervalForThisProcessOnly() {
        let me = getpid()
        func interval(_ environment: [String: String]) -> Duration? {
            SystemdNotifier(environment: environment, processID: me).watchdogInterval
        }
        #expect(interval(["WATCHDOG_USEC": "20000000"]) == .seconds(10))
        #expect(interval(["WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "\(me)"]) == .seconds(10))
        // Another process is the one systemd watches (we inherited its variables): no watchdog here.
        #expect(interval(["WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "\(me + 1)"]) == nil)
        #expect(interval(["WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"]) == nil)
        #expect(interval(["WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "not a pid"]) == nil)
        #expect(interval(["WATCHDOG_USEC": "0"]) == nil)
        #expect(interval(["WATCHDOG_USEC": "soon"]) == nil)
        #expect(interval(["WATCHDOG_PID": "\(me)"]) == nil)
        #expect(interval([:]) == nil)
    }
}
