import AubadeTesting
import Foundation
import Testing

/// `aubade station search` as a user runs it, against a local directory mirror named in the config.
@Suite("station search (CLI)", .serialized)
struct StationDirectoryCLITests {
    /// A harness whose config points `[directory]` at `servers`.
    static func harness(servers: [String], enabled: Bool = true) throws -> (CLIHarness, config: String) {
        let h = try CLIHarness()
        let config = h.dir.file("aubade.toml")
        let list = servers.map { "\"\($0)\"" }.joined(separator: ", ")
        try Data("[directory]\nenabled = \(enabled)\nservers = [\(list)]\n".utf8).write(to: URL(fileURLWithPath: config))
        return (h, config)
    }

    @Test func searchListsWhatCanAndCannotBePlayed() async throws {
        let dir = try TemporaryDirectory("directory")
        let mirror = try await DirectoryMirror("ok", in: dir)
        let (h, config) = try Self.harness(servers: [mirror.base])
        let text = try await h.run(["station", "search", "jazz", "--allow-local", "--config", config])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ID") == true && lines.count == 4, "\(text.stdout)")
        #expect(lines[1].contains("Swiss Jazz") && lines[1].contains("CH") && lines[1].contains("128"))
        #expect(lines[2].contains("Jazz FM AAC") && !lines[2].contains("cannot play"))
        #expect(lines[3].contains("Jazz HLS") && lines[3].hasSuffix("cannot play: video (H.264)"))

        let json = try await h.run(["station", "search", "--tag", "classical", "--json", "--allow-local", "--config", config])
        let stations = try #require(try h.json(json.stdout)["stations"] as? [[String: Any]])
        #expect(stations.count == 1)
        #expect(stations.first?["id"] as? String == "66666666-6666-6666-6666-666666666666")
        #expect(stations.first?["playable"] as? Bool == true)
    }

    @Test func aDirectoryOnThisMachineIsRefusedWithoutAllowLocal() async throws {
        let dir = try TemporaryDirectory("directory")
        let mirror = try await DirectoryMirror("ok", in: dir)
        let (h, config) = try Self.harness(servers: [mirror.base])
        let result = try await h.run(["station", "search", "jazz", "--config", config])
        #expect(result.status == 1)
        #expect(result.errorSentence?.contains("resolves to a loopback address, which is refused") == true, "\(result.stderr)")
        #expect(mirror.requests.isEmpty)
    }

    @Test(arguments: [
        (["station", "search"], "Say what to search for: a few words of the station's name, or --country or --tag."),
        (
            ["station", "search", "fip", "--country", "France"],
            "--country 'France' is not a two-letter country code such as DE or FR."
        ),
        (["station", "search", "fip", "--limit", "500"], "--limit 500 is out of range; ask for 1 to 100 results."),
    ])
    func badSearchesAreOneSentenceAndAskNothing(args: [String], sentence: String) async throws {
        let (h, config) = try Self.harness(servers: ["http://127.0.0.1:9"])
        let result = try await h.run(args + ["--config", config])
        #expect(result.status == 2 && result.errorSentence == sentence, "\(result.stderr)")
    }

    @Test func aDirectoryTurnedOffSaysSo() async throws {
        let (h, config) = try Self.harness(servers: ["http://127.0.0.1:9"], enabled: false)
        let result = try await h.run(["station", "search", "fip", "--config", config])
        #expect(result.status == 2)
        #expect(result.errorSentence == "The station directory is off in the config ([directory] enabled = false).")
    }
}

/// `aubade station add --from-directory`: the station as the directory knows it, its logo kept beside the database.
@Suite("station add --from-directory (CLI)", .serialized)
struct StationFromDirectoryCLITests {
    static let swissJazz = "11111111-1111-1111-1111-111111111111"
    /// A PNG's signature and a few bytes: what the logo folder keeps is checked by its first bytes.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 200)

    /// A harness and a mirror (with the folder that holds its stations and the logo: kept while the test runs).
    static func setUp(logo: [UInt8] = png) async throws -> (
        CLIHarness, config: String, mirror: DirectoryMirror, folder: TemporaryDirectory
    ) {
        let dir = try TemporaryDirectory("directory")
        try Data(logo).write(to: URL(fileURLWithPath: dir.file("jazz.png")))
        let mirror = try await DirectoryMirror("ok", in: dir)
        let (h, config) = try StationDirectoryCLITests.harness(servers: [mirror.base])
        return (h, config, mirror, dir)
    }

