import AubadeTesting
import Foundation
import Testing

/// `aubade alarm next` answers DST questions from the command line, with the engine the daemon uses.
@Suite("aubade alarm next (the built binary)")
struct AlarmNextCLITests {
    func firings(_ cli: CLIHarness, _ args: [String]) async throws -> [[String: Any]] {
        let r = try await cli.run(["alarm", "next", "--json"] + args)
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(try cli.json(r.stdout)["firings"] as? [[String: Any]])
    }

    @Test func berlinSpringGapAndAutumnOverlap() async throws {
        let cli = try CLIHarness()
        #expect(
            try await cli.run(["alarm", "add", "--name", "Early", "--time", "02:30", "--days", "daily", "--tz", "Europe/Berlin"])
                .status == 0)
        let spring = try await firings(cli, ["--count", "2", "--now", "2026-03-28T12:00:00+01:00"])
        #expect(spring.map { $0["utc"] as? String } == ["2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z"])  // 02:30 → 03:30 CEST
        #expect(spring.first?["local"] as? String == "2026-03-29 03:30 +02:00")
        let autumn = try await firings(cli, ["--count", "2", "--now", "2026-10-24T12:00:00+02:00"])
        #expect(autumn.map { $0["utc"] as? String } == ["2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"])  // first 02:30 only
    }

    @Test func newYorkAndKathmandu() async throws {
        let cli = try CLIHarness()
        #expect(
            try await cli.run(["alarm", "add", "--name", "NY", "--time", "02:15", "--days", "sun", "--tz", "America/New_York"])
                .status == 0)
        #expect(
            try await cli.run(["alarm", "add", "--name", "KTM", "--time", "06:00", "--days", "daily", "--tz", "Asia/Kathmandu"])
                .status == 0)
        let ny = try await firings(cli, ["--count", "5", "--now", "2026-03-07T12:00:00-05:00"]).filter {
            $0["name"] as? String == "NY"
        }
        #expect(ny.first?["utc"] as? String == "2026-03-08T07:15:00Z")  // 02:15 does not exist: 03:15 EDT
        let ktm = try await firings(cli, ["--count", "1", "--now", "2026-06-01T00:00:00+00:00"])
        #expect(ktm.first?["utc"] as? String == "2026-06-01T00:15:00Z")  // +05:45
    }

    @Test func nothingSoonAndBadInput() async throws {
        let cli = try CLIHarness()
        let none = try await cli.run(["alarm", "next", "--now", "2026-01-01T00:00:00Z"])
        #expect(none.status == 0 && none.stdout.contains("No alarm in the next 24 h"))
        let bad = try await cli.run(["alarm", "next", "--now", "tomorrow"])
        #expect(bad.status == 2 && bad.errorSentence?.hasPrefix("--now 'tomorrow' is not an ISO-8601 instant") == true)
    }
}
