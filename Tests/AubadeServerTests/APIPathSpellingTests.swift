import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import AubadeServer

/// R39 at the API: access is decided on the route, so no spelling of a path reaches a handler past its rule. Every
/// operation of the OpenAPI document (a new one is walked by itself) is asked for spelled plainly and spelled
/// otherwise — doubled slashes, `/./`, `..`, a trailing slash, percent-encoded slashes and letters, other letter
/// cases — while an alarm rings, by a client without a token on another machine, by the clock's own machine
/// without a token, and with a valid token; nothing but the plain spelling is ever served, and the stored clock and
/// the ringing alarm are as they were.
@Suite("API: access decided on the route")
struct APIPathSpellingTests {
    struct Operation: CustomStringConvertible {
        let method: HTTPRequest.Method
        /// In OpenAPI form: "/api/v1/alarms/{id}".
        let template: String
        var description: String { "\(method) \(template)" }

        /// The path with a value for each parameter: the alarm, station and programme 1, the podcast "News".
        var path: String {
            template.replacingOccurrences(of: "{id}", with: "1").replacingOccurrences(of: "{name}", with: "News")
        }
    }

    /// Every operation of the OpenAPI document.
    static func operations() throws -> [Operation] {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operations: [Operation] = []
        for (template, item) in paths {
            for key in item.keys where key != "parameters" {
                let method = try #require(HTTPRequest.Method(key.uppercased()), "\(key) \(template)")
                operations.append(Operation(method: method, template: template))
            }
        }
        return operations.sorted { $0.description < $1.description }
    }

    /// `path` spelled in every other way a client might use to reach the same route.
    static func spellings(of path: String) -> [String] {
        let rest = String(path.dropFirst("/api/v1/".count))
        let first = rest.prefix(1)
        return [
            "/" + path, "//" + path, "/api//v1/" + rest, "/api/v1//" + rest, "/." + path,
            "/api/./v1/" + rest, "/api/v1/./" + rest, "/api/x/../v1/" + rest, path + "/", path + "//",
            "/api%2Fv1/" + rest, "/api/v1%2F" + rest, "/%61pi/v1/" + rest, "/api/v1/%" + hex(first) + rest.dropFirst(),
            "/API/v1/" + rest, "/Api/V1/" + rest.prefix(1).uppercased() + rest.dropFirst(),
        ]
    }

    private static func hex(_ letter: Substring) -> String {
        letter.utf8.map { String(format: "%02X", $0) }.joined()
    }

    /// A clock with an alarm due at 07:00 that rings, a station, a programme and a podcast: what a request that got
    /// through would change or silence.
    static func ringingRig() async throws -> APIRig {
        let rig = try await APIRig { store in
            try APIRig.storeWorkAlarmAndNewsPodcast(store)
        }
        await rig.ringAtSeven()
        return rig
    }

    /// Sends every spelling of every operation; `check` judges each answer (its operation, the path sent, whether it
    /// was the plain spelling, its status). `stream`: whether the plain event stream is asked for too (where it is
    /// served, it does not end).
    static func walk(
        _ client: some TestClientProtocol, headers: HTTPFields, stream: Bool,
        _ check: (Operation, String, Bool, HTTPResponse.Status) -> Void
    ) async throws -> Int {
        var sent = 0
        for operation in try operations() {
            for (path, plain) in [(operation.path, true)] + spellings(of: operation.path).map({ ($0, false) }) {
                if plain && !stream && operation.template == "/api/v1/events" { continue }
                let body: ByteBuffer? = operation.method == .get ? nil : ByteBuffer(string: "{}")
                let reply = try await client.execute(uri: path, method: operation.method, headers: headers, body: body)
                check(operation, path, plain, reply.status)
                sent += 1
            }
        }
        return sent
    }

    @Test func theSpellingsAreOtherSpellingsOfThePath() {
        let spellings = Self.spellings(of: "/api/v1/alarms/1")
        #expect(spellings.count == 16 && Set(spellings).count == 16 && !spellings.contains("/api/v1/alarms/1"))
        #expect(spellings.contains("//api/v1/alarms/1") && spellings.contains("/./api/v1/alarms/1"))
        #expect(spellings.contains("/api/v1/%61larms/1") && spellings.contains("/Api/V1/Alarms/1"))
        for spelling in spellings where !spelling.contains("%") && spelling.lowercased() == spelling {
            #expect(PlainPathGuard.plain(spelling) == "/api/v1/alarms/1", "\(spelling)")
            #expect(!PlainPathGuard.isPlain(spelling), "\(spelling)")
        }
        #expect(PlainPathGuard.isPlain("/") && PlainPathGuard.isPlain("/api/v1/podcasts/..%2Fx/episodes"))
        #expect(!PlainPathGuard.isPlain("") && !PlainPathGuard.isPlain("api/v1/status"))
    }

    @Test func withoutATokenFromAnotherMachineNoSpellingOfAnyOperationIsServed() async throws {
        let rig = try await Self.ringingRig()
        let ringing = try #require(rig.sound.played.last)
        let before = try StoredClock(rig)
        try await rig.app.test(.router) { client in
            let sent = try await Self.walk(client, headers: APIRig.json, stream: true) { operation, path, plain, status in
                if plain {
                    // Only the public document answers a stranger; the rest is refused by its rule.
                    let open = operation.template == "/api/v1/openapi.json"
                    #expect(open ? status == .ok : !(200..<300).contains(status.code), "\(operation.method) \(path): \(status)")
                } else {
                    #expect(status == .notFound, "\(operation.method) \(path): \(status)")
                }
            }
            #expect(sent == (try Self.operations().count) * 17)
        }
        #expect(!rig.sound.calls.contains(.stop(ringing.id)), "the ringing alarm was silenced")
        before.expectSame(as: try StoredClock(rig), "after every spelling without a token")
    }

