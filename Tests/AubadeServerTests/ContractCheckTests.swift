import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import Testing

@testable import AubadeServer

/// The checker `ContractGuard` holds every request and answer against: JSON Schema's keywords as the document
/// uses them, the document itself compiled, and the breaches it reports.
@Suite("API contract checker")
struct ContractCheckTests {
    private func schema(_ json: String, named: [String: String] = [:]) throws -> (JSONSchema, JSONSchema.Book) {
        var book: [String: JSONSchema] = [:]
        for (name, text) in named { book[name] = try JSONSchema(try #require(JSONValue.parse(Data(text.utf8))), at: name) }
        return (try JSONSchema(try #require(JSONValue.parse(Data(json.utf8))), at: "#"), JSONSchema.Book(book))
    }

    /// Whether each value fits, as a list of (JSON text, fits).
    private func check(_ json: String, named: [String: String] = [:], _ cases: [(String, Bool)]) throws {
        let (s, book) = try schema(json, named: named)
        for (text, fits) in cases {
            let value = try #require(JSONValue.parse(Data(text.utf8)), "\(text) is JSON")
            let found = s.violation(of: value, in: book)
            #expect((found == nil) == fits, "\(json) against \(text): \(found.map(\.description) ?? "fits")")
        }
    }

    /// Any JSON, read through `Decodable` as the routes' `JSONDecoder` reads bodies.
    private struct Anything: Decodable {
        private struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            if let object = try? decoder.container(keyedBy: Key.self) {
                for key in object.allKeys { _ = try object.decode(Anything.self, forKey: key) }
            } else if var array = try? decoder.unkeyedContainer() {
                while !array.isAtEnd { _ = try array.decode(Anything.self) }
            } else {
                let value = try decoder.singleValueContainer()
                if !value.decodeNil(), (try? value.decode(Bool.self)) == nil, (try? value.decode(Double.self)) == nil {
                    _ = try value.decode(String.self)
                }
            }
        }
    }

    /// The checker's JSON reader takes exactly what `JSONDecoder` takes, at the edges of RFC 8259.
    @Test func theReaderTakesWhatJSONDecoderTakes() throws {
        let texts = [
            "{}", "[]", "0", "-0", "01", "1.", ".5", "1e5", "1E+5", "1e", "-", "+1", "1e400", "12345678901234567890",
            "9223372036854775807", "-9223372036854775808", #""a""#, #""\u00e9""#, #""\ud83d\ude00""#, #""\ud83d""#,
            #""\ude00""#, #""\x""#, "\"a\u{1}b\"", "\"tab\there\"", #"{"a":1,}"#, "[1,]", "[,]", "{,}", "[1,,]", #"{"a":1,,}"#,
            #"{"a" 1}"#, "[1 2]", " [ 1 , 2 ] ",
            "true", "tru", "nul", "null x", #"{"a":1,"a":2}"#, "", " ", "\u{FEFF}{}", "[" + String(repeating: "[", count: 600),
            String(repeating: "[", count: 400) + String(repeating: "]", count: 400),
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600), #""é""#, "NaN", "Infinity",
        ]
        for text in texts {
            let data = Data(text.utf8)
            let decoder = (try? JSONDecoder().decode(Anything.self, from: data)) != nil
            #expect((JSONValue.parse(data) != nil) == decoder, "\(text.prefix(40).debugDescription): JSONDecoder \(decoder)")
        }
        let invalidUTF8 = Data([0x22, 0xC3, 0x28, 0x22])
        #expect(JSONValue.parse(invalidUTF8) == nil && (try? JSONDecoder().decode(Anything.self, from: invalidUTF8)) == nil)
        guard case .object(let members)? = JSONValue.parse(Data(#"{"id":9223372036854775807,"v":1.5,"s":"\u00e9"}"#.utf8))
        else {
            Issue.record("an object")
            return
        }
        guard case .integer(Int64.max)? = members["id"], case .number(1.5)? = members["v"], case .string("é")? = members["s"]
        else {
            Issue.record("\(members)")
            return
        }
    }

    @Test func typesEnumsAndConstants() throws {
        try check(#"{"type":"integer"}"#, [("1", true), ("1.0", true), ("1.5", false), ("true", false), (#""1""#, false)])
        try check(#"{"type":"number"}"#, [("1", true), ("1.5", true), ("null", false)])
        try check(#"{"type":["string","null"]}"#, [("null", true), (#""a""#, true), ("0", false)])
        try check(#"{"type":"boolean"}"#, [("false", true), ("0", false)])
        try check(#"{"enum":["a",1]}"#, [(#""a""#, true), ("1.0", true), ("2", false), (#""b""#, false)])
        try check(#"{"const":{"a":[1,2]}}"#, [(#"{"a":[1,2]}"#, true), (#"{"a":[2,1]}"#, false)])
        try check("true", [("null", true), ("{}", true)])
        try check("false", [("null", false), ("{}", false)])
    }

    @Test func objectsAndArrays() throws {
        let object = #"""
            {"type":"object","required":["a"],"minProperties":1,"maxProperties":2,
             "properties":{"a":{"type":"integer"},"b":{"type":"string"}},"additionalProperties":false}
            """#
        try check(
            object,
            [
                (#"{"a":1}"#, true), (#"{"a":1,"b":"x"}"#, true), (#"{"b":"x"}"#, false), (#"{"a":"1"}"#, false),
                (#"{"a":1,"c":2}"#, false), ("[]", false),
            ])
        try check(#"{"type":"object","additionalProperties":{"type":"integer"}}"#, [(#"{"x":1}"#, true), (#"{"x":"1"}"#, false)])
        try check(
            #"{"type":"array","items":{"type":"integer","minimum":0},"minItems":1,"maxItems":2}"#,
            [("[0]", true), ("[0,1]", true), ("[]", false), ("[0,1,2]", false), ("[-1]", false)])
    }

    /// Lengths in code points, patterns searched (not anchored unless they say so) over code points.
    @Test func stringsAreCountedInCodePoints() throws {
        try check(
            #"{"type":"string","minLength":2,"maxLength":3}"#,
            [(#""ab""#, true), (#""a""#, false), ("\"e\u{301}e\u{301}\"", false), ("\"😀😀\"", true)])
        try check(#"{"pattern":"[0-9]"}"#, [(#""a1b""#, true), (#""ab""#, false), ("1", true)])
        try check(#"{"pattern":"^[^a]$"}"#, [("\"😀\"", true), (#""a""#, false)])
    }

    /// Bounds compared exactly, also near 2^63 where a Double cannot tell neighbours apart.
    @Test func numbersAreComparedExactly() throws {
        try check(
            #"{"type":"integer","minimum":1,"maximum":9223372036854775807}"#,
            [("1", true), ("0", false), ("9223372036854775807", true), ("9223372036854775808", false), ("1e300", false)])
        try check(#"{"exclusiveMinimum":0,"exclusiveMaximum":1}"#, [("0.5", true), ("0", false), ("1", false)])
        try check(#"{"minimum":0.5}"#, [("1", true), ("0", false)])
    }

    @Test func combinationsConditionsAndReferences() throws {
        try check(#"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#, [(#""a""#, true), ("1", true), ("null", false)])
        try check(#"{"oneOf":[{"minimum":0},{"maximum":10}]}"#, [("-1", true), ("11", true), ("5", false)])
        try check(#"{"allOf":[{"minimum":0},{"maximum":10}]}"#, [("5", true), ("11", false)])
        try check(#"{"not":{"required":["a","b"]}}"#, [(#"{"a":1}"#, true), (#"{"a":1,"b":2}"#, false)])
        try check(
            #"{"if":{"required":["days"]},"then":{"not":{"required":["date"]}},"else":{"required":["date"]}}"#,
            [(#"{"days":"mon"}"#, true), (#"{"days":"mon","date":"x"}"#, false), (#"{"date":"x"}"#, true), ("{}", false)])
        try check(
            ##"{"$ref":"#/components/schemas/Volume"}"##, named: ["Volume": #"{"type":"integer","minimum":10}"#],
            [("10", true), ("9", false)])
    }

    /// The document may use no keyword the checker would skip, so it can never promise more than is checked.
    @Test func aKeywordTheCheckerDoesNotKnowIsRefusedAtCompileTime() throws {
        for keyword in [#"{"uniqueItems":true}"#, #"{"patternProperties":{}}"#, #"{"type":"integer","multipleOf":5}"#] {
            let value = try #require(JSONValue.parse(Data(keyword.utf8)))
            #expect(throws: JSONSchema.CompileError.self) { try JSONSchema(value, at: "#") }
        }
        let annotated = try #require(JSONValue.parse(Data(#"{"description":"x","format":"date-time","default":1}"#.utf8)))
        #expect(throws: Never.self) { try JSONSchema(annotated, at: "#") }
    }

    @Test func theDocumentCompilesWithEveryOperationParameterBodyAndAnswer() throws {
        let contract = try OpenAPIDocument.compiled.get()
        #expect(contract.operations.count == OpenAPIDocument.operations().count && contract.operations.count >= 42)
        let add = try #require(contract.operation("POST", "/api/v1/alarms")?.operation)
        #expect(add.body?.required == true && add.answers[201]?.schema != nil && add.answers[422] != nil)
        let one = try #require(contract.operation("PATCH", "/api/v1/alarms/7"))
        #expect(one.operation.path == "/api/v1/alarms/{id}" && one.values == ["id": "7"])
        #expect(contract.operation("GET", "/api/v1/alarms/next")?.operation.path == "/api/v1/alarms/next")
        #expect(contract.operation("PATCH", "/api/v1/alarms/next") == nil)
        #expect(contract.operation("GET", "/api/v1/status")?.operation.answers[401]?.requiredHeaders == ["WWW-Authenticate"])
    }

    /// Parameters are read from the URL by their schema's type, and held to their schema.
    @Test func aRequestsParametersAndBodyAreHeldToTheOperation() throws {
        let contract = try OpenAPIDocument.compiled.get()
        func violation(_ method: String, _ path: String, query: String? = nil, body: String = "") throws -> String? {
            let (operation, values) = try #require(contract.operation(method, path))
            return operation.violation(values: values, query: query, body: Data(body.utf8), in: contract.book)
        }
        #expect(try violation("GET", "/api/v1/alarms/next", query: "count=5") == nil)
        #expect(try violation("GET", "/api/v1/alarms/next", query: "count=101")?.contains("'count' must be at most 100") == true)
        #expect(try violation("GET", "/api/v1/alarms/next", query: "count=5.0")?.contains("must be integer") == true)
        #expect(try violation("GET", "/api/v1/alarms/0") != nil)
        #expect(try violation("GET", "/api/v1/programmes/now", query: "at=2027-03-28T07:00:00%2B02:00") == nil)
        #expect(try violation("POST", "/api/v1/alarms", body: #"{"name":"Work","time":"07:00","days":"mon-fri"}"#) == nil)
        #expect(
            try violation("POST", "/api/v1/alarms", body: #"{"name":"Work","time":"25:00","days":"mon-fri"}"#)?.contains("/time")
                == true)
        #expect(try violation("POST", "/api/v1/alarms", body: "[") == "the body is not JSON")
        // An empty body reads as {}, as the routes read it.
        #expect(try violation("POST", "/api/v1/alarm/stop") == nil)
    }

    /// Every kind of breach is reported, and the answer still goes out as it was.
    @Test func answersOutsideTheDocumentAreReportedAsBreaches() async throws {
        let breaches = Mutex<[ContractBreach]>([])
        let router = Router(context: APIContext.self)
        let contract = try OpenAPIDocument.compiled.get()
        // Each route with its own operation's guard, as `RouteBook` makes them.
        func route(_ method: HTTPRequest.Method, _ path: String) throws -> RouterGroup<APIContext> {
            let guarded = try #require(
                ContractGuard(contract: contract, method: method.rawValue, path: path) { b in breaches.withLock { $0.append(b) } }
            )
            return router.group().add(middleware: BodyGuard(maxBody: 65536)).add(middleware: guarded)
        }
        // Answers a route could wrongly give: a status not declared, a body that does not fit, a 2xx for what the
        // document refuses, a 400 for what it allows, and one that fits.
        try route(.get, "/api/v1/status").get("/api/v1/status") { _, _ in Response(status: .accepted) }
        try route(.get, "/api/v1/alarms").get("/api/v1/alarms") { _, _ in JSONResponse.make(["alarms": 3]) }
        try route(.post, "/api/v1/alarm/stop").post("/api/v1/alarm/stop") { _, _ in JSONResponse.make(["message": "Stopped."]) }
        try route(.post, "/api/v1/alarm/snooze").post("/api/v1/alarm/snooze") { _, _ -> Response in
            throw APIError(.invalid, "No.")
        }
        try route(.get, "/api/v1/history").get("/api/v1/history") { _, _ in JSONResponse.make(["events": [String]()]) }
        #expect(ContractGuard(contract: contract, method: "GET", path: "/api/v1/nothing") { _ in } == nil)
        let app = Application(router: router)
        try await app.test(.router) { client in
            let json: HTTPFields = [.contentType: "application/json"]
            let status = try await client.execute(uri: "/api/v1/status", method: .get)
            #expect(status.status == .accepted)
            _ = try await client.execute(uri: "/api/v1/alarms", method: .get)
            _ = try await client.execute(
                uri: "/api/v1/alarm/stop", method: .post, headers: json, body: ByteBuffer(string: #"{"alarm":"x"}"#))
            let snooze = try await client.execute(uri: "/api/v1/alarm/snooze", method: .post, headers: json)
            #expect(snooze.status == .badRequest)
            _ = try await client.execute(uri: "/api/v1/history", method: .get)
        }
        let found = breaches.withLock { $0 }
        #expect(found.count == 4, "\(found)")
        #expect(found.contains { $0.operation == "GET /api/v1/status" && $0.problem.hasPrefix("202 is not among its answers") })
        #expect(found.contains { $0.operation == "GET /api/v1/alarms" && $0.problem.contains("/alarms: must be array") })
        #expect(found.contains { $0.operation == "POST /api/v1/alarm/stop" && $0.problem.hasPrefix("it took a request") })
        #expect(found.contains { $0.operation == "POST /api/v1/alarm/snooze" && $0.problem.hasPrefix("it refused as malformed") })
    }
}
