import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeTesting
import Foundation
import Logging
import ServiceLifecycle
import Testing

/// R37 at the control socket: the real `ControlServer` serving a `ClockRig`'s clock on a socket in a temporary
/// folder, its clients plain AF_UNIX sockets and the CLI's own `ControlClient`. A client that sends nothing
/// never holds a command or the alarm back: past 64 connections the oldest waiting one is closed, and one that
/// has not sent its request line by the deadline is closed.
@Suite("Control socket bounds")
struct ControlSocketTests {
    /// Serves `rig`'s clock on a control socket with `deadline` — `ControlService` in a `ServiceGroup`, as the
    /// daemon runs it — and runs `body` with the database path it belongs to; then ends it as the daemon does, by
    /// the group's graceful shutdown (never by cancelling its task), and waits until every connection has closed.
    static func serving(_ rig: ClockRig, deadline: Duration, _ body: (String) async throws -> Void) async throws {
        let dir = try TemporaryDirectory("control")
        let database = dir.file("aubade.sqlite")
        let server = try await ControlServer.bind(databasePath: database, requestDeadline: deadline)
        let logger = Logger(label: "control-test")
        let group = ServiceGroup(services: [ControlService(server: server, clock: rig.clock, logger: logger)], logger: logger)
        let task = Task { try await group.run() }
        do {
            try await body(database)
        } catch {
            await group.triggerGracefulShutdown()
            _ = await withWatchdog(.seconds(60)) { _ = await task.result }
            throw error
        }
        await group.triggerGracefulShutdown()
        let result = await withWatchdog(.seconds(60)) { await task.result }
        #expect(result != nil, "the server ends at graceful shutdown")
        if case .failure(let error) = result { Issue.record("the service group failed: \(error)") }
        #expect(server.openConnections == 0, "every connection closed")
        #expect(!FileManager.default.fileExists(atPath: ControlProtocol.socketPath(forDatabase: database)))
    }

    /// A command sent as the CLI sends it, answered by the clock.
    static func send(_ command: ClockCommand, _ database: String) async throws -> ClockReply {
        let result = try await onThread { () throws(ControlClient.Failure) in
            try ControlClient.send(command, databasePath: database, timeout: 60)
        }
        return try result.get()
    }

    /// `count` clients that connect and send nothing, or (every third) half a request line.
    static func silentClients(_ database: String, count: Int) throws -> [RawSocket] {
        try (0..<count).map { i in
            let socket = try RawSocket(path: ControlProtocol.socketPath(forDatabase: database))
            if i % 3 == 0 { socket.send(#"{"command":{"stat"#) }
            return socket
        }
    }

    @Test func pastTheBoundTheOldestSilentClientsAreClosedWhileCommandsAreAnsweredAndTheAlarmRingsAndStops() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)])
        await rig.start()
        // The deadline is long here: only the bound closes a connection.
        try await Self.serving(rig, deadline: .seconds(600)) { database in
            let silent = try Self.silentClients(database, count: 70)
            // 70 waiting clients: the six oldest are closed to keep 64.
            let evicted = await onThread { RawSocket.waitUntilAllClosed(Array(silent.prefix(6))) }
            #expect(evicted?.allSatisfy(\.isEmpty) == true, "the six oldest were closed without a reply: \(evicted ?? [])")
            // A command still goes through (its connection closes the next oldest waiting one).
            guard case .status(let status) = try await Self.send(.status, database) else { throw RigError("no status") }
            #expect(status.ringing == nil && status.next?.id == 1)
            // The alarm falls due: it rings, and `aubade stop` is taken.
            await rig.advance(to: ClockRig.at(7, 0))
            let ringing = try #require(rig.lastPlayed)
            #expect(ringing.request.priority == .alarm)
            guard case .done(let stopped) = try await Self.send(.stop(alarm: nil, by: .cli), database) else {
                throw RigError("no stop")
            }
            #expect(stopped == "Stopped." && rig.sound.calls.contains(.stop(ringing.id)))
            // Only the oldest waiting clients were closed, one for each connection beyond 64: the status's
            // connection closed the 7th; the stop's closed the 8th if it came before the status's connection had
            // left, else none. The other 62 still wait.
            let closed = await onThread { RawSocket.waitUntilAllClosed(Array(silent.prefix(7))) }
            #expect(closed != nil, "the first command's connection closed the 7th oldest")
            #expect(silent.dropFirst(8).allSatisfy { !$0.hasInput }, "no younger silent client was closed")
        }
    }

    @Test func aClientThatSendsNothingOrHalfALineIsClosedAtTheDeadlineAndTheClockServesOn() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)])
        await rig.start()
        // A short deadline stands in for the daemon's 5 s.
        try await Self.serving(rig, deadline: .milliseconds(500)) { database in
            let silent = try Self.silentClients(database, count: 2)
            // A client that sends its line is answered.
            guard case .status = try await Self.send(.status, database) else { throw RigError("no status") }
            // Both waiting clients are closed by the deadline, with no reply.
            let received = await onThread { RawSocket.waitUntilAllClosed(silent) }
            #expect(received == ["", ""], "\(received ?? ["still open at the watchdog"])")
            // The clock serves on: the alarm rings and the stop sent over the socket is taken.
            await rig.advance(to: ClockRig.at(7, 0))
            let ringing = try #require(rig.lastPlayed)
            #expect(ringing.request.priority == .alarm)
            guard case .done(let stopped) = try await Self.send(.stop(alarm: nil, by: .cli), database) else {
                throw RigError("no stop")
            }
            #expect(stopped == "Stopped." && rig.sound.calls.contains(.stop(ringing.id)))
        }
    }
}
