import AubadeTesting
import Foundation
import Testing

@Suite("aubade doctor (the built binary)")
struct DoctorCLITests {
    /// A config whose sound device always opens (ALSA's `null` plugin), so that only this machine's missing
    /// hardware (no GPIO chip) is reported.
    static func nullDeviceConfig(_ cli: CLIHarness, extra: String = "") throws -> String {
        let path = cli.dir.file("null.toml")
        try ("[audio]\ndevice = \"null\"\n" + extra).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func checks(_ report: [String: Any]) throws -> [String: [String: String]] {
        let list = try #require(report["checks"] as? [[String: String]])
        #expect(Set(list.compactMap { $0["check"] }).count == list.count, "a check twice: \(list)")
        return Dictionary(list.compactMap { c in c["check"].map { ($0, c) } }) { a, _ in a }
    }

    @Test func reportsGPIOButtonsShakeAndNetworkAsJSON() async throws {
        let cli = try CLIHarness()
        let config = try Self.nullDeviceConfig(cli)
        let r = try await cli.run(["doctor", "--json", "--config", config])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        let report = try cli.json(r.stdout)
        #expect((report["libgpiod"] as? String)?.hasPrefix("1.") == true)
        let text = r.stdout
        for word in ["GPIO17", "GPIO27", "GPIO22", "GPIO23"] { #expect(text.contains(word), "\(word) missing from \(text)") }
        let human = try await cli.run(["doctor", "--config", config])
        #expect(human.status == 0 && human.stdout.contains("Network:"))
    }

    @Test func showsWhatEachButtonAndAShakeDo() async throws {
        let cli = try CLIHarness()
        let config = try Self.nullDeviceConfig(
            cli,
            extra: """
                [buttons.short_press]
                stop = "snooze"
                [buttons.long_press]
                sleep = ""
                [shake]
                on_other_alarm = "none"
                """)
        let r = try await cli.run(["doctor", "--json", "--config", config])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try cli.json(r.stdout)
        let mapping = try #require(report["mapping"] as? [[String: String]])
        #expect(mapping.map { $0["role"] } == ["snooze", "stop", "play-pause", "sleep", "volume-up", "volume-down"])
        #expect(mapping.first { $0["role"] == "stop" } == ["role": "stop", "short": "snooze", "long": "snooze"])
        #expect(mapping.first { $0["role"] == "sleep" } == ["role": "sleep", "short": "sleep+15", "long": "sleep+15"])
        let shake = try #require(report["shake"] as? [String: Any])
        #expect(shake["response"] as? [String: String] == ["shakeToStopAlarm": "stop", "otherAlarm": "none"])

        let human = try await cli.run(["doctor", "--config", config])
        #expect(human.status == 0, "\(human.stderr)")
        let rows = human.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains(["BUTTON", "SHORT", "PRESS", "LONG", "PRESS"]))
        #expect(rows.contains(["stop", "snooze", "snooze"]))
        #expect(rows.contains(["volume-down", "volume-down", "volume-down"]))
        #expect(human.stdout.contains("Shake response: stops an alarm with shake-to-stop on; does nothing to any other."))
    }

    /// This machine as it is — no sound card, no GPIO chip, no clock running — with an alarm set: every
    /// problem is a line with its fix, the JSON says the next alarm would not be heard, and the exit code is 1.
    /// (The device and line names are ones no machine has, so the test means the same on a desk with a card.)
    @Test func withoutACardOrAClockRunningEveryProblemIsReportedAndTheExitCodeSet() async throws {
        let cli = try CLIHarness()
        let config = cli.dir.file("pi.toml")
        try """
        [audio]
        device = "plughw:CARD=AubadeNoSuchCard"
        allow_local_streams = true
        [buttons]
        snooze = "AUBADE_NO_SUCH_LINE"
        [shake]
        source = "evdev"
        device = "/dev/input/aubade-no-such-event"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        for args in [
            ["alarm", "add", "--name", "Work", "--time", "06:45", "--days", "mon-fri", "--source", "tone", "--shake"],
            ["station", "add", "--name", "Refused", "--url", "http://127.0.0.1:1/stream.mp3"],
            // Once, years ahead: "Work" (every weekday) is the next alarm whatever the day and hour the test runs
            // (a daily 07:00 alarm was the next one at weekends and from 06:45 to 07:00, and the test failed then).
            [
                "alarm", "add", "--name", "Radio", "--time", "07:00", "--days", "once", "--date", "2099-01-01", "--source",
                "Refused",
            ],
        ] {
            let r = try await cli.run(args + ["--config", config])
            #expect(r.status == 0, "\(args): \(r.stderr)")
        }
        let r = try await cli.run(["doctor", "--json", "--play", "--config", config])
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        #expect(
            r.errorSentence?.hasPrefix("An alarm would not be heard (daemon): The clock is not running on \(cli.db)") == true,
            "\(r.stderr)")
        let report = try cli.json(r.stdout)
        let checks = try Self.checks(report)
        #expect(
            checks.keys.sorted()
                == [
                    "alarm", "backlight", "buttons", "clock", "config", "daemon", "database", "disk", "face", "microphone",
                    "mixer",
                    "network", "outputs", "play", "rtc", "shake", "sound", "station:Refused", "waker",
                ].sorted(), "\(checks.keys)")
        for (name, status) in [
            ("daemon", "problem"), ("sound", "problem"), ("play", "problem"), ("alarm", "problem"),
            ("buttons", "warning"), ("shake", "warning"), ("station:Refused", "warning"), ("waker", "warning"),
            ("config", "ok"), ("database", "ok"), ("microphone", "ok"), ("outputs", "ok"),
        ] {
            #expect(checks[name]?["status"] == status, "\(name): \(String(describing: checks[name]))")
        }
        for (name, check) in checks where check["status"] != "ok" {
            #expect(check["fix"]?.isEmpty == false, "\(name) has no fix: \(check)")
        }
        for (name, check) in checks where check["status"] == "ok" {
            #expect(check["fix"] == nil, "\(name) is ok but has a fix: \(check)")
        }
        #expect(checks["sound"]?["message"]?.contains("plughw:CARD=AubadeNoSuchCard cannot be opened") == true)
        #expect(checks["daemon"]?["message"] == "The clock is not running on \(cli.db), so no alarm will ring.")
        // No GPIO chip here; on a machine with one, the line is named as not found.
        let buttons = checks["buttons"]?["message"] ?? ""
        #expect(
            buttons.contains("no GPIO chip on this machine") || buttons.contains("not found: snooze (AUBADE_NO_SUCH_LINE)"),
            "\(buttons)")
        #expect(checks["station:Refused"]?["message"]?.contains("would ring the tone instead") == true)
        let alarm = try #require(checks["alarm"]?["message"])
        #expect(alarm.hasPrefix("Work at ") && alarm.contains("would not be heard"), "\(alarm)")
        #expect(report["heard"] as? Bool == false)
        let next = try #require(report["next"] as? [String: Any])
        #expect(next["name"] as? String == "Work" && next["source"] as? String == "tone" && next["heardAs"] == nil)
        #expect((report["daemon"] as? [String: Any])?["running"] as? Bool == false)

        // The text report: one line per check, status first, then the details.
        let text = try await cli.run(["doctor", "--config", config])
        #expect(text.status == 1)
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let checkLines = Array(lines.prefix { !$0.isEmpty })
        #expect(checkLines.count == checks.count - 1, "the text has no play line without --play: \(checkLines)")
        #expect(
            checkLines.allSatisfy { line in ["ok ", "warning ", "problem "].contains { line.hasPrefix($0) } }, "\(checkLines)")
        #expect(checkLines.first { $0.hasPrefix("problem  sound ") }?.contains(" Fix: ") == true)
        #expect(text.stdout.contains("\nDetails\n"))
    }

    /// With the clock running, doctor asks it (the control socket's status) instead of opening the device it
    /// holds, plays the tone through it, and every alarm would be heard: exit 0.
    @Test func withTheClockRunningItAsksTheClockAndPlaysThroughIt() async throws {
        let cli = try CLIHarness()
        let config = cli.dir.file("card.toml")
        try """
        [audio]
        device = "file:'\(cli.dir.file("card.raw"))',raw"
        [buttons]
        snooze = ""
        stop = ""
        play_pause = ""
        sleep = ""
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let add = try await cli.run([
            "alarm", "add", "--name", "Work", "--time", "06:45", "--days", "daily", "--source", "tone",
            "--config", config,
        ])
        #expect(add.status == 0, "\(add.stderr)")
        let daemon = try await EventProcess(
            cli.binary, ["run", "--json", "--db", cli.db, "--config", config, "--http", "off"],
            environment: cli.environment)
        defer { daemon.signal(SIGTERM) }
        #expect(await daemon.wait(for: "ready") != nil, "the daemon did not say ready: \(daemon.errorOutput)")

        let r = try await cli.run(["doctor", "--json", "--play", "--config", config])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        let report = try cli.json(r.stdout)
        let checks = try Self.checks(report)
        #expect(checks["daemon"]?["status"] == "ok" && checks["daemon"]?["message"] == "The clock is running on \(cli.db).")
        #expect(
            checks["sound"]?["message"]?.hasPrefix("The running clock holds the sound device file:") == true,
            "\(String(describing: checks["sound"]))")
        #expect(
            checks["play"]?["status"] == "ok" && checks["play"]?["message"]?.contains("through the running clock") == true,
            "\(String(describing: checks["play"]))")
        #expect(
            checks["alarm"]?["status"] == "ok" && checks["alarm"]?["message"]?.contains("would be heard: the tone") == true,
            "\(String(describing: checks["alarm"]))")
        #expect(report["heard"] as? Bool == true)
        let daemonReport = try #require(report["daemon"] as? [String: Any])
        #expect(daemonReport["running"] as? Bool == true)
        #expect((daemonReport["status"] as? [String: Any])?["next"] != nil, "the clock's own status is in the report")
        // The tone went through the clock's engine, which says so in its events.
        #expect(await daemon.wait(for: "radio-stopped") != nil, "\(daemon.output.suffix(5))")
    }
}
