import AubadeTesting
import Foundation
import GRDB
import Testing

/// `aubade run` end to end: the real daemon on a temp database, the ALSA `file` plugin as its sound card
/// (paced in real time by the sink), alarms a few seconds ahead through `--fake-time`, the fault server for
/// stations. Each test reads the daemon's JSON events and the history table.
@Suite("Daemon end to end", .serialized)
struct DaemonTests {
    /// A clock folder: database, config with the file sink, and helpers to run the daemon and the CLI.
    struct Clock {
        let cli: CLIHarness
        var dir: TemporaryDirectory { cli.dir }
        var out: String { dir.file("card.raw") }
        var config: String { dir.file("aubade.toml") }
        /// Tomorrow at 08:00 UTC: the alarms' time in every test (always after the alarms were saved).
        let alarmInstant: Date

        init() throws {
            cli = try CLIHarness()
            try """
            [audio]
            device = "file:'\(cli.dir.file("card.raw"))',raw"
            allow_local_streams = true
            [clock]
            time_zone = "UTC"
            [buttons]
            snooze = ""
            stop = ""
            play_pause = ""
            sleep = ""
            """.write(toFile: cli.dir.file("aubade.toml"), atomically: true, encoding: .utf8)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let tomorrow = calendar.date(byAdding: .day, value: 1, to: Date())!
            alarmInstant = calendar.date(bySettingHour: 8, minute: 0, second: 0, of: tomorrow)!
        }

        @discardableResult
        func run(_ args: [String]) throws -> ProcessResult {
            try cli.run(args + ["--config", config])
        }

        /// Starts the daemon with its wall clock `lead` seconds before the alarm time.
        func daemon(lead: Double, extra: [String] = []) throws -> EventProcess {
            let start = alarmInstant.addingTimeInterval(-lead)
            return try EventProcess(cli.binary, ["run", "--json", "--db", cli.db, "--config", config,
                                                 "--fake-time", start.formatted(.iso8601)] + extra,
                                    environment: ["AUBADE_CONFIG": ""])
        }

        func addAlarm(_ extra: [String]) throws -> Int64 {
            let r = try run(["alarm", "add", "--name", "Work", "--time", "08:00", "--days", "daily", "--json"] + extra)
            guard r.status == 0, let id = try cli.json(r.stdout)["id"] as? Int else {
                throw HarnessError("alarm add failed: \(r.stderr)")
            }
            return Int64(id)
        }

        func history() throws -> [(kind: String, detail: String)] {
            let q = try DatabaseQueue(path: cli.db)
            defer { try? q.close() }
            return try q.read { db in
                try Row.fetchAll(db, sql: "SELECT kind, detail FROM events ORDER BY rowid").map { ($0["kind"], $0["detail"]) }
            }
        }

        func pcm() -> [Int16] {
            let data = (try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data()
            return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        }
    }

    /// The fault server from Tests/Fixtures with a 440 Hz test MP3.
    final class Radio: Sendable {
        let server: BackgroundProcess
        var base: String { "http://127.0.0.1:\(server.firstLine)" }

        init(in dir: TemporaryDirectory) throws {
            let mp3 = try TestMedia.sineMP3(frequency: 440, seconds: 2, in: dir)
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/fault_server.py").path
            server = try BackgroundProcess("/usr/bin/python3", [script, mp3])
        }
    }

    static func number(_ e: [String: Any]?, _ key: String) -> Double? {
        (e?[key] as? NSNumber)?.doubleValue
    }

