import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeServer
import AubadeStore
import AubadeTesting
import Foundation
import Logging
import ServiceLifecycle
import Testing

/// R37 at the HTTP server: more clients than `APIServer.maxConnections`, silent or stopped halfway through a
/// request, never hold an alarm back; the server closes them after its idle timeout, and a client waiting in
/// the listen backlog is served once a place frees. The server is `HTTPService` — the daemon's own — over
/// real TCP on 127.0.0.1, the clock an `APIRig` (a ManualClock, so the alarm falls due when the test says).
@Suite("API connection bounds")
struct APIConnectionTests {
    /// Runs `HTTPService` for `rig` in a `ServiceGroup`, as the daemon does, and `body` with the port it listens
    /// on; then ends it as the daemon does, by the group's graceful shutdown (never by cancelling its task: see
    /// `ConnectionKeeper`), and waits for it to end.
    /// `shares` as the daemon's unless a test says otherwise.
    static func serving(_ rig: APIRig, shares: FairShares = FairShares(), _ body: (Int) async throws -> Void) async throws {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let logger = Logger(label: "api-connections") { _ in SwiftLogNoOpLogHandler() }
        let service = HTTPService(clock: rig.clock, settings: rig.settings, logger: logger, shares: shares) {
            continuation.yield($0)
        }
        let group = ServiceGroup(services: [service], logger: logger)
        let task = Task { try await group.run() }
        do {
            let port =
                await withWatchdog(.seconds(60)) { () -> Int? in
                    var next = ports.makeAsyncIterator()
                    return await next.next()
                } ?? nil
            try await body(try #require(port, "the server listens"))
        } catch {
            await group.triggerGracefulShutdown()
            _ = await withWatchdog(.seconds(60)) { _ = await task.result }
            throw error
        }
        await group.triggerGracefulShutdown()
        let result = await withWatchdog(.seconds(60)) { await task.result }
        #expect(result != nil, "the server ends at graceful shutdown")
        if case .failure(let error) = result { Issue.record("the service group failed: \(error)") }
    }

    static func request(_ method: String, _ path: String, port: Int, token: String? = nil, close: Bool = false) -> String {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        if let token { text += "Authorization: Bearer \(token)\r\n" }
        if method == "POST" { text += "Content-Type: application/json\r\nContent-Length: 2\r\n" }
        if close { text += "Connection: close\r\n" }
        return text + "\r\n" + (method == "POST" ? "{}" : "")
    }

    /// 69 clients beyond the first: every third sends half a request head, the others nothing.
    static func silentClients(port: Int, count: Int = 69) throws -> [RawSocket] {
        try (0..<count).map { i in
            let socket = try RawSocket(port: port)
            if i % 3 == 0 { socket.send("GET /api/v1/alarms HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n") }
            return socket
        }
    }

    @Test func moreClientsThanTheBoundHoldNeitherTheAlarmNorItsStopAndTheOneWaitingIsServedWhenOthersLeave() async throws {
        // The idle timeout is long here so that nothing but the test closes a connection.
        let rig = try await APIRig(settings: ServerSettings(host: "127.0.0.1", port: 0, idleTimeout: .seconds(600))) { store in
            _ = try store.insertAlarm(zone: .gmt, now: APIRig.morning, AlarmPatch(name: "Work", time: "07:00", days: "daily"))
        }
        try await Self.serving(rig) { port in
            // A page that is open (the kiosk, say) holds the first place, then 69 silent clients: 70 in all, more
            // than the 64 served at once, so the 71st — a whole request — waits in the listen backlog.
            let kiosk = try RawSocket(port: port)
            kiosk.send(Self.request("GET", "/api/v1/alarms", port: port))
            let first = await onThread { kiosk.readResponse() }
            #expect(first?.hasPrefix("HTTP/1.1 200 OK") == true, "\(first ?? "no reply")")
            let silent = try Self.silentClients(port: port)
            #expect(APIServer.maxConnections == 64 && silent.count + 1 > APIServer.maxConnections)
            let waiting = try RawSocket(port: port)
            waiting.send(Self.request("GET", "/api/v1/alarms", port: port, close: true))

            // The alarm falls due: it rings…
            await rig.ringAtSeven()
            let ringing = try #require(rig.sound.played.last)
            #expect(ringing.request.priority == .alarm)
            // …and the open page's stop is taken.
            kiosk.send(Self.request("POST", "/api/v1/alarm/stop", port: port, token: rig.token))
            let stop = await onThread { kiosk.readResponse() }
            #expect(
                stop?.hasPrefix("HTTP/1.1 200 OK") == true && stop?.contains(#""message":"Stopped.""#) == true,
                "\(stop ?? "no reply")")
            #expect(rig.sound.calls.contains(.stop(ringing.id)))
            // The open page goes on being served; the 71st client, though, has had no answer: it is not taken
            // while the others hold their places (the server had every chance to, over these round trips).
            for _ in 0..<20 {
                kiosk.send(Self.request("GET", "/api/v1/status", port: port))
                let status = await onThread { kiosk.readResponse() }
                #expect(status?.hasPrefix("HTTP/1.1 200 OK") == true, "\(status ?? "no reply")")
            }
            #expect(!waiting.hasInput, "the client beyond the bound waits in the backlog")

            // The silent clients leave; the waiting one is served.
            for socket in silent { socket.hangUp() }
            let answer = await onThread { waiting.readUntilClosed() }
            #expect(answer?.hasPrefix("HTTP/1.1 200 OK") == true, "\(answer ?? "no reply within the watchdog")")
            #expect(answer?.contains(#""name":"Work""#) == true)
        }
    }

    @Test func silentClientsAreClosedAfterTheIdleTimeoutThenTheOneWaitingIsServedAndTheAlarmRings() async throws {
        // A short idle timeout stands in for the daemon's 30 s (`ServerSettings.idleTimeout`).
        let rig = try await APIRig(settings: ServerSettings(host: "127.0.0.1", port: 0, idleTimeout: .seconds(1))) { store in
            _ = try store.insertAlarm(zone: .gmt, now: APIRig.morning, AlarmPatch(name: "Work", time: "07:00", days: "daily"))
        }
        try await Self.serving(rig) { port in
            let silent = try Self.silentClients(port: port, count: 70)
            let waiting = try RawSocket(port: port)
            waiting.send(Self.request("GET", "/api/v1/alarms", port: port, close: true))
            // The alarm falls due among them: it rings, and a stop is taken.
            await rig.ringAtSeven()
            let ringing = try #require(rig.sound.played.last)
            #expect(ringing.request.priority == .alarm)
            let reply = try await rig.clock.handle(.stop(alarm: nil, by: .api))
            guard case .done(let stopped) = reply else { Issue.record("\(reply)"); return }
            #expect(stopped == "Stopped." && rig.sound.calls.contains(.stop(ringing.id)))
            // The 71st client is answered only after places free up: when its answer is read, the first clients'
            // ends have already arrived.
            let answer = await onThread { waiting.readUntilClosed() }
            #expect(answer?.hasPrefix("HTTP/1.1 200 OK") == true, "\(answer ?? "no reply within the watchdog")")
            #expect(
                silent.prefix(APIServer.maxConnections).contains { $0.hasInput },
                "a first client's end came before the answer to the one beyond the bound")
            // Every silent client — those served at first and those that waited in the backlog — is closed by the
            // server, without a byte of reply.
            let received = await onThread { RawSocket.waitUntilAllClosed(silent) }
            #expect(received != nil, "the server closed every silent connection")
            #expect(received?.allSatisfy(\.isEmpty) == true, "\(received ?? [])")
        }
    }
}
