import AubadeTesting
import Foundation
import Testing

@Suite("aubade doctor (the built binary)")
struct DoctorCLITests {
    @Test func reportsGPIOButtonsShakeAndNetworkAsJSON() async throws {
        let cli = try CLIHarness()
        let r = try await cli.run(["doctor", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try cli.json(r.stdout)
        #expect((report["libgpiod"] as? String)?.hasPrefix("1.") == true)
        let text = r.stdout
        for word in ["GPIO17", "GPIO27", "GPIO22", "GPIO23"] { #expect(text.contains(word), "\(word) missing from \(text)") }
        let human = try await cli.run(["doctor"])
        #expect(human.status == 0 && human.stdout.contains("Network:"))
    }

    @Test func showsWhatEachButtonAndAShakeDo() async throws {
        let cli = try CLIHarness()
        let config = cli.dir.file("aubade.toml")
        try """
            [buttons.short_press]
            stop = "snooze"
            [buttons.long_press]
            sleep = ""
            [shake]
            on_other_alarm = "none"
            """.write(toFile: config, atomically: true, encoding: .utf8)
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
}
