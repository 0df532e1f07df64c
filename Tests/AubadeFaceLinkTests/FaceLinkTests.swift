import AubadeSystem
import AubadeTesting
import Glibc
import Testing

@testable import AubadeFaceLink

/// Reconnections after 20 ms to 200 ms, so that tests of them are quick. The time limits are watchdogs that only end
/// a failing test: a stream held open without keep-alives must not be taken for dead, nor a command given up, while
/// a loaded machine stalls the test (a 10-s silence fired under the whole suite with two busy loops beside it). The
/// limits themselves are tested with their own short timings.
let quick = FaceLinkTiming(
    commandTimeout: .seconds(120), liveSilence: .seconds(600), firstRetry: .milliseconds(20), longestRetry: .milliseconds(200))

/// A command sent and its answer awaited (on a thread of its own; the watchdog only ends a failing test).
func ask(_ link: FaceLink, _ method: String, _ path: String, _ json: String? = nil) async -> FaceLinkReply {
    let replies = Gathered<FaceLinkReply>()
    link.send(method: method, path: path, json: json.map { Array($0.utf8) }) { replies.add($0) }
    return await onThread("test-wait") { replies.wait { !$0.isEmpty }.first ?? FaceLinkReply(status: -1, body: []) }
}

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// One event-stream frame of a state.
func frame(_ state: String) -> String { "event: state\ndata: \(state)\n\n" }

/// A chunk of chunked transfer-coding.
func chunk(_ text: String) -> String { "\(String(text.utf8.count, radix: 16))\r\n\(text)\r\n" }

