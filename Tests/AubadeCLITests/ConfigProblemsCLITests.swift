import AubadeTesting
import Foundation
import Testing

/// R36 with the built binary: a config with bad values is refused by the commands a user types and by
/// `aubade run --check-config` (exit 2, every problem named), listed by `doctor` (exit 2), and never stops
/// the daemon, which prints each problem, runs on the defaults and rings.
@Suite("Config problems (the built binary)")
struct ConfigProblemsCLITests {
    static let badValues = """
        [http]
        port = "eighty"
        [shake]
        threshold = true
        """

    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func stderrLines(_ r: ProcessResult) -> [String] {
        r.stderr.split(separator: "\n").map(String.init)
    }

    @Test func checkConfigNamesEveryBadValueAndStartsNothing() async throws {
        let cli = try CLIHarness()
        let bad = cli.dir.file("bad.toml")
        try Self.write(Self.badValues, to: bad)
        let r = try await cli.run(["run", "--check-config", "--config", bad])
        #expect(r.status == 2)
        #expect(
            Self.stderrLines(r) == [
                "aubade: Config file \(bad): http.port at line 2 must be a whole number.",
                "aubade: Config file \(bad): shake.threshold at line 4 must be a number.",
            ])
        #expect(r.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: cli.db), "--check-config created the database")

