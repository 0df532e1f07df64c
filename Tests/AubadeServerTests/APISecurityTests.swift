import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeServer
import AubadeStore
import AubadeTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// R30–R32 at the API: tokens, Host and Origin, JSON bodies and their size, reads from other machines, the
/// rate limit — and that a locked-out peer never keeps an alarm from ringing or stopping.
@Suite("API security")
struct APISecurityTests {
    @Test func aChangeWithoutATokenOrWithAWrongOneIs401AndChangesNothing() async throws {
        let rig = try await APIRig()
        try await rig.app.test(.live) { client in
            let body = ByteBuffer(json: #"{"name":"Work","time":"07:00"}"#)
            let none = try await client.execute(uri: "/api/v1/alarms", method: .post, headers: APIRig.json, body: body)
            #expect(none.status == .unauthorized && none.headers[.wwwAuthenticate] == "Bearer")
            #expect(
                none.error?.message
                    == "A change needs a token: send 'Authorization: Bearer <token>' (make one with 'aubade token new', or pair this device)."
            )
            let wrong = try await client.execute(
                uri: "/api/v1/alarms", method: .post,
                headers: [.authorization: "Bearer aubade_wrong", .contentType: "application/json"], body: body)
            #expect(wrong.status == .unauthorized && wrong.error?.kind == "unauthorized")
            let notBearer = try await client.execute(
                uri: "/api/v1/alarms", method: .post,
                headers: [.authorization: "Basic \(rig.token)", .contentType: "application/json"], body: body)
            #expect(notBearer.status == .unauthorized)
            let wrongOnRead = try await client.execute(
                uri: "/api/v1/alarms", method: .get, headers: [.authorization: "Bearer nope"])
            #expect(wrongOnRead.status == .unauthorized, "a wrong token is refused even where none is needed")
            #expect(try rig.store.alarms().isEmpty)
            let right = try await client.execute(uri: "/api/v1/alarms", method: .post, headers: rig.auth, body: body)
            #expect(right.status == .created)
        }
    }