    @Test func aToneAlarmRingsAtItsSecondAndStopsFromTheCLI() async throws {
        let c = try Clock()
        let id = try c.addAlarm(["--source", "tone"])
        let d = try c.daemon(lead: 3)
        let ready = try #require(await d.wait(for: "ready"))
        #expect(Self.number(ready, "ready_ms")! < 1000, "READY took \(ready["ready_ms"] ?? "?") ms")
        let ringing = try #require(await d.wait(for: "ringing"))
        #expect(ringing["alarm"] as? Int == Int(id) && ringing["source"] as? String == "tone")
        // Onset: the ringing event's wall time is the alarm second (the daemon's clock), within 100 ms.
        let onset = Self.number(ringing, "t")! - c.alarmInstant.timeIntervalSince1970
        #expect(onset >= 0 && onset < 0.1, "onset error \(onset) s")
        let audible = try #require(await d.wait(for: "audible"))
        #expect((audible["detail"] as? String)?.contains("source=tone") == true)
        try await Task.sleep(for: .seconds(2))
        let stop = try c.run(["stop", "--json"])
        #expect(stop.status == 0, "\(stop.stderr)")
        let stopped = try #require(await d.wait(for: "stopped"))
        #expect(stopped["by"] as? String == "cli" && stopped["reason"] as? String == "dismissed")
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
        let kinds = try c.history().map(\.kind)
        #expect(kinds.contains("rang") && kinds.contains("audible") && kinds.contains("dismissed"))
        // What reached the card: the loud tone (R18), and nothing after the stop.
        let pcm = c.pcm()
        #expect(pcm.count > 2 * 44_100, "\(pcm.count / 2) frames")
        try await Task.sleep(for: .milliseconds(500))
        #expect(c.pcm().count == pcm.count)
        let peak = pcm.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 10_000)
    }

    @Test func aStationAlarmIsPreRolledAndHeard() async throws {
        let c = try Clock()
        let radio = try Radio(in: c.dir)
        try c.run(["station", "add", "--name", "Test FM", "--url", radio.base + "/fast"])
        _ = try c.addAlarm(["--source", "Test FM", "--fade-in", "0s", "--volume", "100"])
        let d = try c.daemon(lead: 20)  // inside the pre-check window; the pre-roll starts 15 s before
        let check = try #require(await d.wait(for: "precheck-passed", timeout: .seconds(15)))
        #expect(check["alarm"] as? Int == 1)
        let audible = try #require(await d.wait(for: "audible", timeout: .seconds(30)))
        let detail = audible["detail"] as? String ?? ""
        #expect(detail.contains("source=station"))
        let after = Int(detail.split(separator: "=").last ?? "") ?? 99_999
        #expect(after < 1000, "pre-rolled station audible after \(after) ms")
        #expect(await d.wait(for: "fallback", timeout: .seconds(3)) == nil)
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }

    @Test(arguments: [("/html", "web page"), ("/404", "404")])
    func aBrokenStationIsCaughtByThePreCheckAndTheToneIsOnTime(path: String, words: String) async throws {
        let c = try Clock()
        let radio = try Radio(in: c.dir)
        try c.run(["station", "add", "--name", "Broken FM", "--url", radio.base + path])
        _ = try c.addAlarm(["--source", "Broken FM"])
        let d = try c.daemon(lead: 10)
        let failed = try #require(await d.wait(for: "precheck-failed", timeout: .seconds(10)))
        #expect((failed["detail"] as? String ?? "").contains(words), "\(failed)")
        let fallback = try #require(await d.wait(for: "fallback", timeout: .seconds(20)))
        #expect((fallback["detail"] as? String ?? "").hasPrefix("to=tone"))
        // Pre-selected: the fallback is recorded at the alarm second (0 s late), and the tone is heard at once.
        let late = Self.number(fallback, "t")! - c.alarmInstant.timeIntervalSince1970
        #expect(late < 0.5, "fallback \(late) s after the alarm time")
        let audible = try #require(await d.wait(for: "audible"))
        #expect((audible["detail"] as? String ?? "").contains("source=tone"))
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }

