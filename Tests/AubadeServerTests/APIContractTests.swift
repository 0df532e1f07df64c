import AubadeServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// What the API fuzzer (Tests/Contract/fuzz.py) found against the document, one test each: the answers a client
/// built from /api/v1/openapi.json is promised.
@Suite("API contract findings")
struct APIContractTests {
    @Test func aPairingWithAnEmptyCodeOrNameIsA400EvenWithATokenNeverA500() async throws {
        let rig = try await APIRig()
        try await rig.app.test(.router) { client in
            let empty = try await client.execute(
                uri: "/api/v1/pair", method: .post, headers: rig.auth, body: ByteBuffer(json: #"{"code":"","name":""}"#))
            #expect(empty.status == .badRequest && empty.error?.message == "Give 'code', the 6 digits the clock shows.")
            let unnamed = try await client.execute(
                uri: "/api/v1/pair", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"code":"123456","name":" "}"#))
            #expect(unnamed.status == .badRequest && unnamed.error?.message == "Token name is empty; give it a few words.")
            // A well-formed wrong code from a token holder is the same 401 a tokenless device gets.
            let wrong = try await client.execute(
                uri: "/api/v1/pair", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"code":"123456","name":"phone"}"#))
            #expect(wrong.status == .unauthorized && wrong.error?.kind == "unauthorized")
        }
    }

    @Test func aMethodAPathDoesNotTakeIs405WithTheMethodsItDoes() async throws {
        let rig = try await APIRig()
        try await rig.app.test(.router) { client in
            let put = try await client.execute(
                uri: "/api/v1/alarms", method: .put, headers: rig.auth, body: ByteBuffer(json: "{}"))
            #expect(put.status == .methodNotAllowed && put.headers[.allow] == "GET, POST")
            #expect(put.error?.message == "/api/v1/alarms does not take PUT; it takes GET, POST.")
            let trace = try await client.execute(uri: "/api/v1/alarms/7", method: .trace, headers: rig.auth)
            #expect(trace.status == .methodNotAllowed && trace.headers[.allow] == "GET, PATCH, DELETE")
            let snooze = try await client.execute(uri: "/api/v1/alarm/snooze", method: .get, headers: rig.auth)
            #expect(snooze.status == .methodNotAllowed && snooze.headers[.allow] == "POST")
            // A literal segment wins over a parameter, as in the router: /alarms/next is not /alarms/{id}.
            let next = try await client.execute(uri: "/api/v1/alarms/next", method: .options, headers: rig.auth)
            #expect(next.status == .methodNotAllowed && next.headers[.allow] == "GET")
            let imports = try await client.execute(uri: "/api/v1/days-off/import", method: .delete, headers: rig.auth)
            #expect(imports.status == .methodNotAllowed && imports.headers[.allow] == "POST")
            // A path the API does not have at all is still 404.
            let nowhere = try await client.execute(uri: "/api/v1/nowhere", method: .get, headers: rig.auth)
            #expect(nowhere.status == .notFound)
        }
    }

    @Test func aNameIsCountedInCodePointsAsTheDocumentCountsIt() async throws {
        let rig = try await APIRig()
        try await rig.app.test(.router) { client in
            // 64 letters each with a combining accent: 64 characters on screen, 128 code points — over the limit.
            let accented = String(repeating: "e\u{301}", count: 64)
            let long = try await client.execute(
                uri: "/api/v1/stations", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"name":"\#(accented)","url":"https://radio.example/a.mp3"}"#))
            #expect(
                long.status == .badRequest
                    && long.error?.message == "Station name is 128 characters long; at most 64 are allowed.")
            // A name of white space by Unicode's White_Space property (a no-break space) is empty.
            let blank = try await client.execute(
                uri: "/api/v1/stations", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"name":"\u00a0","url":"https://radio.example/a.mp3"}"#))
            #expect(blank.status == .badRequest && blank.error?.message == "Station name is empty; give it a few words.")
        }
    }
}
