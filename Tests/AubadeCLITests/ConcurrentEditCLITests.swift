import AubadeTesting
import Foundation
import Synchronization
import Testing

/// R26: `alarm edit`s run at the same time from several processes all take effect.
@Suite("aubade alarm edit, many processes at once")
struct ConcurrentEditCLITests {
    /// Runs every argument list as its own `aubade` process, all released at the same moment; the results in
    /// the same order.
    static func runTogether(_ cli: CLIHarness, _ commands: [[String]]) throws -> [ProcessResult] {
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let results = Mutex<[Int: Result<ProcessResult, HarnessError>]>([:])
        for (i, args) in commands.enumerated() {
            group.enter()
            Thread.detachNewThread {
                start.wait()
                let result: Result<ProcessResult, HarnessError>
                do { result = .success(try cli.run(args)) } catch { result = .failure(HarnessError("\(error)")) }
                results.withLock { $0[i] = result }
                group.leave()
            }
        }
        for _ in commands { start.signal() }
        group.wait()
        return try results.withLock { all in try commands.indices.map { i in try all[i]!.get() } }
    }

    @Test func twentyEditsOfTenAlarmsAtOnceAllTakeEffect() throws {
        let cli = try CLIHarness()
        for i in 1...10 {
            #expect(try cli.run(["alarm", "add", "--name", "Alarm \(i)", "--time", "06:\(10 + i)", "--days", "daily"]).status == 0)
        }
        var commands: [[String]] = []
        for id in 1...10 {
            commands.append(["alarm", "edit", "\(id)", "--volume", "\(20 + id)"])
            commands.append(["alarm", "edit", "\(id)", "--name", "Edited \(id)"])
        }
        for (args, result) in zip(commands, try Self.runTogether(cli, commands)) {
            #expect(result.status == 0, "\(args): \(result.stderr)")
        }
        let alarms = try #require(try cli.json(try cli.run(["alarm", "list", "--json"]).stdout)["alarms"] as? [[String: Any]])
        #expect(alarms.count == 10)
        for alarm in alarms {
            let id = try #require(alarm["id"] as? Int)
            #expect(alarm["volume"] as? Int == 20 + id && alarm["name"] as? String == "Edited \(id)", "alarm \(id): \(alarm)")
        }
        // The backup copy (R27) holds the final state too.
        let copy = try #require(try cli.json(try String(contentsOfFile: cli.db + ".schedule.json", encoding: .utf8))["clocks"]
            as? [[String: Any]])
        #expect(copy.allSatisfy { row in
            guard let id = row["clockId"] as? Int else { return false }
            return row["volume"] as? Int == 20 + id && row["clockName"] as? String == "Edited \(id)"
        })
    }

    @Test func settingsSetOfTwoKeysAtOnceKeepsBoth() throws {
        let cli = try CLIHarness()
        #expect(try cli.run(["settings", "set", "isWifi", "false"]).status == 0)
        var commands: [[String]] = []
        for round in 0..<5 {
            commands.append(["settings", "set", "defaultVolume", "\(40 + round)"])
            commands.append(["settings", "set", "snoozeMinutes", "\(5 + round)"])
        }
        let results = try Self.runTogether(cli, commands)
        #expect(results.allSatisfy { $0.status == 0 })
        let settings = try cli.json(try cli.run(["settings", "get", "--json"]).stdout)
        // Whichever edit of a key came last, every key holds one of its own edits: none was reset to a default.
        #expect((40..<45).contains(settings["defaultVolume"] as? Int ?? 0))
        #expect((5..<10).contains(settings["snoozeMinutes"] as? Int ?? 0))
    }
}