    @Test func fromTheClocksOwnMachineWithoutATokenOnlyPlainReadsAndThePairingCodeAreServed() async throws {
        let rig = try await Self.ringingRig()
        let ringing = try #require(rig.sound.played.last)
        try await rig.app.test(.live) { client in
            _ = try await Self.walk(client, headers: APIRig.json, stream: false) { operation, path, plain, status in
                let open =
                    plain && (operation.method == .get || operation.template == "/api/v1/pair/code")
                    && operation.template != "/api/v1/events"
                if !open {
                    #expect(!(200..<300).contains(status.code), "\(operation.method) \(path): \(status)")
                }
                if !plain { #expect(status == .notFound, "\(operation.method) \(path): \(status)") }
            }
        }
        #expect(!rig.sound.calls.contains(.stop(ringing.id)), "the ringing alarm was silenced")
        #expect(try rig.store.alarms().count == 1)
    }

    @Test func withAValidTokenOnlyThePlainSpellingReachesARoute() async throws {
        let rig = try await Self.ringingRig()
        let ringing = try #require(rig.sound.played.last)
        let before = try StoredClock(rig)
        try await rig.app.test(.router) { client in
            var plainReads = 0
            let reads = try Self.operations().filter { $0.method == .get && $0.template != "/api/v1/events" }
            for operation in reads {
                let reply = try await client.execute(uri: operation.path, method: .get, headers: rig.auth)
                if reply.status == .ok { plainReads += 1 }
                for path in Self.spellings(of: operation.path) {
                    let other = try await client.execute(uri: path, method: .get, headers: rig.auth)
                    #expect(other.status == .notFound, "GET \(path) with a token: \(other.status)")
                }
            }
            #expect(plainReads >= reads.count - 2, "the plain reads are served with a token (\(plainReads) of \(reads.count))")
            for operation in try Self.operations() where operation.method != .get {
                for path in Self.spellings(of: operation.path) {
                    let reply = try await client.execute(
                        uri: path, method: operation.method, headers: rig.auth, body: ByteBuffer(string: "{}"))
                    #expect(reply.status == .notFound, "\(operation.method) \(path) with a token: \(reply.status)")
                }
            }
            let doubled = try await client.execute(uri: "//api/v1/alarms/1", method: .delete, headers: rig.auth)
            #expect(
                doubled.error?.message
                    == "This clock answers each path in one spelling only, without empty, '.' or '..' segments or a trailing slash; ask for '/api/v1/alarms/1'."
            )
        }
        #expect(!rig.sound.calls.contains(.stop(ringing.id)), "the ringing alarm was silenced")
        before.expectSame(as: try StoredClock(rig), "after every other spelling with a token")
    }

    @Test func everyRouteDeclaresItsRuleAndTheRouterHasNoOtherRoute() async throws {
        let rig = try await APIRig()
        let (router, _) = APIServer.router(clock: rig.clock, settings: rig.settings)
        let routes = APIServer.register(
            on: Router(context: APIContext.self),
            guards: RouteBook.Guards(
                access: AccessPolicy(
                    tokens: rig.clock.tokens, limiter: RateLimiter(limit: 5, window: 60, lockout: 60), openReads: false),
                maxBody: rig.settings.maxBody, streams: LiveStreamAdmission(streams: LiveStreams(bound: 1)) { _ in false },
                contract: nil, onBreach: { _ in }),
            clock: rig.clock, settings: rig.settings)
        for route in routes {
            let expected: RouteAccess =
                switch (route.method, route.path) {
                case (_, "/"), (_, "/kiosk"), (_, "/assets/{name}"): .page
                case ("GET", "/api/v1/openapi.json"): .document
                case ("POST", "/api/v1/pair"): .pair
                case ("POST", "/api/v1/pair/code"): .pairCode
                case ("GET", _): .read
                default: .change
                }
            #expect(route.access == expected, "\(route) declares \(route.access), not \(expected)")
        }
        let registered = Set(router.routes.map { "\($0.method) \($0.path)" })
        let booked = Set(routes.map(\.description))
        #expect(registered == booked, "routes outside the book: \(registered.subtracting(booked))")
        #expect(Set(try Self.operations().map(\.description)).isSubset(of: Set(routes.map(\.description))))
    }

    /// A chunked body (no Content-Length) past 64 KiB is 413 on every route that takes a body, like a sized one —
    /// never a 500 — and changes nothing.
    @Test func aChunkedBodyOverTheLimitIs413OnEveryChange() async throws {
        let rig = try await Self.ringingRig()
        let before = try StoredClock(rig)
        try await rig.app.test(.live) { client in
            let port = try #require(client.port)
            let token = rig.token
            for operation in try Self.operations() where operation.method != .get {
                let path = operation.path
                let method = operation.method.rawValue
                let answer = await onThread { () -> String? in
                    guard let socket = try? RawSocket(port: port) else { return nil }
                    socket.send(
                        "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n"
                            + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                    let chunk = String(repeating: " ", count: 8192)
                    for _ in 0..<9 { guard socket.send("2000\r\n\(chunk)\r\n") else { break } }
                    socket.send("0\r\n\r\n")
                    return socket.readResponse()
                }
                let head = try #require(answer, "\(method) \(path): no answer").prefix { $0 != "\r\n" }
                #expect(head.hasPrefix("HTTP/1.1 413 "), "\(method) \(path) chunked: \(head)")
            }
        }
        before.expectSame(as: try StoredClock(rig), "after the chunked bodies")
    }
}