    @Test func aStationThatFailsAfterThePreCheckFallsBackWithinTenSeconds() async throws {
        let c = try Clock()
        let radio = try Radio(in: c.dir)
        // Passes the pre-check (1 s of audio decodes), then stalls while ringing: about 1 s of audio at the
        // alarm second — never 2 s of verified audio — then silence: the tone within 10 s of the alarm time.
        try c.run(["station", "add", "--name", "Stalling FM", "--url", radio.base + "/stall?after=20000"])
        _ = try c.addAlarm(["--source", "Stalling FM", "--fade-in", "0s"])
        let d = try c.daemon(lead: 4)
        let ringing = try #require(await d.wait(for: "ringing"))
        let fallback = try #require(await d.wait(for: "fallback", timeout: .seconds(25)))
        let delay = Self.number(fallback, "t")! - Self.number(ringing, "t")!
        #expect(delay <= 10.5, "fell back \(delay) s after the alarm started")
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }

    @Test func afterKill9WhileRingingTheAlarmRingsAgainWithin5sOfReady() async throws {
        let c = try Clock()
        _ = try c.addAlarm(["--source", "tone", "--duration", "10m"])
        var d = try c.daemon(lead: 2)
        _ = try #require(await d.wait(for: "ringing"))
        d.signal(SIGKILL)
        _ = await d.waitForExit()
        // Restart 30 s later on the wall clock: still within the alarm's 10 minutes.
        d = try c.daemon(lead: -30)
        let ready = try #require(await d.wait(for: "ready"))
        let ringing = try #require(await d.wait(for: "ringing", timeout: .seconds(8)))
        #expect(ringing["cause"] as? String == "resumed")
        #expect(Self.number(ringing, "t")! - Self.number(ready, "t")! < 5)
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }

    @Test func aSnoozeResumesAtItsStoredDeadlineAfterARestart() async throws {
        let c = try Clock()
        _ = try c.addAlarm(["--source", "tone", "--snooze", "1m"])
        var d = try c.daemon(lead: 2)
        _ = try #require(await d.wait(for: "ringing"))
        #expect(try c.run(["snooze"]).status == 0)
        let snoozed = try #require(await d.wait(for: "snoozed"))
        let until = try #require(Self.number(snoozed, "until"))
        d.signal(SIGKILL)
        _ = await d.waitForExit()
        // Restart 3 s before the snooze ends.
        d = try c.daemon(lead: c.alarmInstant.timeIntervalSince1970 - until + 3)
        let again = try #require(await d.wait(for: "ringing", timeout: .seconds(10)))
        #expect(again["cause"] as? String == "snooze-ended")
        #expect(abs(Self.number(again, "t")! - until) < 0.2)
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }

    @Test func theSleepTimerGivesWayToTheAlarmAndIsRefusedWhileItRings() async throws {
        let c = try Clock()
        _ = try c.addAlarm(["--source", "tone"])
        let d = try c.daemon(lead: 5)
        _ = try #require(await d.wait(for: "ready"))
        let sleep = try c.run(["sleep", "30m", "--source", "tone", "--json"])
        #expect(sleep.status == 0, "\(sleep.stderr)")
        _ = try #require(await d.wait(for: "sleep-started"))
        _ = try #require(await d.wait(for: "ringing", timeout: .seconds(10)))
        let ended = try #require(await d.wait(for: "sleep-ended"))
        #expect((ended["detail"] as? String ?? "").contains("alarm"))
        let refused = try c.run(["sleep", "10m", "--source", "tone"])
        #expect(refused.status == 1, "a refusal (not now), not bad input")
        #expect(refused.errorSentence?.contains("alarm") == true, "\(refused.stderr)")
        // The alarm kept ringing: no stopped event.
        #expect(await d.wait(for: "stopped", timeout: .seconds(1)) == nil)
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }

