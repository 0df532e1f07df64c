import AubadeTesting
import Foundation
import Synchronization
import Testing

/// R26: `alarm edit`s run at the same time from several processes all take effect.
@Suite("aubade alarm edit, many processes at once")
struct ConcurrentEditCLITests {
    /// Runs every argument list as its own `aubade` process, all released at the same moment; the results in
    /// the same order.
    static func runTogether(_ cli: CLIHarness, _ commands: [[String]]) async throws -> [ProcessResult] {
        // Every process is started before any is awaited (each waits on its own thread, not the pool).
        try await withThrowingTaskGroup(of: (Int, ProcessResult).self) { group in
            for (i, args) in commands.enumerated() {
                group.addTask { (i, try await cli.run(args)) }
            }
            var results: [Int: ProcessResult] = [:]
            for try await (i, result) in group { results[i] = result }
            return commands.indices.map { results[$0]! }
        }
    }

    @Test func twentyEditsOfTenAlarmsAtOnceAllTakeEffect() async throws {
        let cli = try CLIHarness()
        for i in 1...10 {
            #expect(
                try await cli.run(["alarm", "add", "--name", "Alarm \(i)", "--time", "06:\(10 + i)", "--days", "daily"]).status
                    == 0)
        }
        var commands: [[String]] = []
        for id in 1...10 {
            commands.append(["alarm", "edit", "\(id)", "--volume", "\(20 + id)"])
            commands.append(["alarm", "edit", "\(id)", "--name", "Edited \(id)"])
        }
        for (args, result) in zip(commands, try await Self.runTogether(cli, commands)) {
            #expect(result.status == 0, "\(args): \(result.stderr)")
        }
        let alarms = try #require(
            try cli.json(try await cli.run(["alarm", "list", "--json"]).stdout)["alarms"] as? [[String: Any]])
        #expect(alarms.count == 10)
        for alarm in alarms {
            let id = try #require(alarm["id"] as? Int)
            #expect(alarm["volume"] as? Int == 20 + id && alarm["name"] as? String == "Edited \(id)", "alarm \(id): \(alarm)")
        }
        // The backup copy (R27) holds the final state too.
        let copy = try #require(
            try cli.json(try String(contentsOfFile: cli.db + ".schedule.json", encoding: .utf8))["clocks"]
                as? [[String: Any]])
        #expect(
            copy.allSatisfy { row in
                guard let id = row["clockId"] as? Int else { return false }
                return row["volume"] as? Int == 20 + id && row["clockName"] as? String == "Edited \(id)"
            })
    }

    @Test func settingsSetOfTwoKeysAtOnceKeepsBoth() async throws {
        let cli = try CLIHarness()
        #expect(try await cli.run(["settings", "set", "isWifi", "false"]).status == 0)
        var commands: [[String]] = []
        for round in 0..<5 {
            commands.append(["settings", "set", "defaultVolume", "\(40 + round)"])
            commands.append(["settings", "set", "snoozeMinutes", "\(5 + round)"])
        }
        let results = try await Self.runTogether(cli, commands)
        #expect(results.allSatisfy { $0.status == 0 })
        let settings = try cli.json(try await cli.run(["settings", "get", "--json"]).stdout)
        // Whichever edit of a key came last, every key holds one of its own edits: none was reset to a default.
        #expect((40..<45).contains(settings["defaultVolume"] as? Int ?? 0))
        #expect((5..<10).contains(settings["snoozeMinutes"] as? Int ?? 0))
    }
}
