import AubadeCore
import AubadeTesting
import Foundation
import Testing

@testable import AubadeDirectory

/// The directory client against `Tests/Fixtures/directory_server.py` on 127.0.0.1 — mirrors that answer, one that
/// is down, one that answers a web page, one that answers junk — through the real curl transfer.
@Suite("Station directory (radio-browser) against local mirrors", .serialized)
struct RadioBrowserTests {
    typealias Mirror = DirectoryMirror

    final class Fixture: Sendable {
        let dir: TemporaryDirectory
        let stationsFile: String
        let good: Mirror

        init() async throws {
            dir = try TemporaryDirectory("directory")
            good = try await Mirror("ok", in: dir)
            stationsFile = good.stationsFile
        }

        func write(_ stations: [[String: Any]]) throws { try good.write(stations) }
    }

    @Test func aSearchIsRankedPlayableMarkedEachAddressOnceAndAsTheDirectoryAsks() async throws {
        let f = try await Fixture()
        let directory = RadioBrowser(servers: [f.good.base], allowLoopback: true)
        let found = try directory.search(try DirectoryQuery(words: "jazz"))
        // Broken Jazz is hidden (hidebroken), the copy of Swiss Jazz's address is shown once, the most played first.
        #expect(found.map(\.name) == ["Swiss Jazz", "Jazz FM AAC", "Jazz HLS"])
        #expect(found.map(\.playability.note) == [nil, nil, "cannot play: video (H.264)"])
        let asked = try #require(f.good.requests.last)
        #expect(asked["path"] as? String == "/json/stations/search")
        #expect(
            asked["query"] as? [String: String] == [
                "name": "jazz", "hidebroken": "true", "order": "clickcount", "reverse": "true", "limit": "20",
            ])
        #expect(asked["agent"] as? String == Product.userAgent)
        #expect(Product.userAgent.hasPrefix("aubade/"))
    }

    @Test func countryTagCodecAndLimitNarrowTheSearch() async throws {
        let f = try await Fixture()
        let directory = RadioBrowser(servers: [f.good.base], allowLoopback: true)
        #expect(try directory.search(try DirectoryQuery(words: "", country: "ch", tag: "swing")).map(\.name) == ["Swiss Jazz"])
        #expect(try directory.search(try DirectoryQuery(words: "jazz", codec: "aac")).map(\.name) == ["Jazz FM AAC"])
        #expect(try directory.search(try DirectoryQuery(words: "jazz", limit: 1)).map(\.name) == ["Swiss Jazz"])
        #expect(try directory.search(try DirectoryQuery(words: "nothing like this")).isEmpty)
    }

    @Test func aMirrorThatIsDownAnswersAPageOrJunkIsPassedOver() async throws {
        let f = try await Fixture()
        let html = try await Mirror("html", in: f.dir)
        let junk = try await Mirror("junk", in: f.dir)
        let down = "http://127.0.0.1:9"
        let directory = RadioBrowser(servers: [down, html.base, junk.base, f.good.base], allowLoopback: true)
        // The order is random: ask until every bad mirror was tried before the good one at least once (each is,
        // half the time), and every answer is the good mirror's.
        var asked = 0
        repeat {
            #expect(try directory.search(try DirectoryQuery(words: "classic")).map(\.name) == ["Classic Morning"])
            asked += 1
        } while (html.requests.isEmpty || junk.requests.isEmpty) && asked < 200
        #expect(!html.requests.isEmpty && !junk.requests.isEmpty, "the random order reached every mirror")
    }

    @Test func whenNoMirrorAnswersOneSentenceSaysWhatEachDid() async throws {
        let f = try await Fixture()
        let html = try await Mirror("html", in: f.dir)
        let junk = try await Mirror("junk", in: f.dir)
        let directory = RadioBrowser(servers: ["http://127.0.0.1:9", html.base, junk.base], allowLoopback: true)
        let error = try #require(throws: DirectoryError.self) { try directory.search(try DirectoryQuery(words: "jazz")) }
        #expect(error.message.hasPrefix("The station directory did not answer (all 3 servers tried): "), "\(error)")
        #expect(error.message.contains("refused the connection (http://127.0.0.1:9/json/stations/search"), "\(error)")
        #expect(error.message.contains("answered with a web page (text/html), not a directory answer."), "\(error)")
        #expect(error.message.contains("\(junk.base): the answer is not JSON."), "\(error)")
    }

    @Test func aDirectoryServerOnThisMachineIsRefusedUnlessAllowed() async throws {
        let f = try await Fixture()
        let error = try #require(throws: DirectoryError.self) {
            try RadioBrowser(servers: [f.good.base], allowLoopback: false).search(try DirectoryQuery(words: "jazz"))
        }
        #expect(error.message.contains("resolves to a loopback address, which is refused"), "\(error)")
        #expect(f.good.requests.isEmpty)
    }

    @Test func stationsAreLookedUpByIDAndAMovedAddressIsSeen() async throws {
        let f = try await Fixture()
        let directory = RadioBrowser(servers: [f.good.base], allowLoopback: true)
        let ids = [
            "11111111-1111-1111-1111-111111111111", "66666666-6666-6666-6666-666666666666",
            "77777777-7777-7777-7777-777777777777",
        ]
        #expect(try directory.stations(ids: ids).map(\.name) == ["Swiss Jazz", "Classic Morning"])
        var moved = DirectoryMirror.stations(streams: f.good.base)
        moved[0]["url_resolved"] = "\(f.good.base)/moved.mp3"
        try f.write(moved)
        #expect(try directory.stations(ids: [ids[0]]).first?.url == "\(f.good.base)/moved.mp3")
        #expect(f.good.requests.last?["query"] as? [String: String] == ["uuids": ids[0]])
    }

    @Test func aClickIsCountedWithTheStationsID() async throws {
        let f = try await Fixture()
        try RadioBrowser(servers: [f.good.base], allowLoopback: true).countClick(id: "11111111-1111-1111-1111-111111111111")
        #expect(f.good.requests.last?["path"] as? String == "/json/url/11111111-1111-1111-1111-111111111111")
    }

    // MARK: Servers

    /// A DNS answer for `_api._tcp.radio-browser.info` SRV, as a resolver returns it: a header, the question,
    /// then one SRV record per (priority, target); the targets' names written out (no compression).
    static func srvAnswer(_ records: [(priority: UInt16, target: String)]) -> [UInt8] {
        func name(_ text: String) -> [UInt8] {
            text.split(separator: ".").flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) } + [0]
        }
        func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
        var m = u16(0x1234) + u16(0x8180) + u16(1) + u16(UInt16(records.count)) + u16(0) + u16(0)
        m += name(DirectoryServers.srvName) + u16(33) + u16(1)
        for r in records {
            let rdata = u16(r.priority) + u16(1) + u16(443) + name(r.target)
            m += [0xC0, 12] + u16(33) + u16(1) + [0, 0, 1, 44] + u16(UInt16(rdata.count)) + rdata
        }
        return m
    }

    @Test func theServersAreTheSRVRecordsTargetsBestPriorityFirst() {
        let answer = Self.srvAnswer([
            (10, "fi1.api.radio-browser.info"), (1, "de2.api.radio-browser.info"), (10, "NL1.api.radio-browser.info"),
            (1, "de2.api.radio-browser.info"),
        ])
        #expect(
            DirectoryServers.targets(answer: answer) == [
                "de2.api.radio-browser.info", "fi1.api.radio-browser.info", "nl1.api.radio-browser.info",
            ])
        #expect(DirectoryServers.targets(answer: [1, 2, 3]).isEmpty)
        #expect(DirectoryServers.targets(answer: Self.srvAnswer([])).isEmpty)
    }

    @Test func configuredServersReplaceTheLookup() {
        #expect(DirectoryServers.resolve(configured: ["http://127.0.0.1:1"]) == ["http://127.0.0.1:1"])
    }

    @Test func queryValuesAreEscapedButForTheUnreserved() {
        #expect(RadioBrowser.escaped("rock & roll/éA-z_~.") == "rock%20%26%20roll%2F%C3%A9A-z_~.")
    }
}
