import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeServer
import AubadeStore
import AubadeTesting
import Foundation
import Glibc
import NIOCore
import Synchronization
import Testing

/// R37's fairness at the HTTP server (`FairShares`): no client, however many connections it holds busy or streaming,
/// locks another out; the clock's own machine always has places; live event streams to other machines have a
/// smaller bound of their own, the oldest ended first. The server is the daemon's `HTTPService` over real TCP; only
/// 127.0.0.1 counts as the clock's own machine here, and other loopback addresses (127.0.0.2, …) stand in for
/// other machines on the network. No wall time is asserted: each wait is for an event, under a generous watchdog.
@Suite("API fairness under load")
struct APIFairnessTests {
    static let shares = FairShares(isOwnMachine: { $0?.ipAddress == "127.0.0.1" })
    static let limits = FairShares()

    static func rig(idleTimeout: Duration = .seconds(600)) async throws -> APIRig {
        try await APIRig(settings: ServerSettings(host: "127.0.0.1", port: 0, idleTimeout: idleTimeout)) { store in
            _ = try store.insertAlarm(zone: .gmt, now: APIRig.morning, AlarmPatch(name: "Work", time: "07:00", days: "daily"))
            _ = try store.insertAlarm(
                zone: .gmt, now: APIRig.morning, AlarmPatch(name: "Weekend", time: "09:00", days: "sat,sun"))
        }
    }

    /// The finding this suite was written for: while an alarm rang, a phone's edits timed out behind busy
    /// keep-alive readers and live event subscribers from the network — about 70 connections held every place.
    /// Here 20 streams (each from an address of its own) and 50 busy readers (all from one address) flood the
    /// server; the alarm rings; 12 edits from a third address, each on a connection of its own, all complete and
    /// succeed. The flood does not get all the connections: the readers' address keeps its share (the rest of its
    /// connections are closed by the server) and the oldest streams past the bound end with their last line.
    @Test func anOwnersEditsCompleteWhileBusyReadersAndStreamsFloodTheServerAndTheAlarmRings() async throws {
        let rig = try await Self.rig()
        try await APIConnectionTests.serving(rig, shares: Self.shares) { port in
            let flood = try Flood(
                port: port, streamsFrom: (10..<30).map { "127.0.0.\($0)" }, readers: 50, readersFrom: ["127.0.0.2"])
            flood.start()
            do {
                try await Self.editsDuringTheFlood(rig, port: port, flood: flood, streams: 20, readers: 50)
            } catch {
                await flood.stop()
                throw error
            }
            await flood.stop()
        }
    }