    @Test func aCrossOriginRequestAndAForeignHostAre403() async throws {
        let rig = try await APIRig()
        try await rig.app.test(.live) { client in
            var headers = rig.auth
            headers[.origin] = "http://evil.example"
            let cross = try await client.execute(
                uri: "/api/v1/alarms", method: .post, headers: headers,
                body: ByteBuffer(json: #"{"name":"Work","time":"07:00"}"#))
            #expect(cross.status == .forbidden && cross.error?.kind == "forbidden")
            #expect(
                cross.error?.message
                    == "Requests from another site are refused (Origin http://evil.example is not http://localhost).")
            var readHeaders = HTTPFields()
            readHeaders[.origin] = "null"
            #expect(try await client.execute(uri: "/api/v1/alarms", method: .get, headers: readHeaders).status == .forbidden)
            headers[.origin] = "http://localhost"
            let same = try await client.execute(
                uri: "/api/v1/alarms", method: .post, headers: headers,
                body: ByteBuffer(json: #"{"name":"Work","time":"07:00"}"#))
            #expect(same.status == .created, "same-origin (the page itself) is fine")
            // DNS rebinding: the attacker's name resolves to the clock, but the Host header still says it.
            let port = try #require(client.port)
            try await TestClient.withClient(host: "127.0.0.1", port: port) { raw in
                for host in ["evil.example", "evil.example:\(port)", "attacker.localhost.example"] {
                    let rebound = try await raw.execute(TestClient.Request("/api/v1/alarms", method: .get, authority: host))
                    #expect(rebound.status == .forbidden, "\(host)")
                }
                let own = try await raw.execute(
                    TestClient.Request("/api/v1/alarms", method: .get, authority: "127.0.0.1:\(port)"))
                #expect(own.status == .ok)
                let page = try await raw.execute(TestClient.Request("/", method: .get, authority: "evil.example"))
                #expect(page.status == .forbidden, "the pages too")
            }
            #expect(try rig.store.alarms().count == 1)
        }
    }

    @Test func allowedHostsNameMoreHosts() async throws {
        let rig = try await APIRig(settings: ServerSettings(host: "127.0.0.1", port: 0, allowedHosts: ["clock.home"]))
        try await rig.app.test(.live) { client in
            try await TestClient.withClient(host: "127.0.0.1", port: try #require(client.port)) { raw in
                let named = try await raw.execute(
                    TestClient.Request("/api/v1/alarms", method: .get, authority: "Clock.Home.:8080"))
                let other = try await raw.execute(TestClient.Request("/api/v1/alarms", method: .get, authority: "other.home"))
                #expect(named.status == .ok && other.status == .forbidden)
            }
        }
    }

    @Test func aBodyThatIsNotJSONIs415AndOneTooLargeIs413() async throws {
        let rig = try await APIRig()
        try await rig.app.test(.live) { client in
            var form = rig.auth
            form[.contentType] = "application/x-www-form-urlencoded"
            let typed = try await client.execute(
                uri: "/api/v1/alarms", method: .post, headers: form, body: ByteBuffer(string: "name=Work&time=07:00"))
            #expect(
                typed.status == .unsupportedMediaType
                    && typed.error?.message == "A change must be sent as JSON (Content-Type: application/json).")
            var untyped = rig.auth
            untyped[.contentType] = nil
            let bare = try await client.execute(
                uri: "/api/v1/alarms", method: .post, headers: untyped, body: ByteBuffer(string: "{}"))
            #expect(bare.status == .unsupportedMediaType, "a body without a type is not taken as JSON")
            let large = ByteBuffer(json: #"{"name":"\#(String(repeating: "x", count: 70 * 1024))","time":"07:00"}"#)
            let big = try await client.execute(uri: "/api/v1/alarms", method: .post, headers: rig.auth, body: large)
            #expect(big.status == .contentTooLarge && big.error?.message == "The request body is larger than 64 KiB.")
            #expect(try rig.store.alarms().isEmpty)
            // A change without a body needs no type: DELETE of an unknown alarm is simply 404.
            let delete = try await client.execute(
                uri: "/api/v1/alarms/5", method: .delete, headers: [.authorization: "Bearer \(rig.token)"])
            #expect(delete.status == .notFound && delete.error?.message == "No alarm has id 5.")
        }
    }

    @Test func readingFromAPeerNotKnownToBeThisMachineNeedsATokenOrOpenReads() async throws {
        // The router test mode hands requests over without a connection: the peer is unknown, so it is not the
        // clock's own machine (PeerAddress's classification of real addresses is checked below).
        let rig = try await APIRig()
        try await rig.app.test(.router) { client in
            // 401 with the Bearer challenge: the request lacks credentials (RFC 9110 §15.5.2), as the document says.
            let anonymous = try await client.execute(uri: "/api/v1/alarms", method: .get)
            #expect(anonymous.status == .unauthorized && anonymous.headers[.wwwAuthenticate] == "Bearer")
            #expect(
                anonymous.error?.message
                    == "Reading the clock from another machine needs a token (or [http] open_reads = true in its config).")
            #expect(try await client.execute(uri: "/api/v1/events", method: .get).status == .unauthorized)
            #expect(
                try await client.execute(uri: "/api/v1/alarms", method: .get, headers: [.authorization: "Bearer \(rig.token)"])
                    .status == .ok)
            #expect(
                try await client.execute(uri: "/api/v1/openapi.json", method: .get).status == .ok, "the description is public")
            #expect(try await client.execute(uri: "/", method: .get).status == .ok, "the page itself holds no data")
            let code = try await client.execute(uri: "/api/v1/pair/code", method: .post, headers: APIRig.json)
            #expect(code.status == .forbidden && code.error?.message == "Only the clock's own screen may show a pairing code.")
        }
        let open = try await APIRig(settings: ServerSettings(host: "0.0.0.0", port: 0, openReads: true))
        try await open.app.test(.router) { client in
            let read = try await client.execute(uri: "/api/v1/alarms", method: .get)
            let write = try await client.execute(
                uri: "/api/v1/alarms", method: .post, headers: APIRig.json,
                body: ByteBuffer(json: #"{"name":"W","time":"07:00"}"#))
            #expect(read.status == .ok)
            #expect(write.status == .unauthorized, "open reads never open writes")
        }
    }

    @Test func loopbackAddressesAreThisMachineAndOthersAreNot() throws {
        for ip in ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"] {
            #expect(PeerAddress.isLoopback(try SocketAddress(ipAddress: ip, port: 1)), "\(ip)")
        }
        for ip in ["192.168.1.20", "10.0.0.2", "fe80::1", "::ffff:192.168.1.20", "2001:db8::1"] {
            #expect(!PeerAddress.isLoopback(try SocketAddress(ipAddress: ip, port: 1)), "\(ip)")
        }
        #expect(!PeerAddress.isLoopback(nil))
    }

    @Test func failedTokensLockAPeerOutWhileTheAlarmStillRingsAndStops() async throws {
        let rig = try await APIRig { store in
            _ = try store.insertAlarm(zone: .gmt, now: APIRig.morning, AlarmPatch(name: "Work", time: "07:00", days: "daily"))
        }
        try await rig.app.test(.live) { client in
            let bad: HTTPFields = [.authorization: "Bearer guess", .contentType: "application/json"]
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<6 {
                statuses.append(try await client.execute(uri: "/api/v1/alarm/stop", method: .post, headers: bad).status)
            }
            #expect(statuses == [.unauthorized, .unauthorized, .unauthorized, .unauthorized, .tooManyRequests, .tooManyRequests])
            // Another wrong token is not even tried: the address is locked out, and told for how long.
            let locked = try await client.execute(
                uri: "/api/v1/alarms", method: .post, headers: bad,
                body: ByteBuffer(json: #"{"name":"W","time":"07:00"}"#))
            #expect(locked.status == .tooManyRequests && Int(locked.headers[.retryAfter] ?? "") ?? 0 > 0)
            #expect(
                locked.error?.message.hasPrefix("Too many wrong tokens or pairing codes from this address; try again in ") == true
            )
            // The alarm rings on time meanwhile (the limiter is not on the clock's path)…
            await rig.ringAtSeven()
            let ringing = try #require(rig.sound.played.last)
            #expect(ringing.request.priority == .alarm)
            // …and the clock's own screen, with its valid token, stops it from the locked address.
            let stop = try await client.execute(uri: "/api/v1/alarm/stop", method: .post, headers: rig.auth)
            #expect(stop.status == .ok && stop.object["message"] as? String == "Stopped.")
            #expect(rig.sound.calls.contains(.stop(ringing.id)))
            // A wrong token from the locked address is still refused without being tried.
            #expect(
                try await client.execute(uri: "/api/v1/alarms", method: .get, headers: [.authorization: "Bearer guess"]).status
                    == .tooManyRequests)
        }
    }

    @Test func pairingTradesTheKiosksCodeForATokenOnceAndWrongCodesCountAsFailures() async throws {
        let rig = try await APIRig()
        try await rig.app.test(.live) { client in
            let codeReply = try await client.execute(uri: "/api/v1/pair/code", method: .post, headers: APIRig.json)
            #expect(codeReply.status == .created)
            let code = try #require(codeReply.object["code"] as? String)
            #expect(codeReply.object["expiresAt"] as? Double == APIRig.morning.timeIntervalSince1970 + 120)
            let wrongCode = code == "000000" ? "000001" : "000000"
            let wrong = try await client.execute(
                uri: "/api/v1/pair", method: .post, headers: APIRig.json,
                body: ByteBuffer(json: #"{"code":"\#(wrongCode)","name":"phone"}"#))
            #expect(
                wrong.status == .unauthorized
                    && wrong.error?.message == "The pairing code is wrong or has expired; ask the clock for a new one.")
            let paired = try await client.execute(
                uri: "/api/v1/pair", method: .post, headers: APIRig.json,
                body: ByteBuffer(json: #"{"code":"\#(code)","name":"phone"}"#))
            #expect(paired.status == .created && paired.object["name"] as? String == "phone")
            let token = try #require(paired.object["token"] as? String)
            let used = try await client.execute(
                uri: "/api/v1/alarms", method: .post,
                headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                body: ByteBuffer(json: #"{"name":"Phone alarm","time":"07:00"}"#))
            #expect(used.status == .created)
            let again = try await client.execute(
                uri: "/api/v1/pair", method: .post, headers: APIRig.json,
                body: ByteBuffer(json: #"{"code":"\#(code)","name":"tablet"}"#))
            #expect(again.status == .unauthorized, "a code is used once")
            for _ in 0..<3 {
                _ = try await client.execute(
                    uri: "/api/v1/pair", method: .post, headers: APIRig.json,
                    body: ByteBuffer(json: #"{"code":"\#(wrongCode)","name":"x"}"#))
            }
            let limited = try await client.execute(uri: "/api/v1/pair/code", method: .post, headers: APIRig.json)
            #expect(limited.status == .tooManyRequests, "five wrong codes lock the address out, code requests included")
            #expect(try rig.store.tokens().map(\.name) == ["test", "phone"])
        }
    }

    @Test func theEventStreamSendsTheStateAtOnceThenEveryChangeAndTheCodeOnlyToThisMachine() async throws {
        let rig = try await APIRig { store in
            _ = try store.insertAlarm(zone: .gmt, now: APIRig.morning, AlarmPatch(name: "Work", time: "07:00", days: "daily"))
        }
        // Router mode: the response's body is collected until the stream ends — here when the clock shuts down.
        let body = try await rig.app.test(.router) { client in
            async let response = client.execute(
                uri: "/api/v1/events", method: .get, headers: [.authorization: "Bearer \(rig.token)"])
            let deadline = ContinuousClock.now + .seconds(60)
            while await rig.clock.liveSubscriberCount == 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            _ = try await rig.clock.handle(.pairingCode)
            await rig.ringAtSeven()
            await rig.clock.shutdown()
            let done = try await response
            #expect(done.headers[.contentType] == "text/event-stream; charset=utf-8")
            return done.text
        }
        let events = body.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        #expect(events.allSatisfy { $0.hasPrefix("event: state\ndata: {") }, "\(events)")
        let states = events.compactMap { event -> [String: Any]? in
            let json = event.components(separatedBy: "data: ").last ?? ""
            return (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
        }
        #expect(states.count >= 3)
        #expect((states.first?["next"] as? [String: Any])?["name"] as? String == "Work" && states.first?["ringing"] == nil)
        #expect(
            states.contains {
                (($0["ringing"] as? [String: Any])?["alarms"] as? [[String: Any]])?.first?["name"] as? String == "Work"
            })
        #expect(states.allSatisfy { $0["pairing"] == nil }, "the code goes only to the clock's own machine")
    }
}
