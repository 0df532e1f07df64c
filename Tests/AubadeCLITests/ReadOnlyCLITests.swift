import AubadeTesting
import Foundation
import GRDB
import Testing

/// R29: commands that only read leave the database exactly as it was; R27: with the file gone, reads show the
/// backup copy and a write restores it first.
@Suite("aubade read-only commands and a missing database")
struct ReadOnlyCLITests {
    /// What must not move: SQLite's file change counter (header bytes 24...27), the file's bytes, the `-wal`
    /// file's size (nil: no such file) and whether a `-shm` file exists.
    struct FileState: Equatable, CustomStringConvertible {
        var changeCounter: UInt32
        var bytes: Data
        var walSize: Int?
        var shmExists: Bool

        init(_ db: String) throws {
            bytes = try Data(contentsOf: URL(fileURLWithPath: db))
            changeCounter = bytes.count >= 28 ? bytes[24..<28].reduce(0) { $0 << 8 | UInt32($1) } : 0
            walSize = (try? FileManager.default.attributesOfItem(atPath: db + "-wal"))?[.size] as? Int
            shmExists = FileManager.default.fileExists(atPath: db + "-shm")
        }

        var description: String {
            "counter \(changeCounter), \(bytes.count) bytes, -wal \(walSize.map(String.init) ?? "none"), -shm \(shmExists)"
        }
    }

    /// Each read-only command with the exit status it must end with (status without a daemon says so: 3).
    static let readOnly: [([String], Int32)] = [
        (["alarm", "list"], 0), (["alarm", "list", "--json"], 0), (["alarm", "next"], 0), (["alarm", "next", "--json"], 0),
        (["station", "list"], 0), (["settings", "get"], 0), (["settings", "get", "isWifi"], 0), (["program", "list"], 0),
        (["program", "list", "--json"], 0), (["status"], 3), (["status", "--json"], 3),
    ]

    static func populate(_ cli: CLIHarness) async throws {
        let setup: [[String]] = [
            ["station", "add", "--name", "FIP", "--url", "https://fip.example/live.mp3"],
            ["alarm", "add", "--name", "Work", "--time", "06:45", "--days", "mon-fri", "--source", "FIP"],
            ["alarm", "add", "--name", "Gym", "--time", "05:30", "--days", "sat"],
            [
                "program", "add", "--name", "Night Jazz", "--begin", "22:00", "--end", "23:00", "--station", "FIP", "--weekday",
                "fri",
            ],
            ["program", "reserve", "1"],
            ["settings", "set", "defaultVolume", "40"],
        ]
        for args in setup { #expect(try await cli.run(args).status == 0, "\(args)") }
    }

    @Test func readOnlyCommandsChangeNothingWhenNothingElseHasTheFileOpen() async throws {
        let cli = try CLIHarness()
        try await Self.populate(cli)
        let start = try FileState(cli.db)
        #expect(start.walSize == nil && !start.shmExists)
        for (args, status) in Self.readOnly {
            let before = try FileState(cli.db)
            let result = try await cli.run(args)
            #expect(result.status == status, "\(args): \(result.stderr)")
            #expect(try FileState(cli.db) == before, "\(args)")
        }
        #expect(try FileState(cli.db) == start)
    }

    @Test func readOnlyCommandsChangeNothingWhileAnotherConnectionHoldsTheWAL() async throws {
        let cli = try CLIHarness()
        try await Self.populate(cli)
        // A connection that stays open, as the daemon's does: later commits stay in the -wal file.
        let held = try DatabaseQueue(path: cli.db)
        defer { try? held.close() }
        #expect(try await held.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM clocks") } == 2)
        let added = try await cli.run(["alarm", "add", "--name", "Late", "--time", "23:00", "--days", "daily"])
        #expect(added.status == 0)
        let start = try FileState(cli.db)
        #expect((start.walSize ?? 0) > 0, "\(start)")
        for (args, status) in Self.readOnly {
            let before = try FileState(cli.db)
            let result = try await cli.run(args)
            #expect(result.status == status, "\(args): \(result.stderr)")
            #expect(try FileState(cli.db) == before, "\(args)")
        }
        // The commit still in the WAL is what the readers saw.
        #expect(try await cli.run(["alarm", "list"]).stdout.contains("Late"))
    }

    @Test func withoutADatabaseReadsCreateNothingAndSaySo() async throws {
        let cli = try CLIHarness()
        for (args, status) in Self.readOnly {
            let result = try await cli.run(args)
            #expect(result.status == status, "\(args): \(result.stderr)")
            #expect(result.stderr.contains("aubade: There is no database at \(cli.db) yet; nothing is stored.\n"), "\(args)")
        }
        #expect(
            try await cli.run(["alarm", "list"]).stdout
                == "No alarms. Add one with: aubade alarm add --name Work --time 06:45 --days mon-fri\n")
        #expect(
            try cli.json(try await cli.run(["alarm", "list", "--json"]).stdout)["alarms"].map { ($0 as! [Any]).isEmpty } == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.dir.path).isEmpty)
    }

    @Test func aDeletedDatabaseIsReadFromTheCopyAndAWriteRestoresItFirst() async throws {
        let cli = try CLIHarness()
        try await Self.populate(cli)
        try FileManager.default.removeItem(atPath: cli.db)
        let list = try await cli.run(["alarm", "list"])
        #expect(list.status == 1)
        #expect(
            list.stderr.hasPrefix(
                "aubade: The database \(cli.db) is unreadable (it does not exist). Showing the 2 alarm(s) of the backup copy written "
            ))
        #expect(list.stdout.contains("Work") && list.stdout.contains("Gym") && list.stdout.contains("FIP"))
        let stations = try await cli.run(["station", "list"])
        #expect(stations.status == 1 && stations.stdout.contains("FIP") && stations.stderr.contains("Showing the 1 station(s)"))
        let programmes = try await cli.run(["program", "list"])
        #expect(programmes.status == 1 && programmes.stdout.contains("Night Jazz"))
        let volume = try await cli.run(["settings", "get", "defaultVolume"])
        #expect(volume.status == 1 && volume.stdout == "40\n")
        #expect(!FileManager.default.fileExists(atPath: cli.db))

        let add = try await cli.run(["alarm", "add", "--name", "After", "--time", "07:00", "--days", "daily", "--json"])
        #expect(add.status == 0)
        #expect(
            add.stderr.hasPrefix(
                "aubade: The database \(cli.db) was missing or empty; restored 2 alarm(s), 1 station(s), 1 reserved programme(s) and the settings from the backup copy written "
            ))
        #expect(try cli.json(add.stdout)["id"] as? Int == 3)
        let after = try await cli.run(["alarm", "list", "--json"])
        #expect(after.status == 0 && after.stderr.isEmpty)
        let names = try #require(try cli.json(after.stdout)["alarms"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(Set(names) == ["Work", "Gym", "After"])
    }
}
