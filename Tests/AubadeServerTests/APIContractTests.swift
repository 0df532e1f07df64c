import AubadeCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import AubadeServer

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

/// The document's patterns are the core's (`Grammar`), so what the document allows and what the parsers accept
/// cannot drift apart; and the parsers agree with the patterns on the values that matter at their edges.
@Suite("API document patterns")
struct APIDocumentPatternTests {
    private static var document: [String: Any] {
        (try? JSONSerialization.jsonObject(with: OpenAPIDocument.data) as? [String: Any]) ?? [:]
    }

    /// The schema at a path of keys below components/schemas.
    private func schema(_ keys: [String]) -> [String: Any]? {
        var node: Any? = (Self.document["components"] as? [String: Any])?["schemas"]
        for key in keys { node = (node as? [String: Any])?[key] }
        return node as? [String: Any]
    }

    private func schema(_ keys: String...) -> [String: Any]? { schema(keys) }

    private func pattern(_ keys: String...) -> String? { schema(keys)?["pattern"] as? String }

    @Test func everyFieldOfAKindCarriesTheCoresPattern() {
        let alarm = "AlarmPatch", props = "properties"
        #expect(pattern(alarm, props, "time") == Grammar.time)
        #expect(pattern(alarm, props, "days") == Grammar.days)
        #expect(pattern(alarm, props, "date") == Grammar.date)
        #expect(pattern(alarm, props, "name") == Grammar.name)
        #expect(pattern("ProgrammeFields", props, "begin") == Grammar.time)
        #expect(pattern("ProgrammeFields", props, "end") == Grammar.time)
        #expect(pattern("ProgrammeFields", props, "weekday") == Grammar.weekday)
        #expect(pattern("ProgrammeFields", props, "date") == Grammar.date)
        #expect(pattern("ProgrammeFields", props, "name") == Grammar.name)
        #expect(pattern("StationFields", props, "url") == Grammar.streamURL)
        #expect(pattern("StationFields", props, "alternate") == Grammar.streamURL)
        #expect(pattern("StationFields", props, "name") == Grammar.name)
        #expect(pattern("CalendarURL", props, "url") == Grammar.streamURL)
        #expect(pattern("HolidayURL", props, "url") == Grammar.streamURL)
        #expect(pattern("DayOffFields", props, "dates") == Grammar.dateRange)
        #expect(pattern("DayOffFields", props, "name") == Grammar.name)
        #expect(pattern("PairRequest", props, "name") == Grammar.name)
        #expect(schema(alarm, props, "name")?["maxLength"] as? Int == Names.maxLength)
        let now =
            (((Self.document["paths"] as? [String: Any])?["/api/v1/programmes/now"] as? [String: Any])?["get"]
            as? [String: Any])?["parameters"] as? [[String: Any]]
        let at = now?.first { $0["name"] as? String == "at" }?["schema"] as? [String: Any]
        #expect(at?["pattern"] as? String == Grammar.instant)
        #expect(schema("StationFields", props, "url")?["maxLength"] as? Int == StreamURL.maxLength)
    }

    @Test func theDocumentsRangesAreTheCoresRanges() {
        func range(_ keys: String...) -> ClosedRange<Int>? {
            guard let s = schema(keys), let lo = s["minimum"] as? Int, let hi = s["maximum"] as? Int else { return nil }
            return lo...hi
        }
        #expect(range("AlarmPatch", "properties", "durationSeconds") == Alarm.durationRange)
        #expect(range("AlarmPatch", "properties", "volume") == Alarm.volumeRange)
        #expect(range("AlarmPatch", "properties", "fadeInSeconds") == Alarm.fadeInRange)
        #expect(range("AlarmPatch", "properties", "snoozeMinutes") == Alarm.snoozeMinutesRange)
        #expect(range("AlarmPatch", "properties", "maxSnoozes") == Alarm.maxSnoozesRange)
        #expect(range("ReserveRequest", "properties", "remindSeconds") == Programme.remindRange)
        #expect(range("Settings", "properties", "alarmDuration") == Alarm.durationRange)
        #expect(range("Settings", "properties", "dimLevel") == NightDimmingSettings.levelRange)
    }