    @Test func aStationIsSavedWithWhereItWasFoundAndItsLogo() async throws {
        let (h, config, mirror, folder) = try await Self.setUp()
        defer { withExtendedLifetime((folder, mirror)) {} }
        let added = try await h.run(["station", "add", "--from-directory", Self.swissJazz, "--allow-local", "--config", config])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "Added station 1: Swiss Jazz (MP3, 128 kbps, CH, from the directory).\n")
        #expect(added.stderr.isEmpty)
        let listed = try await h.run(["station", "list", "--json", "--config", config])
        let station = try #require((try h.json(listed.stdout)["stations"] as? [[String: Any]])?.first)
        #expect(station["url"] as? String == "\(mirror.base)/stream.mp3")
        let link = try #require(station["directory"] as? [String: Any])
        #expect(link["id"] as? String == Self.swissJazz && link["codec"] as? String == "MP3" && link["bitrate"] as? Int == 128)
        #expect(link["country"] as? String == "CH" && link["logo"] as? String == "\(Self.swissJazz).png")
        let kept = try Data(contentsOf: URL(fileURLWithPath: h.db + ".logos/\(Self.swissJazz).png"))
        #expect([UInt8](kept) == Self.png)
        #expect(mirror.requests.map { $0["agent"] as? String }.allSatisfy { $0?.hasPrefix("aubade/") == true })

        // Saved once: again, under another name, is refused, and the logo stays.
        let again = try await h.run([
            "station", "add", "--from-directory", Self.swissJazz, "--name", "Jazz", "--allow-local", "--config", config,
        ])
        #expect(again.status == 2 && again.errorSentence == "This station of the directory is already saved, as 'Swiss Jazz'.")
        #expect(FileManager.default.fileExists(atPath: h.db + ".logos/\(Self.swissJazz).png"))

        // Removing the station removes its logo.
        let removed = try await h.run(["station", "rm", "Swiss Jazz", "--config", config])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: h.db + ".logos/\(Self.swissJazz).png"))
    }

    @Test func aStationThisClockCannotPlayIsRefusedAndNothingIsStored() async throws {
        let (h, config, mirror, folder) = try await Self.setUp()
        defer { withExtendedLifetime((folder, mirror)) {} }
        let video = try await h.run([
            "station", "add", "--from-directory", "33333333-3333-3333-3333-333333333333", "--allow-local", "--config", config,
        ])
        #expect(video.status == 2)
        #expect(video.errorSentence == "Jazz HLS cannot be saved: this clock cannot play: video (H.264); pick another station.")
        let unknown = try await h.run([
            "station", "add", "--from-directory", "77777777-7777-7777-7777-777777777777", "--allow-local", "--config", config,
        ])
        #expect(unknown.status == 2)
        #expect(
            unknown.errorSentence
                == "The station directory has no station with id 77777777-7777-7777-7777-777777777777; search again with: aubade station search."
        )
        let both = try await h.run([
            "station", "add", "--from-directory", Self.swissJazz, "--url", "http://x.example/s", "--config", config,
        ])
        #expect(both.status == 2)
        #expect(both.errorSentence == "Give either --url or --from-directory: the directory says where the station streams.")
        let badID = try await h.run(["station", "add", "--from-directory", "fip", "--config", config])
        #expect(badID.status == 2 && badID.errorSentence?.hasPrefix("'fip' is not a station id of the directory") == true)
        let listed = try await h.run(["station", "list", "--json", "--config", config])
        #expect((try h.json(listed.stdout)["stations"] as? [Any])?.isEmpty == true)
    }

    @Test func aDirectoryThatIsDownStoresNothing() async throws {
        let (h, config) = try StationDirectoryCLITests.harness(servers: ["http://127.0.0.1:9"])
        let result = try await h.run([
            "station", "add", "--from-directory", Self.swissJazz, "--allow-local", "--config", config,
        ])
        #expect(result.status == 1)
        #expect(
            result.errorSentence?.hasPrefix("The station directory did not answer (its server tried): ") == true,
            "\(result.stderr)")
        let listed = try await h.run(["station", "list", "--json", "--config", config])
        #expect((try h.json(listed.stdout)["stations"] as? [Any])?.isEmpty == true)
    }

    @Test func aLogoTooLargeOrNotAnImageIsAWarningAndTheStationIsSaved() async throws {
        for logo in [Self.png + Array(repeating: 1, count: 300 * 1024), Array("<svg onload=alert(1)>".utf8)] {
            let (h, config, mirror, folder) = try await Self.setUp(logo: logo)
            defer { withExtendedLifetime((folder, mirror)) {} }
            let added = try await h.run([
                "station", "add", "--from-directory", Self.swissJazz, "--allow-local", "--config", config,
            ])
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stderr.hasPrefix("aubade: Saved without its logo: "), "\(added.stderr)")
            #expect(!FileManager.default.fileExists(atPath: h.db + ".logos/\(Self.swissJazz).png"))
            let listed = try await h.run(["station", "list", "--json", "--config", config])
            let station = try #require((try h.json(listed.stdout)["stations"] as? [[String: Any]])?.first)
            #expect((station["directory"] as? [String: Any])?["logo"] == nil)
        }
    }
}