extension Connection {
    /// Reads a request: for the event stream, which one it is (1 for the first); nil (and 403) for any other
    /// request, such as the pairing the link asks for once the stream is up without a token.
    func readStream() -> Int? {
        guard let request = readRequest() else { return nil }
        guard request.path == "/api/v1/events" else {
            respond(403, #"{"error":{"kind":"forbidden","message":"Not here."}}"#)
            return nil
        }
        return server.requests.filter { $0.path == request.path }.count
    }
}

let streamHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n"

@Suite("The face's link against scripted servers")
struct FaceLinkTests {
    @Test func aCommandCarriesItsBodyAndHostAndReadsALengthAnswer() async throws {
        let server = try ScriptedServer { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.respond(200, #"{"message":"Stopped."}"#)
        }
        let link = FaceLink(port: server.port, tokenPath: nil)
        defer { link.stop() }
        let reply = await ask(link, "POST", "/alarm/stop", "{}")
        #expect(reply.status == 200 && text(reply.body) == #"{"message":"Stopped."}"#)
        let seen = try #require(server.requests.first)
        #expect(seen.method == "POST" && seen.path == "/api/v1/alarm/stop" && seen.text == "{}")
        #expect(seen.headers["host"] == "127.0.0.1:\(server.port)")
        #expect(seen.headers["content-type"] == "application/json" && seen.headers["content-length"] == "2")
        #expect(seen.headers["authorization"] == nil)
    }

    @Test func aChunkedAnswerIsReadWhole() async throws {
        let server = try ScriptedServer { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            connection.write(chunk(#"{"alarms":"#))
            connection.write(chunk("[1,2,3]}") + "0\r\n\r\n")
        }
        let link = FaceLink(port: server.port, tokenPath: nil)
        defer { link.stop() }
        let reply = await ask(link, "GET", "/alarms")
        #expect(reply.status == 200 && text(reply.body) == #"{"alarms":[1,2,3]}"#)
        #expect(server.requests.first?.headers["content-length"] == nil, "a GET sends no body")
    }

    @Test func aPathThatWouldSplitTheRequestIsNeverSent() async throws {
        let server = try ScriptedServer { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.respond(200, "{}")
        }
        let link = FaceLink(port: server.port, tokenPath: nil)
        defer { link.stop() }
        for (method, path) in [("GET", "/status HTTP/1.1\r\nX-Evil: 1"), ("GET", "/a b"), ("GET", "status"), ("", "/status")] {
            #expect(await ask(link, method, path).status == 0, "\(path)")
        }
        #expect(await ask(link, "GET", "/status?x=1").status == 200)
        #expect(server.requests.map(\.path) == ["/api/v1/status?x=1"])
    }

    @Test func commandsRunInTheOrderTheyWereSent() async throws {
        let server = try ScriptedServer { connection, _ in
            guard let request = connection.readRequest() else { return }
            connection.respond(200, request.path)
        }
        let link = FaceLink(port: server.port, tokenPath: nil)
        defer { link.stop() }
        let replies = Gathered<String>()
        for n in 0..<25 {
            link.send(method: n % 2 == 0 ? "POST" : "GET", path: "/n/\(n)", json: nil) { replies.add(text($0.body)) }
        }
        let all = await onThread("test-wait") { replies.wait { $0.count == 25 } }
        #expect(all == (0..<25).map { "/api/v1/n/\($0)" })
        #expect(server.requests.map(\.path) == all)
    }

    @Test func aDeadPortOrASilentServerAnswersStatusZero() async throws {
        // A port bound but not listening refuses connections.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
                bind(fd, p, length) == 0 ? getsockname(fd, p, &length) : -1
            }
        }
        let dead = FaceLink(port: Int(UInt16(bigEndian: address.sin_port)), host: "127.0.0.1", tokenPath: nil, timing: quick)
        defer { dead.stop() }
        #expect(await ask(dead, "POST", "/alarm/stop", "{}").status == 0)

        let silent = try ScriptedServer { connection, _ in
            _ = connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{")
            connection.hold()
        }
        let link = FaceLink(
            port: silent.port, host: "127.0.0.1", tokenPath: nil, timing: FaceLinkTiming(commandTimeout: .seconds(1)))
        defer { link.stop() }
        #expect(await ask(link, "GET", "/status").status == 0)
    }

    @Test func aRefusedCommandPairsAsTheKioskKeepsTheTokenAndAnotherLinkReusesIt() async throws {
        let folder = try TemporaryDirectory("facelink")
        let tokenPath = folder.file("state/face/token")
        let server = try ScriptedServer { connection, _ in
            guard let request = connection.readRequest() else { return }
            switch request.path {
            case "/api/v1/pair/code":
                connection.respond(201, #"{"code":"482913","expiresAt":1764410000.5}"#, reason: "Created")
            case "/api/v1/pair" where request.text == #"{"code":"482913","name":"kiosk"}"#:
                connection.respond(201, #"{"token":"tok-38_abc","name":"kiosk","id":4}"#, reason: "Created")
            case _ where request.headers["authorization"] == "Bearer tok-38_abc":
                connection.respond(200, #"{"volume":30}"#)
            default:
                connection.respond(401, #"{"error":{"kind":"unauthorized","message":"A change needs a token."}}"#)
            }
        }
        let link = FaceLink(port: server.port, tokenPath: tokenPath)
        let reply = await ask(link, "POST", "/player/volume", #"{"volume":30}"#)
        link.stop()
        #expect(reply.status == 200 && text(reply.body) == #"{"volume":30}"#)
        #expect(
            server.requests.map { "\($0.method) \($0.path) \($0.headers["authorization"] ?? "-")" } == [
                "POST /api/v1/player/volume -", "POST /api/v1/pair/code -", "POST /api/v1/pair -",
                "POST /api/v1/player/volume Bearer tok-38_abc",
            ])
        #expect(server.requests[3].text == #"{"volume":30}"#)
        var info = stat()
        #expect(stat(tokenPath, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(folder.file("state/face"), &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(TokenFile.read(tokenPath) == "tok-38_abc")

        let again = FaceLink(port: server.port, tokenPath: tokenPath)
        defer { again.stop() }
        #expect(await ask(again, "POST", "/player/volume", #"{"volume":30}"#).status == 200)
        #expect(server.requests.count == 5 && server.requests[4].headers["authorization"] == "Bearer tok-38_abc")
    }

    @Test func aPairingThatFailsAnswersTheRefusalOnce() async throws {
        let server = try ScriptedServer { connection, _ in
            guard let request = connection.readRequest() else { return }
            if request.path == "/api/v1/pair/code" {
                connection.respond(403, #"{"error":{"kind":"forbidden","message":"Only the clock's own screen."}}"#)
            } else {
                connection.respond(401, #"{"error":{"kind":"unauthorized","message":"No."}}"#)
            }
        }
        let link = FaceLink(port: server.port, tokenPath: nil)
        defer { link.stop() }
        let reply = await ask(link, "POST", "/alarm/stop", "{}")
        #expect(reply.status == 401 && text(reply.body).contains("unauthorized"))
        #expect(server.requests.map(\.path) == ["/api/v1/alarm/stop", "/api/v1/pair/code"])
    }

    /// States sent in many small packets, with keep-alive comments and other events between them, arrive whole
    /// and in order; the stream's request asks for events on the clock's Host.
    @Test func liveStatesArriveWholeFromAStreamSentInPieces() async throws {
        let states = (1...30).map { #"{"now":\#($0),"radio":{"title":"Song \#($0): \"x\""}}"# }
        let server = try ScriptedServer { connection, _ in
            guard connection.readStream() != nil else { return }
            var body = ""
            for (n, state) in states.enumerated() {
                body += frame(state) + (n % 3 == 0 ? ": keep-alive\n\n" : "") + (n % 7 == 0 ? "event: other\ndata: 1\n\n" : "")
            }
            var random = SeededRandom(state: 38)
            let bytes = Array(streamHead.utf8) + chunked(Array(body.utf8), using: &random)
            var at = 0
            while at < bytes.count {
                let n = min(bytes.count - at, Int.random(in: 1...64, using: &random))
                guard connection.write(Array(bytes[at..<at + n])) else { return }
                at += n
                if Int.random(in: 0..<8, using: &random) == 0 { usleep(1000) }
            }
            connection.hold()
        }
        defer { server.stop() }
        let link = FaceLink(port: server.port, host: "127.0.0.1", tokenPath: nil, timing: quick)
        defer { link.stop() }
        let received = Gathered<String>()
        let links = Gathered<Bool>()
        link.startLive(onState: { received.add(text($0)) }, onLink: { links.add($0) })
        let all = await onThread("test-wait") { received.wait { $0.count >= states.count } }
        #expect(all == states)
        #expect(links.all.first == true)
        let request = try #require(server.requests.first)
        #expect(request.method == "GET" && request.path == "/api/v1/events")
        #expect(request.headers["host"] == "127.0.0.1:\(server.port)" && request.headers["accept"] == "text/event-stream")
    }

    /// The stream ends (the clock restarts): the link says so, connects again and the state comes again.
    @Test func aClosedStreamIsOpenedAgain() async throws {
        let server = try ScriptedServer { connection, _ in
            guard let number = connection.readStream() else { return }
            connection.write(streamHead + chunk(frame(#"{"n":\#(number)}"#)))
            if number == 1 {
                connection.write("0\r\n\r\n")
            } else {
                connection.hold()
            }
        }
        defer { server.stop() }
        let link = FaceLink(port: server.port, host: "127.0.0.1", tokenPath: nil, timing: quick)
        defer { link.stop() }
        let received = Gathered<String>()
        let links = Gathered<Bool>()
        link.startLive(onState: { received.add(text($0)) }, onLink: { links.add($0) })
        // The link is told up before the state that brought it up is handed over.
        #expect(await onThread("test-wait") { received.wait { $0.count >= 2 } } == [#"{"n":1}"#, #"{"n":2}"#])
        #expect(links.all == [true, false, true])
    }

    /// A stream that sends nothing — not even its keep-alive — for longer than the silence allowed is dropped and
    /// opened again.
    @Test func aSilentStreamIsTakenForDead() async throws {
        let server = try ScriptedServer { connection, _ in
            guard let number = connection.readStream() else { return }
            connection.write(streamHead + chunk(frame(#"{"n":\#(number)}"#)))
            connection.hold()
        }
        defer { server.stop() }
        let timing = FaceLinkTiming(
            commandTimeout: .seconds(5), liveSilence: .milliseconds(300), firstRetry: .milliseconds(20),
            longestRetry: .milliseconds(20))
        let link = FaceLink(port: server.port, host: "127.0.0.1", tokenPath: nil, timing: timing)
        defer { link.stop() }
        let received = Gathered<String>()
        link.startLive(onState: { received.add(text($0)) }, onLink: { _ in })
        let all = await onThread("test-wait") { received.wait { $0.count >= 2 } }
        #expect(all.prefix(2) == [#"{"n":1}"#, #"{"n":2}"#])
    }

    /// A stream refused with 401 (a revoked token) pairs the face, and the stream opens at once with the new token.
    @Test func aRefusedStreamPairsAndOpensWithTheNewToken() async throws {
        let folder = try TemporaryDirectory("facelink")
        let tokenPath = folder.file("token")
        TokenFile.write("revoked", to: tokenPath)
        let server = try ScriptedServer { connection, _ in
            guard let request = connection.readRequest() else { return }
            switch request.path {
            case "/api/v1/pair/code": connection.respond(201, #"{"code":"000111"}"#)
            case "/api/v1/pair": connection.respond(201, #"{"token":"fresh","name":"kiosk","id":2}"#)
            case _ where request.headers["authorization"] == "Bearer fresh":
                connection.write(streamHead + chunk(frame(#"{"ok":true}"#)))
                connection.hold()
            default: connection.respond(401, #"{"error":{"kind":"unauthorized","message":"Unknown token."}}"#)
            }
        }
        defer { server.stop() }
        let link = FaceLink(port: server.port, host: "127.0.0.1", tokenPath: tokenPath, timing: quick)
        defer { link.stop() }
        let received = Gathered<String>()
        let links = Gathered<Bool>()
        link.startLive(onState: { received.add(text($0)) }, onLink: { links.add($0) })
        #expect(await onThread("test-wait") { received.wait { !$0.isEmpty } } == [#"{"ok":true}"#])
        #expect(links.all == [true], "a refusal followed by a pairing is not an outage")
        #expect(server.requests.map(\.path) == ["/api/v1/events", "/api/v1/pair/code", "/api/v1/pair", "/api/v1/events"])
        #expect(TokenFile.read(tokenPath) == "fresh")
    }

    /// A stream up without a token (the clock lets its own machine read without one) has the face pair at once
    /// on the command thread, as the kiosk page does, so the first command finds a token.
    @Test func aStreamUpWithoutATokenPairsAhead() async throws {
        let server = try ScriptedServer { connection, _ in
            guard let request = connection.readRequest() else { return }
            switch request.path {
            case "/api/v1/pair/code": connection.respond(201, #"{"code":"000111"}"#)
            case "/api/v1/pair": connection.respond(201, #"{"token":"early","name":"kiosk","id":2}"#)
            default:
                connection.write(streamHead + chunk(frame("{}")))
                connection.hold()
            }
        }
        defer { server.stop() }
        let link = FaceLink(port: server.port, host: "127.0.0.1", tokenPath: nil, timing: quick)
        defer { link.stop() }
        link.startLive(onState: { _ in }, onLink: { _ in })
        let done = await onThread("test-wait") {
            eventually { link.core.token != nil }
            return link.core.token
        }
        #expect(done == "early")
    }

    /// `stop()` ends a stream blocked in a read and a command blocked on a silent server (on their threads, named
    /// for the kernel); later commands are answered at once with status 0.
    @Test func stopEndsWhatIsUnderWay() async throws {
        let server = try ScriptedServer { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.hold()
        }
        defer { server.stop() }
        let link = FaceLink(port: server.port, tokenPath: nil)
        let replies = Gathered<Int>()
        link.startLive(onState: { _ in }, onLink: { _ in })
        link.send(method: "GET", path: "/status", json: nil) { replies.add($0.status) }
        link.send(method: "GET", path: "/status", json: nil) { replies.add($0.status) }
        #expect(await onThread("test-wait") { eventually { server.requests.count >= 2 } })
        #expect(await threadAppears("face-live"), "\(threadNames())")
        #expect(await threadAppears("face-commands"), "\(threadNames())")
        link.stop()
        #expect(await onThread("test-wait") { replies.wait { $0.count == 2 } } == [0, 0])
        link.send(method: "GET", path: "/status", json: nil) { replies.add($0.status) }
        #expect(replies.all == [0, 0, 0])
    }
}