    @Test func aReservedProgrammeChimesAndTunesToItsStation() async throws {
        let c = try Clock()
        let radio = try Radio(in: c.dir)
        try c.run(["station", "add", "--name", "News FM", "--url", radio.base + "/fast"])
        let add = try c.run(["program", "add", "--name", "Morning News", "--begin", "08:00", "--end", "09:00",
                             "--station", "News FM", "--json"])
        #expect(add.status == 0, "\(add.stderr)")
        let id = try #require(try c.cli.json(add.stdout)["id"] as? Int)
        #expect(try c.run(["program", "reserve", "\(id)"]).status == 0)
        let d = try c.daemon(lead: 3)
        let reservation = try #require(await d.wait(for: "reservation"))
        #expect(reservation["name"] as? String == "Morning News")
        _ = try #require(await d.wait(for: "tuned", timeout: .seconds(20)))
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }

    @Test func aSecondDaemonOnTheSameDatabaseIsRefused() async throws {
        let c = try Clock()
        let first = try c.daemon(lead: 600)
        _ = try #require(await first.wait(for: "ready"))
        let second = try c.daemon(lead: 600)
        #expect(await second.waitForExit() == 1)
        #expect(second.errorOutput.contains("Another aubade is already running on this database"))
        first.signal(SIGTERM)
        #expect(await first.waitForExit() == 0)
    }

    @Test func wifiOnlyOffWiFiRingsTheToneAndSaysWhy() async throws {
        // This machine's default route is wired (or absent), so with Wi-Fi-only on, streaming is refused.
        let c = try Clock()
        let radio = try Radio(in: c.dir)
        try c.run(["station", "add", "--name", "Test FM", "--url", radio.base + "/fast"])
        _ = try c.addAlarm(["--source", "Test FM"])
        #expect(try c.run(["settings", "set", "isWifi", "true"]).status == 0)
        let play = try c.run(["play", "Test FM", "--for", "1s", "--allow-local"])
        #expect(play.status == 1 && play.errorSentence?.hasPrefix("Wi-Fi-only mode is on") == true, "\(play.stderr)")
        let d = try c.daemon(lead: 3)
        let fallback = try #require(await d.wait(for: "fallback", timeout: .seconds(10)))
        let detail = fallback["detail"] as? String ?? ""
        #expect(detail.hasPrefix("to=tone reason=Wi-Fi-only mode is on"), "\(detail)")
        let audible = try #require(await d.wait(for: "audible"))
        #expect((audible["detail"] as? String ?? "").contains("source=tone"))
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }

