import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeDirectory
import AubadeStore
import AubadeTesting
import Foundation
import Testing

/// The stations saved from the directory, kept current by the running clock over its SQLite file: looked up again
/// once a day through the real `RadioBrowser` against a local mirror (Tests/Fixtures/directory_server.py) — a moved
/// address taken and said, an unplayable or missing listing and a directory that is down changing nothing — and the
/// directory's click counted at most once a day, in the background.
@Suite("Directory: saved stations looked up again, clicks", .serialized)
struct DirectoryRefreshTests {
    static let start = try! Date("2027-03-01T05:00:00Z", strategy: .iso8601)
    static let jazz = "11111111-1111-1111-1111-111111111111"

    static func rig(_ servers: [String], in dir: TemporaryDirectory, base: String) async throws -> SQLiteRig {
        let rig = try SQLiteRig(start: start, directory: RadioBrowser(servers: servers, allowLoopback: true)) { store in
            _ = try store.insert(
                try Station(
                    name: "Swiss Jazz", url: try StreamURL(parsing: base + "/stream.mp3"),
                    directory: try DirectoryLink(id: Self.jazz, codec: "MP3", bitrate: 128)))
        }
        await rig.start()
        return rig
    }

    func refresh(_ rig: SQLiteRig) async throws -> Duration {
        guard case .wait(let wait) = try await rig.clock.send(.refreshDirectory) else { return .zero }
        return wait
    }

    func url(_ rig: SQLiteRig) throws -> String? { try rig.store.stations().first?.url.text }

    func warnings(_ rig: SQLiteRig) async throws -> [String] {
        guard case .status(let status) = try await rig.clock.handle(.status) else { return [] }
        return status.warnings
    }

    @Test func aMovedStationTakesItsNewAddressOnceADayAndSaysSo() async throws {
        let dir = try TemporaryDirectory("directory-refresh")
        let mirror = try await DirectoryMirror("ok", in: dir)
        let rig = try await Self.rig([mirror.base], in: dir, base: mirror.base)
        let byuuid = { mirror.requests.filter { ($0["path"] as? String) == "/json/stations/byuuid" }.count }

        #expect(try await refresh(rig) == .seconds(86_400))
        #expect(try byuuid() == 1 && url(rig) == mirror.base + "/stream.mp3")

        var stations = DirectoryMirror.stations(streams: mirror.base)
        stations[0]["url_resolved"] = mirror.base + "/moved.mp3"
        try mirror.write(stations)
        rig.time.advance(to: Self.start.addingTimeInterval(3600))
        #expect(try await refresh(rig) == .seconds(82_800))  // not due: the directory is not asked again
        #expect(try byuuid() == 1 && url(rig) == mirror.base + "/stream.mp3")
        rig.time.advance(to: Self.start.addingTimeInterval(86_400))
        _ = try await refresh(rig)
        #expect(try byuuid() == 2 && url(rig) == mirror.base + "/moved.mp3")
        let said = try rig.lines.all.compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["event"] as? String == "station-moved" }
        #expect(
            said?["message"] as? String
                == "Station Swiss Jazz moved: it now plays from \(mirror.base)/moved.mp3, as the directory lists it.",
            "\(rig.lines.all)")

        // Listed now as a stream the clock cannot play: the stored address stays.
        stations[0]["url_resolved"] = mirror.base + "/wma"
        stations[0]["codec"] = "WMA"
        try mirror.write(stations)
        rig.time.advance(to: Self.start.addingTimeInterval(2 * 86_400))
        _ = try await refresh(rig)
        #expect(try byuuid() == 3 && url(rig) == mirror.base + "/moved.mp3")
        #expect(try await warnings(rig).isEmpty)
    }

    @Test func aDirectoryThatIsDownChangesNothingAndIsOneWarning() async throws {
        let dir = try TemporaryDirectory("directory-down")
        let html = try await DirectoryMirror("html", in: dir)
        let rig = try await Self.rig(["http://127.0.0.1:9", html.base], in: dir, base: "http://radio.example")
        #expect(try await refresh(rig) == .seconds(86_400))
        #expect(try url(rig) == "http://radio.example/stream.mp3")
        let warned = try await warnings(rig)
        #expect(warned.count == 1 && warned[0].hasPrefix("The station directory could not be asked ("), "\(warned)")
        #expect(warned[0].hasSuffix("the saved stations play from their stored addresses."))
    }

    @Test func aClickIsCountedInTheBackgroundAtMostOnceADay() async throws {
        let dir = try TemporaryDirectory("directory-clicks")
        let mirror = try await DirectoryMirror("ok", in: dir)
        let rig = try await Self.rig([mirror.base], in: dir, base: mirror.base)
        let clicks = { mirror.requests.filter { ($0["path"] as? String) == "/json/url/\(Self.jazz)" }.count }
        for (day, before) in [(0, 0), (0, 1), (1, 1)] {
            rig.time.advance(to: Self.start.addingTimeInterval(Double(day * 86_400 + 60)))
            _ = try await rig.clock.handle(.play(source: "Swiss Jazz", seconds: nil, volume: nil))
            #expect(clicks() == before)  // nothing is asked on the clock's turn itself: a background job asks
            await rig.jobs.runAll()
        }
        #expect(clicks() == 2)
    }
}
