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

/// R31 "GET never changes state", route by route: every GET the OpenAPI document describes — so a GET added
/// to the document is walked too — against a clock with a row of every kind, and what the clock keeps on disk
/// compared before and after.
@Suite("API: reads change nothing")
struct APIReadOnlyTests {
    /// A GET operation of the OpenAPI document: its path template, the names of its path parameters and of its
    /// query parameters, and whether it answers with an event stream.
    struct Operation {
        let path: String
        let pathParameters: [String]
        let queryParameters: [String]
        let isEventStream: Bool
        /// The answers the document gives it (a search with the directory off is its documented 503).
        let statuses: Set<Int>
    }

    static func getOperations() throws -> [Operation] {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        var operations: [Operation] = []
        for (path, item) in paths {
            guard let item = item as? [String: Any], let get = item["get"] as? [String: Any] else { continue }
            let parameters = (item["parameters"] as? [[String: Any]] ?? []) + (get["parameters"] as? [[String: Any]] ?? [])
            for parameter in parameters {
                #expect(
                    parameter["name"] is String && parameter["in"] is String,
                    "GET \(path): a parameter without a name or place: \(parameter)")
            }
            func names(_ place: String) -> [String] {
                parameters.filter { $0["in"] as? String == place }.compactMap { $0["name"] as? String }
            }
            let ok = (get["responses"] as? [String: Any])?["200"] as? [String: Any]
            let types = (ok?["content"] as? [String: Any])?.keys.map { $0 } ?? []
            operations.append(
                Operation(
                    path: path, pathParameters: names("path"), queryParameters: names("query"),
                    isEventStream: types.contains("text/event-stream"),
                    statuses: Set(((get["responses"] as? [String: Any]) ?? [:]).keys.compactMap { Int($0) })))
        }
        return operations.sorted { $0.path < $1.path }
    }

    /// A value for each query parameter a GET documents; one missing fails the test (add it here).
    static let querySamples = [
        "count": "3", "limit": "50", "days": "7", "station": "FIP", "at": "2026-11-24T21:30:00Z", "q": "jazz",
        "country": "FR", "tag": "jazz", "codec": "MP3",
    ]

    @Test func everyGETOfTheOpenAPIDocumentLeavesTheStoredClockByteForByteAsItWas() async throws {
        let (server, base) = try await APICalendarTests.serve()
        let rig = try await APIRig { store in
            try APIRig.storeWorkAlarmAndNewsPodcast(store)
        }
        let operations = try Self.getOperations()
        #expect(operations.count >= 14 && operations.contains { $0.isEventStream })
        try await rig.app.test(.live) { client in
            // A row of every kind, made through the API; the ids of the rows a path may name, by collection.
            func post(_ uri: String, _ json: String) async throws -> [String: Any] {
                let reply = try await client.execute(uri: uri, method: .post, headers: rig.auth, body: ByteBuffer(json: json))
                #expect(reply.status == .created || reply.status == .ok, "POST \(uri): \(reply.status) \(reply.text)")
                return reply.object
            }
            var ids: [String: Int] = [:]
            ids["stations"] = try #require(
                try await post("/api/v1/stations", #"{"name":"FIP","url":"http://radio.example/fip"}"#)["id"] as? Int)
            ids["alarms"] = try #require(
                try await post("/api/v1/alarms", #"{"name":"Radio","time":"08:15","days":"mon-fri","source":"FIP"}"#)["id"]
                    as? Int)
            let programme = try #require(
                try await post(
                    "/api/v1/programmes",
                    #"{"name":"Late jazz","begin":"21:00","end":"22:00","station":"FIP"}"#)["id"] as? Int)
            ids["programmes"] = programme
            _ = try await post("/api/v1/programmes/\(programme)/reserve", "{}")
            ids["days-off"] = try #require(
                try await post("/api/v1/days-off", #"{"dates":"2026-12-24..2026-12-26","name":"Christmas"}"#)["id"] as? Int)
            _ = try await post("/api/v1/days-off/import", #"{"url":"\#(base)/holidays.ics"}"#)
            // History: the 07:00 alarm rings and is stopped from the API.
            await rig.ringAtSeven()
            _ = try await post("/api/v1/alarm/stop", "{}")
            // The clock's turn writes the token's use noted above (at most one an hour, R30) and settles.
            _ = await rig.clock.tick()
            let before = try StoredClock(rig)
            #expect(!before.events.isEmpty && before.runStates.count >= 1 && before.calendarSources.count == 1)
            #expect(before.tokens.count == 1 && before.tokens.first?.lastUsedAt != nil)
            #expect(before.files.keys.contains("/aubade.sqlite") && before.files.keys.contains("/aubade.sqlite-wal"))

            var walked: [String] = []
            for operation in operations {
                var uri = operation.path
                for name in operation.pathParameters {
                    let segments = operation.path.split(separator: "/")
                    let collection = try #require(segments.firstIndex(of: "{\(name)}").map { String(segments[$0 - 1]) })
                    let id = try #require(
                        name == "id" ? ids[collection].map(String.init) : collection == "podcasts" ? "News" : nil,
                        "GET \(operation.path): no row of '\(collection)' made for {\(name)}; make one above")
                    uri = uri.replacingOccurrences(of: "{\(name)}", with: String(id))
                }
                var query: [String] = []
                for name in operation.queryParameters {
                    let value = try #require(
                        Self.querySamples[name], "GET \(operation.path): no sample for the query parameter '\(name)'")
                    query.append("\(name)=\(value)")
                }
                let variants = query.isEmpty ? [uri] : [uri, uri + "?" + query.joined(separator: "&")]
                for target in variants {
                    if operation.isEventStream {
                        let port = try #require(client.port)
                        let first = try #require(
                            await EventStreamReader.firstEvent(
                                port: port, path: target,
                                headers: ["Authorization": "Bearer \(rig.token)"]),
                            "GET \(target): no first event")
                        #expect(first.head.hasPrefix("HTTP/1.1 200"), "GET \(target): \(first.head)")
                        #expect(first.event.hasPrefix("event: state\ndata: {"), "GET \(target): \(first.event)")
                    } else {
                        let reply = try await client.execute(
                            uri: target, method: .get, headers: [.authorization: "Bearer \(rig.token)"])
                        // 200, or an answer the document gives this read (what matters here is what it leaves behind).
                        #expect(
                            reply.status == .ok || operation.statuses.contains(Int(reply.status.code)),
                            "GET \(target): \(reply.status) \(reply.text)")
                        #expect(!reply.body.readableBytesView.isEmpty, "GET \(target) answered nothing")
                    }
                    walked.append(target)
                }
            }
            #expect(walked.contains("/api/v1/alarms/\(ids["alarms"] ?? 0)") && walked.contains("/api/v1/events"))

            // Right after the reads, and again after the clock's next turn (which would write any token use a
            // read had noted — none, as the token's stored use is less than an hour old).
            let after = try StoredClock(rig)
            before.expectSame(as: after, "after the reads")
            _ = await rig.clock.tick()
            before.expectSame(as: try StoredClock(rig), "after the reads and the clock's next turn")
        }
        withExtendedLifetime(server) {}
    }
}

