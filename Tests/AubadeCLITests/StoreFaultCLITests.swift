import AubadeStore
import AubadeTesting
import Foundation
import GRDB
import Testing

@Suite("aubade with a damaged, newer or busy database")
struct StoreFaultCLITests {
    @Test func anUnreadableDatabaseShowsTheBackupCopyAndFails() async throws {
        let cli = try CLIHarness()
        #expect(try await cli.run(["alarm", "add", "--name", "Work", "--time", "06:45", "--days", "mon-fri"]).status == 0)
        #expect(try await cli.run(["alarm", "add", "--name", "Gym", "--time", "05:30", "--days", "sat"]).status == 0)
        try Data(repeating: 0x42, count: 16384).write(to: URL(fileURLWithPath: cli.db))
        let list = try await cli.run(["alarm", "list"])
        #expect(list.status == 1)
        #expect(list.stderr.hasPrefix("aubade: The database \(cli.db) is unreadable ("))
        #expect(list.stderr.contains("Showing the 2 alarm(s) of the backup copy written"))
        #expect(list.stdout.contains("Work") && list.stdout.contains("Gym"))
        let add = try await cli.run(["alarm", "add", "--name", "X", "--time", "07:00"])
        #expect(add.status == 1 && add.errorSentence?.hasPrefix("The database \(cli.db) is unreadable (") == true)
    }

    @Test func anUnreadableDatabaseWithoutBackupIsOneSentence() async throws {
        let cli = try CLIHarness()
        try Data(repeating: 0x42, count: 16384).write(to: URL(fileURLWithPath: cli.db))
        let list = try await cli.run(["alarm", "list"])
        #expect(list.status == 1 && list.stdout.isEmpty)
        #expect(list.errorSentence?.hasPrefix("The database \(cli.db) is unreadable (") == true)
    }

    @Test func aNewerSchemaIsReadOnly() async throws {
        let cli = try CLIHarness()
        #expect(try await cli.run(["alarm", "add", "--name", "Work", "--time", "06:45", "--days", "daily"]).status == 0)
        let q = try DatabaseQueue(path: cli.db)
        let newer = Store.schemaVersion + 1
        try await q.write { db in try db.execute(sql: "PRAGMA user_version = \(newer)") }
        try q.close()
        let list = try await cli.run(["alarm", "list"])
        #expect(list.status == 0 && list.stdout.contains("Work"))
        #expect(list.stderr.contains("has schema version \(newer), newer than this aubade knows (\(Store.schemaVersion))"))
        let before = try cli.dump()
        let add = try await cli.run(["alarm", "add", "--name", "X", "--time", "07:00"])
        #expect(add.status == 1)
        #expect(
            add.errorSentence
                == "The database \(cli.db) has schema version \(newer), newer than this aubade knows (\(Store.schemaVersion)); it is open read-only, so upgrade aubade to change it."
        )
        #expect(try cli.dump() == before)
    }

    @Test func twoProcessesWritingAtOnceLoseNothing() async throws {
        let cli = try CLIHarness()
        // No file yet: the two processes' first adds race to create it too (a read-only `alarm list` no longer
        // creates it, R29).
        let perProcess = 12
        try await withThrowingTaskGroup(of: [Int32].self) { group in
            for p in 0..<2 {
                group.addTask {
                    var codes: [Int32] = []
                    for i in 0..<perProcess {
                        codes.append(
                            try await cli.run([
                                "alarm", "add", "--name", "p\(p)-\(i)", "--time", "06:\(10 + i)",
                                "--days", "daily",
                            ]).status)
                    }
                    return codes
                }
            }
            for try await codes in group { #expect(codes.allSatisfy { $0 == 0 }) }
        }
        let alarms = try #require(
            try cli.json(try await cli.run(["alarm", "list", "--json"]).stdout)["alarms"] as? [[String: Any]])
        #expect(Set(alarms.compactMap { $0["name"] as? String }).count == 2 * perProcess)
        #expect(Set(alarms.compactMap { $0["id"] as? Int }).count == 2 * perProcess)
    }

    /// Two processes that both find no database and create it at once: both succeed, nothing is lost (they
    /// once raced on switching the new file to WAL and on its schema: "database is locked", "no such table").
    @Test func twoProcessesCreatingTheDatabaseAtOnceBothSucceed() async throws {
        for round in 0..<10 {
            let cli = try CLIHarness()
            let results = try await ConcurrentEditCLITests.runTogether(
                cli,
                [
                    ["alarm", "add", "--name", "A", "--time", "06:10", "--days", "daily"],
                    ["alarm", "add", "--name", "B", "--time", "06:11", "--days", "daily"],
                ])
            #expect(results.map(\.status) == [0, 0], "round \(round): \(results.map(\.stderr))")
            let alarms = try #require(
                try cli.json(try await cli.run(["alarm", "list", "--json"]).stdout)["alarms"] as? [[String: Any]])
            #expect(Set(alarms.compactMap { $0["name"] as? String }) == ["A", "B"])
        }
    }
}
