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
        #expect(lines[2].contains("Jazz FM AAC") && lines[2].hasSuffix("cannot play: AAC"))
        #expect(lines[3].contains("Jazz HLS") && lines[3].hasSuffix("cannot play: HLS"))

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
