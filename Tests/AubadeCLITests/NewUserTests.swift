import AubadeTesting
import Foundation
import Testing

/// What a new user hit with the README in hand (issue: "one sound engine and one command layer"), each run as
/// they ran it. Every one of these failed before.
@Suite("A new user's first hour", .serialized)
struct NewUserTests {
    typealias Clock = DaemonTests.Clock

    /// The clock's config with its card replaced by `device`.
    static func use(_ device: String, in c: Clock) throws {
        try String(contentsOfFile: c.config, encoding: .utf8).replacingOccurrences(of: "file:'\(c.out)',raw", with: device)
            .write(toFile: c.config, atomically: true, encoding: .utf8)
    }

    @Test func ringWithoutASoundCardSaysSoAndEndsAtItsLength() async throws {
        let c = try Clock()
        try Self.use("hw:99,0", in: c)
        // Before: the device error, then it never ended (--for ignored). Now: the error, and the end at 3 s.
        let r = try await c.run(["ring", "--source", "tone", "--for", "3s", "--json"])
        #expect(r.status == 1, "nothing was heard: \(r.stdout)")
        let events = r.stdout.split(separator: "\n").compactMap { try? c.cli.json(String($0)) }
        #expect(events.contains { $0["event"] as? String == "error" && ($0["reason"] as? String)?.contains("hw:99,0") == true })
        #expect(events.last?["event"] as? String == "stopped" && events.last?["reason"] as? String == "finished")
    }