/// What the clock keeps on disk, read back: every table through the store (for readable differences) and every
/// file of the rig's folder byte for byte — the database, its write-ahead log, the schedule's backup copy and the
/// calendar cache. Left out: SQLite's `-shm` file, the write-ahead log's shared-memory index, which every read
/// transaction updates (its read marks) and which SQLite rebuilds from the log when the database is opened — it
/// holds no data.
struct StoredClock {
    var alarms: [Alarm]
    var runStates: [AlarmRunState]
    var settings: AppSettings
    var stations: [Station]
    var programmes: [Programme]
    var daysOff: [DayOff]
    var calendarSources: [CalendarSource]
    var tokens: [AccessToken]
    var events: [HistoryEvent]
    var files: [String: Data]

    init(_ rig: APIRig) throws {
        let store = rig.store
        alarms = try store.alarms()
        runStates = try store.runStates()
        settings = try store.settings()
        stations = try store.stations()
        programmes = try store.programmes()
        daysOff = try store.daysOff()
        calendarSources = try store.calendarSources()
        tokens = try store.tokens()
        events = try store.events(limit: 1_000_000)
        files = [:]
        let folder = URL(fileURLWithPath: rig.dir.path)
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true, !url.path.hasSuffix("-shm") else {
                continue
            }
            files[String(url.path.dropFirst(folder.path.count))] = try Data(contentsOf: url)
        }
    }

    func expectSame(as other: StoredClock, _ when: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(other.alarms == alarms, "alarms \(when)", sourceLocation: sourceLocation)
        #expect(other.runStates == runStates, "alarm states \(when)", sourceLocation: sourceLocation)
        #expect(other.settings == settings, "settings \(when)", sourceLocation: sourceLocation)
        #expect(other.stations == stations, "stations \(when)", sourceLocation: sourceLocation)
        #expect(other.programmes == programmes, "programmes \(when)", sourceLocation: sourceLocation)
        #expect(other.daysOff == daysOff, "days off \(when)", sourceLocation: sourceLocation)
        #expect(other.calendarSources == calendarSources, "calendar sources \(when)", sourceLocation: sourceLocation)
        #expect(other.tokens == tokens, "tokens \(when)", sourceLocation: sourceLocation)
        #expect(
            other.events == events, "history events recorded \(when): \(other.events.filter { !events.contains($0) })",
            sourceLocation: sourceLocation)
        #expect(other.files.keys.sorted() == files.keys.sorted(), "files \(when)", sourceLocation: sourceLocation)
        for (name, data) in files where other.files[name] != data {
            Issue.record(
                "\(name) changed \(when) (\(data.count) → \(other.files[name]?.count ?? 0) bytes)", sourceLocation: sourceLocation
            )
        }
    }
}
