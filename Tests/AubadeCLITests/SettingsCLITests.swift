import AubadeStore
import AubadeTesting
import Foundation
import Testing

@Suite("aubade settings, version and run")
struct SettingsCLITests {
    @Test func getAndSet() async throws {
        let cli = try CLIHarness()
        #expect(try await cli.run(["settings", "get", "isWifi"]).stdout == "false\n")
        #expect(try await cli.run(["settings", "set", "isWifi", "true"]).stdout == "isWifi = true\n")
        #expect(try await cli.run(["settings", "set", "catchUp", "45m"]).status == 0)
        let all = try cli.json(try await cli.run(["settings", "get", "--json"]).stdout)
        #expect(all["isWifi"] as? Bool == true && all["catchUp"] as? Int == 2700 && all["fallbackTone"] as? String == "classic")
        #expect(all.count == 15 && all["dimFrom"] as? String == "off" && all["dimLevel"] as? Int == 10)
        #expect(try await cli.run(["settings", "set", "dimFrom", "22:30"]).stdout == "dimFrom = 22:30\n")
        let zero = try await cli.run(["settings", "set", "dimLevel", "0%"])
        #expect(zero.status == 2 && zero.stderr.contains("Setting dimLevel cannot be 0%"))
        #expect(try await cli.run(["settings", "get", "dimLevel"]).stdout == "10%\n")
        let table = try await cli.run(["settings", "get"]).stdout
        #expect(table.contains("catchUp        45m"))
        // A new alarm takes its defaults from the settings.
        #expect(try await cli.run(["settings", "set", "defaultVolume", "35"]).status == 0)
        let a = try cli.json(try await cli.run(["alarm", "add", "--name", "A", "--time", "06:00", "--json"]).stdout)
        #expect(a["volume"] as? Int == 35)
    }

    @Test func versionNamesTheLibraries() async throws {
        let cli = try CLIHarness()
        let v = try cli.json(try await cli.run(["version", "--json"], withDB: false).stdout)
        #expect(v["schema"] as? String == String(Store.schemaVersion))
        #expect((v["libical"] as? String)?.hasPrefix("3.") == true)
        #expect((v["libgpiod"] as? String)?.hasPrefix("1.") == true)
        #expect((v["libcurl"] as? String)?.hasPrefix("libcurl/") == true)
    }

    @Test func configAndDatabaseComeFromTheCommandLine() async throws {
        let cli = try CLIHarness()
        let config = cli.dir.file("aubade.toml")
        try
            "[paths]\ndatabase = \"\(cli.dir.file("from-config.sqlite"))\"\n[audio]\ndevice = \"null\"\n[clock]\ntime_zone = \"Asia/Kathmandu\"\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let r = try await cli.run(["alarm", "add", "--name", "A", "--time", "06:00", "--config", config], withDB: false)
        #expect(r.status == 0)
        #expect(FileManager.default.fileExists(atPath: cli.dir.file("from-config.sqlite")))
        // The daemon takes the database from the config too.
        let run = try await EventProcess(cli.binary, ["run", "--json", "--config", config], environment: cli.environment)
        let ready = try #require(await run.wait(for: "ready", timeout: .seconds(60)))
        #expect((ready["alarms"] as? String)?.hasPrefix("1 alarm(s) enabled") == true)
        #expect(ready["socket"] as? String == cli.dir.file("from-config.sqlite") + ".sock")
        run.signal(SIGTERM)
        #expect(await run.waitForExit() == 0)

        try "[http]\nport = 0\n".write(toFile: config, atomically: true, encoding: .utf8)
        let bad = try await cli.run(["alarm", "list", "--config", config], withDB: false)
        #expect(
            bad.status == 2 && bad.errorSentence == "Config file \(config): http.port at line 2 must be from 1 to 65535, not 0.")
        try "[htp]\nport = 1\n".write(toFile: config, atomically: true, encoding: .utf8)
        let typo = try await cli.run(["alarm", "list", "--config", config])
        #expect(
            typo.status == 0
                && typo.stderr == "aubade: Config file \(config): unknown key [htp] at line 1 is ignored.\n"
                    + "aubade: There is no database at \(cli.db) yet; nothing is stored.\n"
        )
    }
}
