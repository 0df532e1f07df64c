import AubadeCore
import AubadeDirectory
import AubadeStore
import AubadeTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// The station directory's and the podcasts' routes over a real clock on a SQLite file, against the local
/// directory mirror (`Tests/Fixtures/directory_server.py`) and feeds on a local server (`feed_server.py`): nothing
/// reaches beyond 127.0.0.1. Every answer is also held to the API document (`APIRig`).
@Suite("API: the station directory and podcasts", .serialized)
struct APIDirectoryTests {
    static let swissJazz = "11111111-1111-1111-1111-111111111111"
    static let video = "33333333-3333-3333-3333-333333333333"
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 200)

    /// A mirror answering from a folder that also holds Swiss Jazz's logo.
    static func mirror(_ mode: String = "ok") async throws -> (DirectoryMirror, TemporaryDirectory) {
        let dir = try TemporaryDirectory("directory")
        try Data(png).write(to: URL(fileURLWithPath: dir.file("jazz.png")))
        return (try await DirectoryMirror(mode, in: dir), dir)
    }

    @Test func searchShowsWhatCanBePlayedAndEachAddressOnce() async throws {
        let (mirror, folder) = try await Self.mirror()
        defer { withExtendedLifetime(folder) {} }
        let rig = try await APIRig(directory: RadioBrowser(servers: [mirror.base], allowLoopback: true))
        try await rig.app.test(.live) { client in
            let found = try await client.execute(uri: "/api/v1/directory/search?q=jazz&limit=10", method: .get)
            #expect(found.status == .ok)
            let stations = try #require(found.object["stations"] as? [[String: Any]])
            // The most played first; the broken one hidden; the copy of Swiss Jazz's address shown once.
            #expect(stations.map { $0["name"] as? String } == ["Swiss Jazz", "Jazz FM AAC", "Jazz HLS"])
            #expect(stations.map { $0["playable"] as? Bool } == [true, true, false])
            #expect(stations.map { $0["note"] as? String } == [nil, nil, "cannot play: video (H.264)"])
            #expect(stations[0]["favicon"] as? String == "\(mirror.base)/logo/jazz.png")
            #expect(stations[0]["country"] as? String == "CH" && stations[0]["bitrate"] as? Int == 128)
            let asked = try #require(mirror.requests.last)
            #expect(asked["path"] as? String == "/json/stations/search")
            let query = try #require(asked["query"] as? [String: String])
            #expect(query["name"] == "jazz" && query["limit"] == "10" && query["hidebroken"] == "true")

            let byCountry = try await client.execute(uri: "/api/v1/directory/search?country=de", method: .get)
            #expect((byCountry.object["stations"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Classic Morning"])
        }
    }

    @Test func badSearchesAreOneSentenceAndAskNothing() async throws {
        let (mirror, folder) = try await Self.mirror()
        defer { withExtendedLifetime(folder) {} }
        let rig = try await APIRig(directory: RadioBrowser(servers: [mirror.base], allowLoopback: true))
        try await rig.app.test(.live) { client in
            let cases: [(String, HTTPResponse.Status, String)] = [
                ("country=DEU", .badRequest, "The parameter 'country' must be a two-letter country code such as DE, not 'DEU'."),
                ("q=jazz&limit=0", .badRequest, "The parameter 'limit' must be 1 to 100, not 0."),
                ("q=jazz&limit=many", .badRequest, "The parameter 'limit' must be a whole number, not 'many'."),
                (
                    "q=" + String(repeating: "a", count: 101), .badRequest,
                    "The search 'q' is 101 characters long; at most 100 are allowed."
                ),
                // What the document states in words: something to search for; a tag that is more than spaces.
                ("", .unprocessableContent, "Say what to search for: a few words of the station's name, or --country or --tag."),
                ("tag=%20%20", .unprocessableContent, "--tag '  ' must be a word or two, at most 40 characters."),
            ]
            for (query, status, sentence) in cases {
                let answer = try await client.execute(uri: "/api/v1/directory/search?\(query)", method: .get)
                #expect(answer.status == status && answer.error?.message == sentence, "\(query): \(answer.text)")
            }
        }
        #expect(mirror.requests.isEmpty)
    }

    @Test func aStationIsSavedFromTheDirectoryWithItsLogo() async throws {
        let (mirror, folder) = try await Self.mirror()
        defer { withExtendedLifetime(folder) {} }
        let rig = try await APIRig(directory: RadioBrowser(servers: [mirror.base], allowLoopback: true)) { store in
            _ = try store.insert(try Station(name: "FIP", url: StreamURL(parsing: "http://radio.example/fip")))
        }
        let logo = rig.dir.file("aubade.sqlite.logos/\(Self.swissJazz).png")
        try await rig.app.test(.live) { client in
            func add(_ json: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/api/v1/stations/from-directory", method: .post, headers: rig.auth, body: ByteBuffer(json: json))
            }
            let saved = try await add(#"{"id":"\#(Self.swissJazz)"}"#)
            #expect(saved.status == .created, "\(saved.text)")
            #expect(
                saved.object["name"] as? String == "Swiss Jazz" && saved.object["url"] as? String == "\(mirror.base)/stream.mp3")
            let link = try #require(saved.object["directory"] as? [String: Any])
            #expect(link["id"] as? String == Self.swissJazz && link["logo"] as? String == "\(Self.swissJazz).png")
            let id = try #require(saved.object["id"] as? Int)
            #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: logo))) == Self.png)

            let served = try await client.execute(uri: "/api/v1/stations/\(id)/logo", method: .get)
            #expect(served.status == .ok && served.headers[.contentType] == "image/png")
            #expect(Array(served.body.readableBytesView) == Self.png)
            let none = try await client.execute(uri: "/api/v1/stations/1/logo", method: .get)
            #expect(none.status == .notFound && none.error?.message == "Station 1 (FIP) has no logo.")

            // Refusals: saved already, a station this clock cannot play, an id the directory does not know, a
            // malformed id — each one sentence, and nothing more is stored.
            let twice = try await add(#"{"id":"\#(Self.swissJazz)","name":"Jazz again"}"#)
            #expect(
                twice.status == .conflict
                    && twice.error?.message == "This station of the directory is already saved, as 'Swiss Jazz'.")
            let video = try await add(#"{"id":"\#(Self.video)"}"#)
            #expect(
                video.status == .unprocessableContent
                    && video.error?.message
                        == "Jazz HLS cannot be saved: this clock cannot play: video (H.264); pick another station."
            )
            let unknown = try await add(#"{"id":"99999999-9999-9999-9999-999999999999"}"#)
            #expect(
                unknown.status == .unprocessableContent
                    && unknown.error?.message.hasPrefix("The station directory has no station") == true)
            let malformed = try await add(#"{"id":"jazz"}"#)
            #expect(malformed.status == .badRequest && malformed.error?.message.hasPrefix("'jazz' is not a station id") == true)
            let list = try await client.execute(uri: "/api/v1/stations", method: .get)
            #expect((list.object["stations"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["FIP", "Swiss Jazz"])

            // The station removed takes its logo with it.
            let removed = try await client.execute(uri: "/api/v1/stations/\(id)", method: .delete, headers: rig.auth)
            #expect(removed.status == .ok)
            #expect(!FileManager.default.fileExists(atPath: logo))
            let gone = try await client.execute(uri: "/api/v1/stations/\(id)/logo", method: .get)
            #expect(gone.status == .notFound)
        }
        // The station was looked up by its id, and its logo fetched from where the directory said.
        #expect(mirror.requests.compactMap { $0["path"] as? String }.prefix(2) == ["/json/stations/byuuid", "/logo/jazz.png"])
    }

    @Test func aDirectoryThatIsOffOrDownIsOneSentenceAndStoresNothing() async throws {
        let off = try await APIRig()
        try await off.app.test(.live) { client in
            let search = try await client.execute(uri: "/api/v1/directory/search?q=jazz", method: .get)
            #expect(search.status == .serviceUnavailable && search.error?.kind == "off")
            #expect(search.error?.message == "The station directory is off in the config ([directory] enabled = false).")
            let save = try await client.execute(
                uri: "/api/v1/stations/from-directory", method: .post, headers: off.auth,
                body: ByteBuffer(json: #"{"id":"\#(Self.swissJazz)"}"#))
            #expect(save.status == .serviceUnavailable)
        }
        let (html, folder) = try await Self.mirror("html")
        defer { withExtendedLifetime(folder) {} }
        let down = try await APIRig(directory: RadioBrowser(servers: [html.base], allowLoopback: true))
        try await down.app.test(.live) { client in
            let search = try await client.execute(uri: "/api/v1/directory/search?q=jazz", method: .get)
            #expect(search.status == .badGateway && search.error?.kind == "upstream")
            #expect(search.error?.message.hasPrefix("The station directory did not answer (its server tried): ") == true)
            let save = try await client.execute(
                uri: "/api/v1/stations/from-directory", method: .post, headers: down.auth,
                body: ByteBuffer(json: #"{"id":"\#(Self.swissJazz)"}"#))
            #expect(save.status == .badGateway)
            let list = try await client.execute(uri: "/api/v1/stations", method: .get)
            #expect((list.object["stations"] as? [Any])?.isEmpty == true)
        }
        #expect(!FileManager.default.fileExists(atPath: down.dir.file("aubade.sqlite.logos")))
    }

    // MARK: Podcasts

    static let feedScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/feed_server.py").path

    static let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Morning News</title>
        <item><title>Monday</title><pubDate>Mon, 23 Nov 2026 06:00:00 GMT</pubDate><enclosure url="https://news.example/1.mp3" type="audio/mpeg"/><itunes:duration>10:00</itunes:duration></item>
        <item><title>Tuesday</title><pubDate>Tue, 24 Nov 2026 06:00:00 GMT</pubDate><enclosure url="https://news.example/2.mp3" type="audio/mpeg"/></item>
        </channel></rss>
        """

    @Test func aPodcastIsFollowedListedAndRemoved() async throws {
        let folder = try TemporaryDirectory("feeds")
        try Self.feed.write(toFile: folder.file("news.xml"), atomically: true, encoding: .utf8)
        try "<html>hello</html>".write(toFile: folder.file("page.html"), atomically: true, encoding: .utf8)
        let server = try await BackgroundProcess("/usr/bin/python3", [Self.feedScript, folder.path])
        let base = "http://127.0.0.1:\(server.firstLine)"
        let rig = try await APIRig()
        try await rig.app.test(.live) { client in
            func add(_ json: String) async throws -> TestResponse {
                try await client.execute(uri: "/api/v1/podcasts", method: .post, headers: rig.auth, body: ByteBuffer(json: json))
            }
            // Behind three redirects, as feeds moved to a host often are.
            let added = try await add(#"{"feed":"\#(base)/redirect/3/news.xml","name":"News"}"#)
            #expect(added.status == .created, "\(added.text)")
            #expect(added.object["name"] as? String == "News" && added.object["title"] as? String == "Morning News")
            #expect((added.object["episodes"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Tuesday", "Monday"])
            let byTitle = try await add(#"{"feed":"\#(base)/news.xml"}"#)
            #expect(byTitle.status == .created && byTitle.object["name"] as? String == "Morning News")

            let listed = try await client.execute(uri: "/api/v1/podcasts", method: .get)
            #expect((listed.object["podcasts"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Morning News", "News"])
            let newest = try await client.execute(uri: "/api/v1/podcasts/news/episodes?limit=1", method: .get)
            #expect((newest.object["episodes"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Tuesday"])
            let spaced = try await client.execute(uri: "/api/v1/podcasts/Morning%20News/episodes", method: .get)
            #expect(spaced.status == .ok && (spaced.object["episodes"] as? [Any])?.count == 2)

            let taken = try await add(#"{"feed":"\#(base)/news.xml","name":"news"}"#)
            #expect(taken.status == .conflict, "\(taken.text)")
            let page = try await add(#"{"feed":"\#(base)/page.html","name":"Page"}"#)
            #expect(page.status == .unprocessableContent && page.error?.message.isEmpty == false)
            let reserved = try await add(#"{"feed":"\#(base)/news.xml","name":"tone"}"#)
            #expect(
                reserved.status == .unprocessableContent
                    && reserved.error?.message
                        == "Podcast name 'tone' is reserved; pick a name that is not 'tone' and has no '://' or '#'."
            )
            let ftp = try await add(#"{"feed":"ftp://news.example/feed.xml"}"#)
            #expect(ftp.status == .badRequest)

            let removed = try await client.execute(uri: "/api/v1/podcasts/News", method: .delete, headers: rig.auth)
            #expect(removed.status == .ok && removed.object["deleted"] as? Int == added.object["id"] as? Int)
            let gone = try await client.execute(uri: "/api/v1/podcasts/News/episodes", method: .get)
            #expect(gone.status == .notFound && gone.error?.message == "No podcast is named 'News'; see 'aubade podcast list'.")
            let again = try await client.execute(uri: "/api/v1/podcasts/News", method: .delete, headers: rig.auth)
            #expect(again.status == .notFound)

            // Wi-Fi-only, with no wireless route: the feed is not downloaded, and nothing is stored.
            let wifiOnly = try await client.execute(
                uri: "/api/v1/settings", method: .patch, headers: rig.auth, body: ByteBuffer(json: #"{"isWifi":true}"#))
            #expect(wifiOnly.status == .ok)
            let refused = try await add(#"{"feed":"\#(base)/news.xml","name":"Later"}"#)
            #expect(refused.status == .conflict && refused.error?.message.hasPrefix("The feed is not downloaded: ") == true)
            let after = try await client.execute(uri: "/api/v1/podcasts", method: .get)
            #expect((after.object["podcasts"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Morning News"])
        }
        withExtendedLifetime(server) {}
    }
}
