import AubadeTesting
import Foundation
import Testing

/// `aubade alarm skip-next`: one occurrence passes, the following ones ring.
@Suite("alarm skip-next")
struct SkipNextCLITests {
    @Test func theNextOccurrenceIsSkippedAndCanBeRestored() async throws {
        let cli = try CLIHarness()
        #expect(
            try await cli.run(["alarm", "add", "--name", "Work", "--time", "07:00", "--days", "daily", "--tz", "UTC"]).status == 0
        )
        let skip = try await cli.run(["alarm", "skip-next", "1", "--json"])
        #expect(skip.status == 0, "\(skip.stderr)")
        let skipped = try #require(try cli.json(skip.stdout)["skipDate"] as? String)
        // The skipped date is the next 07:00 UTC from now.
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let now = Date()
        var next = utc.date(bySettingHour: 7, minute: 0, second: 0, of: now)!
        if next <= now { next = utc.date(byAdding: .day, value: 1, to: next)! }
        let f = DateFormatter()
        f.calendar = utc
        f.timeZone = utc.timeZone
        f.dateFormat = "yyyy-MM-dd"
        #expect(skipped == f.string(from: next))
        let undo = try await cli.run(["alarm", "skip-next", "1", "--undo", "--json"])
        #expect(undo.status == 0)
        let restored = try cli.json(undo.stdout)
        #expect(restored["skipDate"] == nil)
    }

    @Test func aDisabledOrMissingAlarmIsRefusedAndNothingChanges() async throws {
        let cli = try CLIHarness()
        #expect(try await cli.run(["alarm", "add", "--name", "Off", "--time", "07:00", "--days", "daily"]).status == 0)
        #expect(try await cli.run(["alarm", "disable", "1"]).status == 0)
        let before = try cli.dump()
        let disabled = try await cli.run(["alarm", "skip-next", "1"])
        #expect(disabled.status == 2 && disabled.errorSentence == "Alarm 1 is disabled; there is no next occurrence to skip.")
        let missing = try await cli.run(["alarm", "skip-next", "9"])
        #expect(missing.status == 2)
        #expect(try cli.dump() == before)
    }
}