    @Test func systemdHearsReadyAndTheWatchdogFromTheSchedulerLoop() async throws {
        let c = try Clock()
        _ = try c.addAlarm(["--source", "tone"])
        let path = c.dir.file("notify.sock")
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        var tv = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let start = c.alarmInstant.addingTimeInterval(-600)
        let d = try EventProcess(c.cli.binary, ["run", "--json", "--db", c.cli.db, "--config", c.config,
                                                "--fake-time", start.formatted(.iso8601)],
                                 environment: ["AUBADE_CONFIG": "", "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"])
        var messages: [String] = []
        let deadline = ContinuousClock.now + .seconds(8)
        while ContinuousClock.now < deadline, messages.filter({ $0.contains("WATCHDOG=1") }).count < 3 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0 { messages.append(String(decoding: buffer[0..<n], as: UTF8.self)) }
        }
        let ready = messages.firstIndex { $0.hasPrefix("READY=1") }
        #expect(ready != nil, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("STATUS=1 alarm(s) enabled") }, "\(messages)")
        // WATCHDOG_USEC=2 s: fed at least every second, from the loop, after READY.
        #expect(messages.filter { $0 == "WATCHDOG=1" }.count >= 3, "\(messages)")
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    @Test func anUnreadableDatabaseRingsFromTheBackupCopyAndSaysSo() async throws {
        let c = try Clock()
        _ = try c.addAlarm(["--source", "tone"])
        try Data(repeating: 0x42, count: 16384).write(to: URL(fileURLWithPath: c.cli.db))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: c.cli.db + suffix) }
        let d = try c.daemon(lead: 3)
        let warning = try #require(await d.wait(for: "warning") { ($0["message"] as? String ?? "").contains("backup copy") })
        #expect((warning["message"] as? String ?? "").contains("is unreadable"))
        _ = try #require(await d.wait(for: "ready"))
        let ringing = try #require(await d.wait(for: "ringing"))
        #expect(ringing["source"] as? String == "tone")
        let status = try c.run(["status", "--json"])
        #expect(status.status == 0)
        let warnings = try #require(try c.cli.json(status.stdout)["warnings"] as? [String])
        #expect(warnings.contains { $0.contains("Running from the backup copy") }, "\(warnings)")
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }

    @Test func aNewerSchemaStillRings() async throws {
        let c = try Clock()
        _ = try c.addAlarm(["--source", "tone"])
        let q = try DatabaseQueue(path: c.cli.db)
        try await q.write { db in try db.execute(sql: "PRAGMA user_version = 2") }
        try q.close()
        let d = try c.daemon(lead: 3)
        _ = try #require(await d.wait(for: "warning") { ($0["message"] as? String ?? "").contains("newer") })
        _ = try #require(await d.wait(for: "ringing"))
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }

    @Test func aSecondAlarmJoinsTheFirstWithoutSilence() async throws {
        // R13, R38: alarm 1 rings (caught up at start, 08:00), alarm 2 comes due at 08:01 and joins it: its
        // sound replaces the first's, and nothing stops alarm 1.
        let c = try Clock()
        _ = try c.addAlarm(["--source", "tone"])
        #expect(try c.run(["alarm", "add", "--name", "Second", "--time", "08:01", "--days", "daily", "--source", "tone"]).status == 0)
        let d = try c.daemon(lead: -58)
        let first = try #require(await d.wait(for: "ringing") { $0["alarm"] as? Int == 1 })
        #expect(first["source"] as? String == "tone")
        let second = try #require(await d.wait(for: "ringing", timeout: .seconds(8)) { $0["alarm"] as? Int == 2 })
        #expect(Self.number(second, "t")! - c.alarmInstant.timeIntervalSince1970 - 60 < 0.1)
        // The second alarm's sound plays on, and neither alarm was stopped by the join.
        _ = try #require(await d.wait(for: "audible") { $0["alarm"] as? Int == 2 })
        #expect(await d.wait(for: "stopped", timeout: .seconds(2)) == nil)
        let status = try c.cli.json(try c.run(["status", "--json"]).stdout)
        #expect((status["ringing"] as? [String: Any])?["id"] as? Int == 2)
        // One stop dismisses both: the first stop says alarm 2 rings on, the second one silences.
        #expect(try c.run(["stop", "--json"]).status == 0)
        let one = try #require(await d.wait(for: "stopped") { $0["alarm"] as? Int == 1 })
        #expect(one["reason"] as? String == "dismissed" && one["by"] as? String == "cli" && one["ringing_on"] as? String == "2")
        let two = try #require(await d.wait(for: "stopped") { $0["alarm"] as? Int == 2 })
        #expect(two["by"] as? String == "cli" && two["ringing_on"] == nil)
        d.signal(SIGTERM)
        _ = await d.waitForExit()
        #expect(try c.history().filter { $0.kind == "dismissed" }.count == 2)
    }

    @Test func daemonCommandsWithoutADaemonSayItIsNotRunning() throws {
        let c = try Clock()
        let r = try c.run(["sleep", "30m"])
        #expect(r.status == 1)
        #expect(r.errorSentence?.hasPrefix("The clock is not running on this database") == true, "\(r.stderr)")
        let bad = try c.run(["sleep", "5s"])
        #expect(bad.status == 2 && bad.errorSentence == "Sleep duration '5s' must be between 1m and 12h.")
        let status = try c.run(["status"])
        #expect(status.status == 3 && status.stdout.contains("No alarm will ring until it runs"))
    }
}