    /// The test above once the flood has started: the ringing, the edits, the stop, and what the flood got.
    static func editsDuringTheFlood(_ rig: APIRig, port: Int, flood: Flood, streams: Int, readers: Int) async throws {
        // The flood is in place: every stream has had its first state, and the readers are being answered.
        let inPlace = await flood.wait { $0.streamsServed >= Self.limits.streams && $0.responses >= 100 }
        #expect(inPlace, "the flood was never served: \(flood.summary)")

        await rig.ringAtSeven()
        let ringing = try #require(rig.sound.played.last)
        #expect(ringing.request.priority == .alarm)

        for n in 1...12 {
            let answer = await Self.edit(port: port, from: "127.0.0.3", token: rig.token, alarm: 2, name: "Edit \(n)")
            #expect(
                answer?.hasPrefix("HTTP/1.1 200") == true && answer?.contains(#""name":"Edit \#(n)""#) == true,
                "edit \(n) of 12 during the flood: \(answer.map { String($0.prefix(300)) } ?? "no answer within the watchdog")")
            guard answer != nil else { break }  // the server as it was: each would wait out the watchdog
        }
        #expect(try Store.openForReading(path: rig.store.path).alarms().map(\.name) == ["Work", "Edit 12"])

        // The kiosk's stop is taken during the flood too.
        let kiosk = try RawSocket(port: port)
        kiosk.send(APIConnectionTests.request("POST", "/api/v1/alarm/stop", port: port, token: rig.token))
        let stop = await onThread { kiosk.readResponse() }
        #expect(stop?.contains(#""message":"Stopped.""#) == true, "\(stop ?? "no reply")")
        #expect(rig.sound.calls.contains(.stop(ringing.id)))

        // The flood did not get all the connections: of the readers' 50 only their address's share is served
        // (the server closed the others), and of the 20 streams the 4 oldest ended with their last line.
        let settled = await flood.wait {
            $0.readersClosed >= readers - Self.limits.perPeer && $0.streamsEnded >= streams - Self.limits.streams
        }
        #expect(settled, "\(flood.summary)")
        let tally = flood.tally
        #expect(tally.readersClosed == readers - Self.limits.perPeer, "\(flood.summary)")
        #expect(tally.streamsEnded == streams - Self.limits.streams, "\(flood.summary)")
        #expect(
            tally.endedStreamTexts.allSatisfy { $0.contains(": too many live streams") && $0.contains("\r\n0\r\n\r\n") },
            "\(tally.endedStreamTexts)")
        let subscribers = await Self.eventually { await rig.clock.liveSubscriberCount == Self.limits.streams }
        let following = await rig.clock.liveSubscriberCount
        #expect(subscribers, "the clock follows \(following) streams")
    }

    /// Six other machines each hold eight busy readers (ten asked, two closed at once by their share): the 48 places
    /// all other machines share are full, and every connection answers a request. A phone's 12 edits, each on a
    /// connection of its own, all complete and succeed: for the first, the oldest connection of a machine holding
    /// the most is closed, its request cut off; its place then serves each edit in turn.
    @Test func aPhonesEditsCompleteWhenBusyReadersFromSixMachinesFillThePool() async throws {
        let rig = try await Self.rig()
        try await APIConnectionTests.serving(rig, shares: Self.shares) { port in
            let machines = (0..<6).map { "127.0.0.\(110 + $0)" }
            let readers = 60
            let flood = try Flood(port: port, streamsFrom: [], readers: readers, readersFrom: machines)
            flood.start()
            let full = await flood.wait { $0.readersClosed >= readers - Self.limits.otherMachines && $0.responses >= 100 }
            #expect(full, "\(flood.summary)")
            for n in 1...12 {
                let answer = await Self.edit(port: port, from: "127.0.0.3", token: rig.token, alarm: 2, name: "Edit \(n)")
                #expect(
                    answer?.hasPrefix("HTTP/1.1 200") == true && answer?.contains(#""name":"Edit \#(n)""#) == true,
                    "edit \(n) of 12: \(answer.map { String($0.prefix(300)) } ?? "no answer within the watchdog")")
            }
            #expect(try Store.openForReading(path: rig.store.path).alarms().map(\.name) == ["Work", "Edit 12"])
            #expect(await flood.wait { $0.readersClosed >= readers - Self.limits.otherMachines + 1 })
            #expect(flood.tally.readersClosed == readers - Self.limits.otherMachines + 1, "\(flood.summary)")
            await flood.stop()
        }
    }

    /// Ten other machines open eight silent connections each — 80, more than the 48 places all other machines
    /// share and more than all 64: the server closes 32 of them without a byte, and the clock's own machine
    /// still has its 16 places, each answered. An eleventh machine is served too: a peer holding the most gives up
    /// its oldest waiting connection for it.
    @Test func otherMachinesNeverTakeTheClocksOwnPlacesAndANewcomerIsServedWhenThePoolIsFull() async throws {
        let rig = try await Self.rig()
        try await APIConnectionTests.serving(rig, shares: Self.shares) { port in
            let others = try (0..<10).flatMap { k in
                try (0..<8).map { _ in try RawSocket(port: port, from: "127.0.0.\(40 + k)") }
            }
            let closed = await onThread { Self.waitUntilClosed(others, atLeast: others.count - Self.limits.otherMachines) }
            #expect(closed == others.count - Self.limits.otherMachines, "\(closed) of the other machines' 80 closed")

            // The clock's own machine: 64 − 48 places, every one answered while the others hold theirs.
            let own = try (0..<(APIServer.maxConnections - Self.limits.otherMachines)).map { _ in try RawSocket(port: port) }
            for socket in own { socket.send(APIConnectionTests.request("GET", "/api/v1/status", port: port)) }
            let answers = await onThread { own.map { $0.readResponse() } }
            #expect(answers.allSatisfy { $0?.hasPrefix("HTTP/1.1 200 OK") == true }, "\(answers.map { $0?.prefix(40) })")
            for socket in own { socket.hangUp() }  // all 64 were taken: the newcomer needs a free one

            // A newcomer from an eleventh machine is served; one more of the others' waiting connections is closed.
            let newcomer = try RawSocket(port: port, from: "127.0.0.50")
            newcomer.send(APIConnectionTests.request("GET", "/api/v1/alarms", port: port, close: true))
            let answer = await onThread { newcomer.readUntilClosed() }
            #expect(answer?.hasPrefix("HTTP/1.1 200 OK") == true, "\(answer ?? "no reply within the watchdog")")
            let more = await onThread { Self.waitUntilClosed(others, atLeast: others.count - Self.limits.otherMachines + 1) }
            #expect(more == others.count - Self.limits.otherMachines + 1)
            // The server never wrote to the silent ones.
            #expect(others.allSatisfy { !$0.hasInput || Self.endsWithoutAByte($0) })
        }
    }

    /// A page left open on the kiosk (the clock's own machine), then one on each of 16 other machines, then a 17th:
    /// the oldest of the other machines' streams ends with its last line, the kiosk's (older still) does not, and
    /// the ringing alarm reaches the kiosk and every stream still open.
    @Test func pastTheStreamBoundTheOldestOtherStreamEndsAndTheKiosksStaysOpen() async throws {
        let rig = try await Self.rig()
        try await APIConnectionTests.serving(rig, shares: Self.shares) { port in
            let kiosk = try EventStream(port: port, from: "127.0.0.1")
            #expect(await kiosk.read(until: "event: state"))
            var others: [EventStream] = []
            for k in 0..<Self.limits.streams {
                let stream = try EventStream(port: port, from: "127.0.0.\(60 + k)")
                #expect(await stream.read(until: "event: state"), "stream \(k)")
                others.append(stream)
            }
            #expect(await Self.eventually { await rig.clock.liveSubscriberCount == Self.limits.streams + 1 })
            let newest = try EventStream(port: port, from: "127.0.0.99")
            #expect(await newest.read(until: "event: state"))

            #expect(await others[0].read(until: "\r\n0\r\n\r\n"), "the oldest stream ends: \(others[0].text)")
            #expect(others[0].text.contains(": too many live streams"), "\(others[0].text)")

            await rig.ringAtSeven()
            for stream in [kiosk] + others.dropFirst() + [newest] {
                #expect(await stream.read(until: #""since""#), "\(stream.text.suffix(300))")
                #expect(!stream.text.contains("too many live streams"))
            }
            #expect(await Self.eventually { await rig.clock.liveSubscriberCount == Self.limits.streams + 1 })
        }
    }

    /// `PATCH /api/v1/alarms/<alarm>` renaming it, from `source` on a connection of its own; the whole answer, or
    /// nil when none came within the watchdog.
    static func edit(port: Int, from source: String, token: String, alarm: Int, name: String) async -> String? {
        await onThread { () -> String? in
            guard let socket = try? RawSocket(port: port, from: source) else { return nil }
            let body = #"{"name":"\#(name)"}"#
            socket.send(
                "PATCH /api/v1/alarms/\(alarm) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            return socket.readUntilClosed()
        }
    }

    /// Waits until at least `count` of `sockets` have been closed by the server; how many were then. Blocking.
    static func waitUntilClosed(_ sockets: [RawSocket], atLeast count: Int) -> Int {
        let giveUp = Date().addingTimeInterval(RawSocket.watchdog)
        var closed = 0
        repeat {
            closed = sockets.filter(\.hasInput).count
            if closed >= count { break }
            usleep(20_000)
        } while Date() < giveUp
        return closed
    }

    /// Whether the server's end came without a byte before it.
    static func endsWithoutAByte(_ socket: RawSocket) -> Bool {
        var byte: UInt8 = 0
        return recv(socket.fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
    }

    /// Polls `condition` until it holds or the watchdog passes.
    static func eventually(_ condition: @Sendable () async -> Bool) async -> Bool {
        let giveUp = ContinuousClock.now + .seconds(RawSocket.watchdog)
        while ContinuousClock.now < giveUp {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}

/// A live event stream read as a page would, on a `RawSocket` from a given address: everything received is kept.
final class EventStream: Sendable {
    let socket: RawSocket
    private let received = Mutex("")

    init(port: Int, from source: String) throws {
        socket = try RawSocket(port: port, from: source)
        socket.readTimeout(1)
        socket.send("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n")
    }

    var text: String { received.withLock { $0 } }

    /// Reads until the text received contains `needle`; false when the stream ended or the watchdog passed first.
    func read(until needle: String) async -> Bool {
        await onThread { [self] () -> Bool in
            let giveUp = Date().addingTimeInterval(RawSocket.watchdog)
            var chunk = [UInt8](repeating: 0, count: 4096)
            while !text.contains(needle) {
                guard Date() < giveUp else { return false }
                let n = recv(socket.fd, &chunk, chunk.count, 0)
                if n == 0 { return text.contains(needle) }
                if n < 0 { continue }  // the 1-s read timeout, or EINTR
                let more = String(decoding: chunk[0..<n], as: UTF8.self)
                received.withLock { $0 += more }
            }
            return true
        }
    }
}

/// Clients flooding the server, each connection driven by a thread of its own until `stop()`: streams hold a live
/// event stream open and read it; busy readers ask for the status again as soon as it is answered. Every
/// connection is made when the flood is made — the streams first — so all of them are queued ahead of any later
/// client's.
final class Flood: Sendable {
    struct Tally: Sendable {
        var responses = 0
        var streamsServed = 0
        var readersClosed = 0
        var streamsEnded = 0
        var endedStreamTexts: [String] = []
        var finished = 0
        var stopping = false
    }

    private let port: Int
    private let streams: [RawSocket]
    private let readers: [RawSocket]
    private let state = Mutex(Tally())

    /// `readers` connections from `readersFrom` in turn (the first from the first address, the second from the
    /// second, …).
    init(port: Int, streamsFrom: [String], readers count: Int, readersFrom sources: [String]) throws {
        self.port = port
        streams = try streamsFrom.map { try RawSocket(port: port, from: $0) }
        readers = try (0..<count).map { try RawSocket(port: port, from: sources[$0 % sources.count]) }
    }

    var tally: Tally { state.withLock { $0 } }

    var summary: String {
        let t = tally
        return "\(t.responses) responses, \(t.streamsServed) streams served, \(t.readersClosed) of \(readers.count) readers "
            + "closed by the server, \(t.streamsEnded) of \(streams.count) streams ended"
    }

    func start() {
        for socket in streams { Thread { [self] in stream(socket) }.start() }
        for socket in readers { Thread { [self] in read(socket) }.start() }
    }

    /// Waits until `condition` holds of the tally; false when the watchdog passed first.
    func wait(until condition: @Sendable (Tally) -> Bool) async -> Bool {
        await APIFairnessTests.eventually { condition(self.tally) }
    }

    /// Stops every client and waits (under the watchdog) for their threads to end.
    func stop() async {
        state.withLock { $0.stopping = true }
        for socket in streams + readers { socket.hangUp() }
        let all = streams.count + readers.count
        #expect(await wait { $0.finished == all }, "every flood thread ends")
    }

    private var stopping: Bool { state.withLock { $0.stopping } }

    private func read(_ socket: RawSocket) {
        let request = "GET /api/v1/status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
        while !stopping, socket.send(request), socket.readResponse() != nil {
            state.withLock { $0.responses += 1 }
        }
        state.withLock { t in
            if !t.stopping { t.readersClosed += 1 }
            t.finished += 1
        }
    }

    private func stream(_ socket: RawSocket) {
        socket.readTimeout(1)
        socket.send("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n")
        var text = ""
        var served = false
        var chunk = [UInt8](repeating: 0, count: 4096)
        var ended = false
        while !stopping {
            let n = recv(socket.fd, &chunk, chunk.count, 0)
            if n == 0 { ended = true }
            if n <= 0 {
                if ended || (errno != EAGAIN && errno != EINTR) { break }
                continue
            }
            text += String(decoding: chunk[0..<n], as: UTF8.self)
            if !served, text.contains("event: state") {
                served = true
                state.withLock { $0.streamsServed += 1 }
            }
            // The end of a chunked response: the stream is over even if the connection stays open.
            if text.hasSuffix("\r\n0\r\n\r\n") {
                ended = true
                break
            }
        }
        state.withLock { t in
            if !t.stopping && ended {
                t.streamsEnded += 1
                t.endedStreamTexts.append(text)
            }
            t.finished += 1
        }
    }
}