        let clean = cli.dir.file("clean.toml")
        try Self.write("[http]\nport = 9090\n", to: clean)
        let ok = try await cli.run(["run", "--check-config", "--config", clean])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout == "Config file \(clean) is OK: every key is known and every value can be used.\n")

        let unknown = cli.dir.file("unknown.toml")
        try Self.write("[http]\nprot = 9090\n", to: unknown)
        let typo = try await cli.run(["run", "--check-config", "--config", unknown])
        #expect(typo.status == 2)
        #expect(
            Self.stderrLines(typo) == [
                "aubade: Config file \(unknown): unknown key http.prot at line 2 is ignored.",
                "aubade: Config file \(unknown) has 1 unknown key, which aubade run ignores.",
            ])

        let broken = cli.dir.file("broken.toml")
        try Self.write("[http]\nport = 80\nbind = \n", to: broken)
        let syntax = try await cli.run(["run", "--check-config", "--config", broken])
        #expect(syntax.status == 2)
        #expect(
            syntax.errorSentence?.hasPrefix("Config file \(broken) is not valid TOML at line 3: ") == true, "\(syntax.stderr)")
    }

    @Test func doctorListsEveryProblemAndExitsNonZero() async throws {
        let cli = try CLIHarness()
        let bad = cli.dir.file("bad.toml")
        // (ALSA's null device, so that a machine without a sound card does not make it exit 1 instead.)
        try Self.write(Self.badValues + "\n[clock]\nzone = \"UTC\"\n[audio]\ndevice = \"null\"\n", to: bad)
        let messages = [
            "Config file \(bad): http.port at line 2 must be a whole number; the default 8080 is used.",
            "Config file \(bad): shake.threshold at line 4 must be a number; the default 4.0 is used.",
        ]
        let unknown = "Config file \(bad): unknown key clock.zone at line 6 is ignored."
        let text = try await cli.run(["doctor", "--config", bad])
        #expect(text.status == 2)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first { $0.hasPrefix("warning  config ") }?.contains("\(bad) has 3 problems (listed below)") == true, "\(lines)"
        )
        let block = try #require(lines.firstIndex(of: "Config: \(bad) — 3 problems:"))
        #expect(
            Array(lines[block...].prefix(4)) == [
                "Config: \(bad) — 3 problems:", "  " + messages[0], "  " + messages[1], "  " + unknown,
            ])
        #expect(text.stdout.contains("BUTTON"), "the rest of the report is missing: \(text.stdout)")
        #expect(
            text.errorSentence
                == "Config file \(bad) has 3 problems (listed in the report); aubade run starts with the defaults they name.")

        let json = try await cli.run(["doctor", "--json", "--config", bad])
        #expect(json.status == 2)
        let config = try #require(try cli.json(json.stdout)["config"] as? [String: Any])
        #expect(config["path"] as? String == bad)
        let problems = try #require(config["problems"] as? [[String: Any]])
        #expect(problems.map { $0["key"] as? String } == ["http.port", "shake.threshold"])
        #expect(problems.map { $0["line"] as? Int } == [2, 4])
        #expect(problems.map { $0["message"] as? String } == messages)
        #expect(config["unknownKeys"] as? [String] == [unknown])

        let good = cli.dir.file("good.toml")
        try Self.write("[audio]\ndevice = \"null\"\n", to: good)
        let clean = try await cli.run(["doctor", "--json", "--config", good])
        #expect(clean.status == 0, "\(clean.stderr)")
        let none = try #require(try cli.json(clean.stdout)["config"] as? [String: Any])
        #expect(none["path"] as? String == good && (none["problems"] as? [Any])?.isEmpty == true)
    }

    /// An ordinary command refuses the file, naming every problem, and changes nothing.
    @Test func anOrdinaryCommandRefusesABadConfig() async throws {
        let cli = try CLIHarness()
        let bad = cli.dir.file("bad.toml")
        try Self.write(Self.badValues, to: bad)
        let r = try await cli.run(["alarm", "add", "--name", "Work", "--time", "07:00", "--days", "daily", "--config", bad])
        #expect(r.status == 2)
        #expect(
            Self.stderrLines(r) == [
                "aubade: Config file \(bad): http.port at line 2 must be a whole number.",
                "aubade: Config file \(bad): shake.threshold at line 4 must be a number.",
            ])
        #expect(!FileManager.default.fileExists(atPath: cli.db))
    }

    /// The daemon on a config with bad values: each problem printed with its default, READY, and an alarm
    /// rings and is heard on the card.
    @Test func theDaemonStartsAndRingsOnAConfigWithBadValues() async throws {
        let c = try DaemonTests.Clock()
        let id = try await c.addAlarm(["--source", "tone"])
        let good = try String(contentsOfFile: c.config, encoding: .utf8)
        let bad = c.dir.file("bad.toml")
        try Self.write(good + "\n" + Self.badValues + "\n", to: bad)
        let firstLine = good.split(separator: "\n", omittingEmptySubsequences: false).count + 1
        let start = c.alarmInstant.addingTimeInterval(-3)
        let d = try await EventProcess(
            c.cli.binary,
            [
                "run", "--json", "--db", c.cli.db, "--config", bad,
                "--fake-time", start.formatted(.iso8601),
            ],
            environment: c.cli.environment)
        let ready = try #require(await d.wait(for: "ready", timeout: .seconds(60)), "no ready: \(d.errorOutput)")
        #expect((ready["alarms"] as? String)?.hasPrefix("1 alarm(s) enabled") == true, "\(ready)")
        let problems = [
            "aubade: Config file \(bad): http.port at line \(firstLine + 1) must be a whole number; the default 8080 is used.",
            "aubade: Config file \(bad): shake.threshold at line \(firstLine + 3) must be a number; the default 4.0 is used.",
        ]
        // Printed before READY (stderr is read on its own thread, so allow it to arrive).
        #expect(await Self.eventually { problems.allSatisfy(d.errorOutput.contains) }, "\(d.errorOutput)")
        let ringing = try #require(await d.wait(for: "ringing", timeout: .seconds(60)))
        #expect(ringing["alarm"] as? Int == Int(id))
        _ = try #require(await d.wait(for: "audible", timeout: .seconds(60)))
        let stop = try await c.run(["stop", "--json"])
        #expect(stop.status == 0, "\(stop.stderr)")
        _ = try #require(await d.wait(for: "stopped", timeout: .seconds(60)))
        d.signal(SIGTERM)
        #expect(await d.waitForExit(timeout: .seconds(60)) == 0)
        #expect(c.pcm().map { abs(Int($0)) }.max() ?? 0 > 10_000, "the tone did not reach the card")
    }

    /// A file that is not TOML at all: the daemon says why and runs on every default. The default sound device
    /// ("default") does not exist on a machine without a sound card; the daemon then warns and is READY anyway
    /// (a device problem is a warning: alarms keep trying it). Where "default" is a busy card, opening it
    /// blocks, so READY is only required when it comes: otherwise the daemon must at least still be running.
    @Test func theDaemonStartsOnDefaultsWhenTheFileIsNotTOML() async throws {
        let cli = try CLIHarness()
        let broken = cli.dir.file("broken.toml")
        try Self.write("[audio\ndevice = \"null\"\n", to: broken)
        let d = try await EventProcess(
            cli.binary, ["run", "--json", "--db", cli.db, "--config", broken],
            environment: cli.environment)
        let said = await Self.eventually {
            d.errorOutput.contains("aubade: Config file \(broken) is not valid TOML at line 1: ")
                && d.errorOutput.contains("; every key uses its default.")
        }
        #expect(said, "\(d.errorOutput)")
        if await d.wait(for: "ready", timeout: .seconds(60)) == nil {
            #expect(d.exitStatus == nil, "the daemon quit (\(d.exitStatus ?? 0)): \(d.errorOutput)")
        }
        d.signal(SIGTERM)
        #expect(await d.waitForExit(timeout: .seconds(60)) == 0)
    }

    /// Polls `condition` every 50 ms for up to 60 s.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }
}