    /// Values at the edges of each form: the parser takes exactly those the pattern matches.
    @Test func theParsersTakeExactlyWhatThePatternsMatch() throws {
        func matches(_ text: String, _ pattern: String) throws -> Bool {
            let regex = try NSRegularExpression(pattern: pattern)
            let range = NSRange(text.startIndex..., in: text)
            return regex.firstMatch(in: text, range: range)?.range == range
        }
        let times = ["7:05", "07:05", " 23:59\u{A0}", "24:00", "7:5", "007:05", "12:60", "", "1:00\n", "٣:00"]
        for t in times {
            #expect(try matches(t, Grammar.time) == ((try? LocalTime(parsing: t)) != nil), "time \(t.debugDescription)")
        }
        let dates = ["2028-02-29", "2100-02-29", "2000-02-29", "1969-12-31", "1970-01-01", "2026-04-31", " 2026-01-01"]
        for t in dates {
            #expect(try matches(t, Grammar.date) == ((try? LocalDate(parsing: t)) != nil), "date \(t.debugDescription)")
        }
        let days = ["mon-fri", "Sat,Sun", "daily", "once", " ONCE ", "mon wed,,fri", "mon-", "once,", "", ",", "tues-thurs"]
        for t in days {
            let parsed = (try? Recurrence(days: t, date: nil) { try! LocalDate(year: 2026, month: 1, day: 1) }) != nil
            #expect(try matches(t, Grammar.days) == parsed, "days \(t.debugDescription)")
        }
        let urls = [
            "http://radio.example/live", "HTTPS://a:8000/x?y=1#z", "http://[fd00::1]:8000/", "http://[0]/",
            "http://user@host/", "ftp://host/", "http:///x", "http://host/a b", "http://bücher.example/", "http://h/%zz",
            "http://h/%41",
        ]
        for t in urls {
            #expect(try matches(t, Grammar.streamURL) == ((try? StreamURL(parsing: t)) != nil), "url \(t)")
        }
        let instants = [
            "2027-03-28T07:00:00+02:00", "2027-03-28T07:00:00Z", "1970-00-00T00:00:00Z", "2027-02-29T07:00:00Z",
            "2028-02-29T23:59:59-18:00", "2027-03-28T24:00:00Z", "2027-03-28T07:00:60Z", "2027-03-28t07:00:00z",
            "1969-12-31T23:59:59Z", "2027-03-28T07:00:00+19:00", "2027-03-28T07:00Z",
        ]
        for t in instants {
            let request = Request(
                head: HTTPRequest(
                    method: .get, scheme: "http", authority: "x", path: "/?at=\(t.replacingOccurrences(of: "+", with: "%2B"))"),
                body: RequestBody(buffer: ByteBuffer()))
            let read = (try? RequestReading.instant(request, "at")) != nil
            #expect(try matches(t, Grammar.instant) == read, "instant \(t)")
        }
        let names = ["Work", " Work ", "\u{A0}", "a\u{7}b", "", "\u{301}", "Early\u{85}"]
        for t in names {
            #expect(
                try matches(t, Grammar.name) == ((try? Names.validated(t, what: "Name")) != nil), "name \(t.debugDescription)")
        }
    }
}

/// The document describes the event stream and the links between operations as the server has them.
@Suite("API document: events and links")
struct APIDocumentShapeTests {
    private static var document: [String: Any] {
        (try? JSONSerialization.jsonObject(with: OpenAPIDocument.data) as? [String: Any]) ?? [:]
    }

    private func operation(_ method: String, _ path: String) -> [String: Any]? {
        ((Self.document["paths"] as? [String: Any])?[path] as? [String: Any])?[method] as? [String: Any]
    }

    @Test func eachEventOfTheStreamIsAnEventNameAndJSONDataAsTheServerSendsIt() throws {
        let ok = try #require((operation("get", "/api/v1/events")?["responses"] as? [String: Any])?["200"] as? [String: Any])
        let event = try #require(
            ((ok["content"] as? [String: Any])?["text/event-stream"] as? [String: Any])?["schema"] as? [String: Any])
        #expect(event["required"] as? [String] == ["event", "data"])
        let properties = try #require(event["properties"] as? [String: Any])
        #expect((properties["event"] as? [String: Any])?["const"] as? String == "state")
        let data = try #require(properties["data"] as? [String: Any])
        #expect(data["contentMediaType"] as? String == "application/json")
        #expect((data["contentSchema"] as? [String: Any])?["$ref"] as? String == "#/components/schemas/LiveState")
    }

    @Test func everyOperationThatMakesSomethingLinksToThoseThatUseItsID() throws {
        let paths = try #require(Self.document["paths"] as? [String: Any])
        let ids = Dictionary(
            paths.flatMap { path, item in
                ((item as? [String: Any]) ?? [:]).compactMap { method, op in
                    ((op as? [String: Any])?["operationId"] as? String).map { ($0, "\(method.uppercased()) \(path)") }
                }
            }, uniquingKeysWith: { a, _ in a })
        for (creator, collection) in [
            ("/api/v1/alarms", "/api/v1/alarms/{id}"), ("/api/v1/stations", "/api/v1/stations/{id}"),
            ("/api/v1/programmes", "/api/v1/programmes/{id}"), ("/api/v1/days-off", "/api/v1/days-off/{id}"),
        ] {
            let created = try #require((operation("post", creator)?["responses"] as? [String: Any])?["201"] as? [String: Any])
            let links = try #require(created["links"] as? [String: [String: Any]], "\(creator) has links")
            let targets = Set(links.values.compactMap { ($0["operationId"] as? String).flatMap { ids[$0] } })
            // Every operation on the made thing's own path (and below it) is linked, with the id from the answer.
            let using = Set(
                ids.values.filter { $0.split(separator: " ")[1].hasPrefix(collection) && !$0.hasPrefix("POST \(creator) ") })
            #expect(targets == using, "\(creator)")
            #expect(links.values.allSatisfy { ($0["parameters"] as? [String: String])?["id"] == "$response.body#/id" })
        }
    }
}