    @Test func ringGoesThroughTheRunningClockAndItsOneDevice() async throws {
        let c = try Clock()
        let d = try await c.daemon(lead: 3600)
        _ = try #require(await d.wait(for: "ready"))
        let before = c.cardFrames
        let r = try await c.run(["ring", "--source", "tone", "--for", "2s", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\"event\":\"audible\""))
        // The daemon's card took the tone: the CLI asked the clock, it did not open the device itself.
        #expect(c.cardFrames - before >= Signal.rate, "\(c.cardFrames - before) frames")
        #expect(d.exitStatus == nil)
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    @Test func theCLIFindsTheRunningClockWithoutFlags() async throws {
        let c = try Clock()
        let start = c.alarmInstant.addingTimeInterval(-3600)
        // The daemon and the CLI share the harness's runtime folder, as they share the user's on a machine.
        let d = try await EventProcess(
            c.cli.binary,
            [
                "run", "--json", "--db", c.cli.db, "--config", c.config,
                "--fake-time", start.formatted(.iso8601),
            ],
            environment: c.cli.environment)
        _ = try #require(await d.wait(for: "ready"))
        #expect(FileManager.default.fileExists(atPath: c.cli.runtime + "/daemon.json"))
        // As `make run` in one terminal and `aubade status` in another: no --db, no --config.
        let status = try await ProcessRunner.run(c.cli.binary, ["status"], environment: c.cli.environment)
        #expect(status.status == 0 && status.stdout.hasPrefix("The clock is running."), "\(status.stdout)\(status.stderr)")
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
        // Gone: the announcement goes with it, and status says plainly that nothing will ring (exit 3).
        let after = try await ProcessRunner.run(c.cli.binary, ["status", "--db", c.cli.db], environment: c.cli.environment)
        #expect(after.status == 3 && after.stdout.contains("No alarm will ring until it runs"))
        #expect(!FileManager.default.fileExists(atPath: c.cli.runtime + "/daemon.json"))
    }

    /// A test daemon announces itself in its own runtime folder only: the user's (`$XDG_RUNTIME_DIR/aubade`,
    /// /tmp/aubade-<uid>, /run/aubade) never names it, so the user's `aubade status` never answers for a test's
    /// clock.
    @Test func aTestDaemonLeavesTheUsersRuntimeFolderAlone() async throws {
        let c = try Clock()
        let user = c.dir.file("user-runtime")
        try FileManager.default.createDirectory(atPath: user, withIntermediateDirectories: true)
        let start = c.alarmInstant.addingTimeInterval(-3600)
        let d = try await EventProcess(
            c.cli.binary,
            [
                "run", "--json", "--db", c.cli.db, "--config", c.config,
                "--fake-time", start.formatted(.iso8601),
            ],
            environment: c.cli.environment.merging(["XDG_RUNTIME_DIR": user]) { $1 })
        _ = try #require(await d.wait(for: "ready"))
        #expect(FileManager.default.fileExists(atPath: c.cli.runtime + "/daemon.json"))
        #expect(!FileManager.default.fileExists(atPath: user + "/aubade"), "the user's runtime folder was written")
        for file in ["/tmp/aubade-\(getuid())/daemon.json", "/run/aubade/daemon.json"] {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            let found = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(found?["pid"] as? Int != Int(d.pid), "\(file) names the test daemon")
        }
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    @Test func theExitCodeOfStatusIsDocumented() async throws {
        let c = try Clock()
        let help = try await c.run(["status", "--help"])
        #expect(help.stdout.contains("3 the clock is not running"), "\(help.stdout)")
    }

    @Test func aSleepTimerThatCannotPlayIsReportedAsNotPlaying() async throws {
        let c = try Clock()
        #expect(try await c.run(["station", "add", "--name", "Nowhere", "--url", "http://127.0.0.1:9/radio"]).status == 0)
        let d = try await c.daemon(lead: 3600)
        _ = try #require(await d.wait(for: "ready"))
        let sleep = try await c.run(["sleep", "30m", "--source", "Nowhere"])
        #expect(sleep.status == 1)
        #expect(
            sleep.errorSentence?.contains("Not playing yet") == true || sleep.errorSentence?.contains("cannot play") == true,
            "\(sleep.stderr)")
        let status = try await c.run(["status"])
        #expect(status.stdout.contains("Nowhere, not playing: "), "\(status.stdout)")
        #expect(!status.stdout.contains("Nowhere, playing"))
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    @Test func runWithJSONPrintsJSONOnEveryLineAndTheGPIOWarningOnce() async throws {
        let c = try Clock()
        // The config's default buttons on a machine without GPIO (this one, and a laptop).
        try String(contentsOfFile: c.config, encoding: .utf8).replacingOccurrences(
            of: "[buttons]\nsnooze = \"\"\nstop = \"\"\nplay_pause = \"\"\nsleep = \"\"", with: ""
        )
        .write(toFile: c.config, atomically: true, encoding: .utf8)
        let d = try await c.daemon(lead: 3600)
        _ = try #require(await d.wait(for: "ready"))
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
        #expect(!d.output.isEmpty && d.output.allSatisfy { (try? c.cli.json($0)) != nil }, "\(d.output)")
        if !FileManager.default.fileExists(atPath: "/dev/gpiochip0") {
            #expect(d.errorOutput.components(separatedBy: "no GPIO chip").count == 2, "\(d.errorOutput)")
        }
    }

    @Test func statusShowsTwentyFourHourTimes() async throws {
        let c = try Clock()
        #expect(try await c.run(["alarm", "add", "--name", "Late", "--time", "19:45", "--days", "daily"]).status == 0)
        let offline = try await c.run(["status"])
        #expect(offline.stdout.contains("19:45") && !offline.stdout.contains("PM"), "\(offline.stdout)")
        let d = try await c.daemon(lead: 3600)
        _ = try #require(await d.wait(for: "ready"))
        let online = try await c.run(["status"])
        #expect(online.stdout.contains("19:45") && !online.stdout.contains("PM"), "\(online.stdout)")
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    @Test func theVolumeRangesSayWhyAlarmsStartAtTen() async throws {
        let c = try Clock()
        try Self.use("null", in: c)
        let quiet = try await c.run(["play", "tone", "--volume", "5", "--for", "1s"])
        #expect(quiet.status == 0, "listening may be very quiet: \(quiet.stderr)")
        let help = try await c.run(["play", "--help"])
        #expect(help.stdout.contains("1-100") && help.stdout.contains("alarms take 10-100"))
        let alarm = try await c.run(["alarm", "add", "--name", "Soft", "--time", "07:00", "--days", "daily", "--volume", "5"])
        #expect(alarm.status == 2 && alarm.errorSentence == "Volume 5 is out of range; use 10 to 100.", "\(alarm.stderr)")
    }

    @Test func aRedirectLoopEndsPlayWithOneSentence() async throws {
        let c = try Clock()
        let radio = try await DaemonTests.Radio(in: c.dir)
        // Before: retried for ever ("not fatal"), and --for did not bound it.
        let r = try await c.run(["play", radio.base + "/loop", "--allow-local"])
        #expect(r.status == 1)
        #expect(r.errorSentence == "The station redirected more than 5 times (\(radio.base)/loop).", "\(r.stderr)")
    }

    @Test func playForBoundsTheWallTimeEvenWhenNoAudioComes() async throws {
        let c = try Clock()
        let radio = try await DaemonTests.Radio(in: c.dir)
        let r = try await c.run(["play", radio.base + "/stall?after=0", "--allow-local", "--for", "2s", "--json"])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("\"event\":\"playing\""))
        #expect(r.stdout.contains("\"reason\":\"finished\""))
    }
}
