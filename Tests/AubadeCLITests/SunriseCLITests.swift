import AubadeStore
import AubadeTesting
import Foundation
import GRDB
import Testing

/// The alarm's sunrise through the built binary: `--sunrise` on `alarm add/edit` (a duration, or 0/off), its
/// refusals, the `[display] sunrise` default for a new alarm, the column on a database of this schema version —
/// and `aubade doctor`'s line on whether the backlight can be driven, on fake sysfs trees.
@Suite("aubade alarm --sunrise and doctor's backlight (the built binary)")
struct SunriseCLITests {
    @Test func aSunriseIsSetEditedTurnedOffAndRefusedOutOfRange() async throws {
        let cli = try CLIHarness()
        let add = try await cli.run(["alarm", "add", "--name", "Work", "--time", "06:45", "--days", "daily", "--sunrise", "20m"])
        #expect(add.status == 0 && add.stdout == "Added alarm 1: Work at 06:45, daily, a sunrise 20m before.\n", "\(add.stderr)")
        #expect(
            try cli.json(try await cli.run(["alarm", "edit", "1", "--sunrise", "1h", "--json"]).stdout)["sunriseSeconds"] as? Int
                == 3600)
        for off in ["0", "off"] {
            let r = try await cli.run(["alarm", "edit", "1", "--sunrise", off, "--json"])
            #expect(try cli.json(r.stdout)["sunriseSeconds"] as? Int == 0, "\(off): \(r.stderr)")
        }
        let before = try await cli.run(["alarm", "list", "--json"]).stdout
        let tooLong = try await cli.run(["alarm", "edit", "1", "--sunrise", "3h"])
        #expect(tooLong.status == 2 && tooLong.errorSentence == "Sunrise 3h is out of range; use 0s to 2h.", "\(tooLong.stderr)")
        let bare = try await cli.run(["alarm", "edit", "1", "--sunrise", "20"])
        #expect(bare.status == 2 && bare.errorSentence == "Sunrise '20' needs a unit, like 15m, 90s or 1h30m.", "\(bare.stderr)")
        #expect(try await cli.run(["alarm", "list", "--json"]).stdout == before, "a refused edit changes nothing")
        let version = try await DatabaseQueue(path: cli.db).read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
        #expect(version == Store.schemaVersion)
        let stored = try await DatabaseQueue(path: cli.db).read { db in
            try Int.fetchOne(db, sql: "SELECT sunriseSeconds FROM clocks")
        }
        #expect(stored == 0)
    }

    @Test func aNewAlarmTakesTheConfigsSunriseUnlessItNamesItsOwn() async throws {
        let cli = try CLIHarness()
        let config = cli.dir.file("aubade.toml")
        try "[display]\nsunrise = \"15m\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let plain = try await cli.run(["alarm", "add", "--name", "A", "--time", "06:00", "--json", "--config", config])
        #expect(try cli.json(plain.stdout)["sunriseSeconds"] as? Int == 900, "\(plain.stderr)")
        let own = try await cli.run([
            "alarm", "add", "--name", "B", "--time", "06:10", "--sunrise", "0", "--json", "--config", config,
        ])
        #expect(try cli.json(own.stdout)["sunriseSeconds"] as? Int == 0)
        let edited = try await cli.run(["alarm", "edit", "1", "--volume", "70", "--json", "--config", config])
        #expect(try cli.json(edited.stdout)["sunriseSeconds"] as? Int == 900, "an edit keeps the alarm's own")
        try "[display]\nsunrise = \"3h\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let check = try await cli.run(["run", "--check-config", "--config", config])
        #expect(check.status == 2 && (check.stdout + check.stderr).contains("sunrise"), "\(check.stdout)\(check.stderr)")
    }

    /// A fake /sys/class/backlight/panel under `dir`; `usable` false puts a folder where its brightness file is.
    static func panel(in dir: TemporaryDirectory, usable: Bool) throws -> String {
        let root = dir.file(usable ? "sys-ok" : "sys-broken")
        let panel = root + "/sys/class/backlight/panel"
        try FileManager.default.createDirectory(atPath: panel, withIntermediateDirectories: true)
        for (file, value) in [("max_brightness", "255"), ("brightness", "128"), ("type", "raw")] {
            try "\(value)\n".write(toFile: panel + "/" + file, atomically: true, encoding: .utf8)
        }
        // A panel the clock cannot read. (A file without write permission cannot stand in for a read-only /sys
        // here: the tests may run as root, whom access(2) lets write anything; SysfsBacklightTests hold the
        // sentences for EACCES and EROFS.)
        if !usable {
            try FileManager.default.removeItem(atPath: panel + "/brightness")
            try FileManager.default.createDirectory(atPath: panel + "/brightness", withIntermediateDirectories: false)
        }
        return root
    }

    @Test func doctorSaysWhetherTheBacklightCanBeDriven() async throws {
        let cli = try CLIHarness()
        try await cli.run(["alarm", "add", "--name", "Work", "--time", "06:45", "--sunrise", "20m"])
        func line(_ root: String?, config: String = "") async throws -> [String: String] {
            let path = cli.dir.file("doctor-\(UUID().uuidString).toml")
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            let r = try await cli.run(["doctor", "--json", "--config", path] + (root.map { ["--backlight-root", $0] } ?? []))
            return try #require(try DoctorCLITests.checks(cli.json(r.stdout))["backlight"], "\(r.stdout)")
        }
        let ok = try await line(try Self.panel(in: cli.dir, usable: true))
        #expect(ok["status"] == "ok", "\(ok)")
        #expect(ok["message"]?.contains("backlight panel") == true && ok["message"]?.contains("sunrise of Work") == true)
        let none = try await line(cli.dir.file("empty"))
        #expect(none["status"] == "ok" && none["message"]?.contains("no screen backlight") == true, "\(none)")
        let off = try await line(nil, config: "[display]\nbacklight = \"none\"\n")
        #expect(off["status"] == "ok" && off["message"]?.contains("not driven") == true, "\(off)")
        let missing = try await line(try Self.panel(in: cli.dir, usable: true), config: "[display]\nbacklight = \"dsi\"\n")
        #expect(missing["status"] == "warning" && missing["message"]?.contains("'dsi'") == true, "\(missing)")
        let broken = try await line(try Self.panel(in: cli.dir, usable: false))
        #expect(broken["status"] == "warning" && broken["fix"] != nil, "\(broken)")
    }
}
