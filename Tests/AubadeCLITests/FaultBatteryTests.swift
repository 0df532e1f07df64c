import AubadeSystem
import AubadeTesting
import Foundation
import GRDB
import Glibc
import Testing

/// What the fault battery found, each run against the real binary on a temp database with alsa-lib's `file`
/// plugin as the card and `--fake-time` (see the issue "What a fault battery found"). Each of these failed on
/// the code before it.
@Suite("Fault battery", .serialized)
struct FaultBatteryTests {
    typealias Clock = DaemonTests.Clock

    /// Removes the database and its WAL files, or empties the database file.
    static func lose(_ db: String, emptyInstead: Bool = false) throws {
        for suffix in ["-wal", "-shm"] { unlink(db + suffix) }
        if emptyInstead {
            try Data().write(to: URL(fileURLWithPath: db))
        } else {
            unlink(db)
        }
    }

    // MARK: 1. A deleted or emptied database never forgets the alarms (R27)

    @Test(arguments: [false, true])
    func aDatabaseLostBeforeAStartIsRebuiltFromItsBackupCopyAndTheAlarmRings(emptied: Bool) async throws {
        let c = try Clock()
        let id = try await c.addAlarm(["--source", "tone"])
        try Self.lose(c.cli.db, emptyInstead: emptied)
        let d = try await c.daemon(lead: 4)
        let said = try #require(
            await d.wait(for: "warning") { ($0["message"] as? String)?.contains("restored from the backup copy") == true })
        #expect((said["message"] as? String)?.contains("1 alarm(s)") == true)
        let ringing = try #require(await d.wait(for: "ringing"))
        #expect(ringing["alarm"] as? Int == Int(id))
        // The database holds the alarm again, same id; the status says what happened.
        let list = try c.cli.json(try await c.run(["alarm", "list", "--json"]).stdout)
        #expect((list["alarms"] as? [[String: Any]])?.map { $0["id"] as? Int } == [Int(id)])
        let status = try await c.run(["status"])
        #expect(status.stdout.contains("restored from the backup copy"), "\(status.stdout)")
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    @Test func aDatabaseDeletedWhileTheClockRunsIsRestoredAndTheAlarmStillRings() async throws {
        let c = try Clock()
        _ = try await c.addAlarm(["--source", "tone"])
        let d = try await c.daemon(lead: 10)
        _ = try #require(await d.wait(for: "ready"))
        try Self.lose(c.cli.db)
        // The alarm's turn looks at the file first: restored from the copy, said loudly, and it rings.
        let said = try #require(
            await d.wait(for: "warning") { ($0["message"] as? String)?.contains("was deleted while the clock ran") == true })
        #expect((said["message"] as? String)?.contains("1 alarm(s) were restored") == true)
        _ = try #require(await d.wait(for: "ringing"))
        #expect(
            try #require(d.position(of: "warning") { ($0["message"] as? String)?.contains("was deleted") == true })
                < d.position(of: "ringing")!)
        #expect(FileManager.default.fileExists(atPath: c.cli.db))
        let names = try await DatabaseQueue(path: c.cli.db).read { db in
            try String.fetchAll(db, sql: "SELECT clockName FROM clocks")
        }
        #expect(names == ["Work"])
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    // MARK: 2. Concurrent edits against a running clock lose nothing (R26)

    @Test func twentyEditsAtOnceAgainstARunningClockAllTakeEffect() async throws {
        let c = try Clock()
        for i in 0..<10 {
            #expect(
                try await c.run(["alarm", "add", "--name", "Alarm \(i)", "--time", "06:\(10 + i)", "--days", "daily"]).status == 0
            )
        }
        let d = try await c.daemon(lead: 3600)
        _ = try #require(await d.wait(for: "ready"))
        var edits: [[String]] = []
        for id in 1...10 {
            edits.append(["alarm", "edit", "\(id)", "--volume", "\(40 + id)", "--config", c.config])
            edits.append(["alarm", "edit", "\(id)", "--name", "Edited \(id)", "--config", c.config])
        }
        let results = try await ConcurrentEditCLITests.runTogether(c.cli, edits)
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.filter { $0.status != 0 }.map(\.stderr))")
        let alarms = try #require(
            try c.cli.json(try await c.run(["alarm", "list", "--json"]).stdout)["alarms"] as? [[String: Any]])
        for alarm in alarms {
            let id = try #require(alarm["id"] as? Int)
            #expect(alarm["name"] as? String == "Edited \(id)" && alarm["volume"] as? Int == 40 + id, "\(alarm)")
        }
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    // MARK: 3. A shorter alarm that joins a longer one never leaves silence (R38)

    @Test func aShorterAlarmThatJoinsALongerOneLeavesNoSilenceWhenItEnds() async throws {
        let c = try Clock()
        // Their ladders off: each rings for its duration and falls silent (R12), as before the ladder.
        let long = try await c.addAlarm(["--source", "tone", "--duration", "2m", "--fade-in", "0s", "--ladder", "off"])
        let short = try await c.addAlarm(["--source", "tone", "--duration", "1m", "--fade-in", "0s", "--ladder", "off"])
        let d = try await c.daemon(lead: 2)
        _ = try #require(await d.wait(for: "ringing") { $0["alarm"] as? Int == Int(short) })
        // One minute in, the shorter alarm auto-silences — and the sound plays on for the longer one.
        let ended = try #require(await d.wait(for: "stopped") { $0["alarm"] as? Int == Int(short) })
        #expect(ended["reason"] as? String == "auto-silenced" && ended["ringing_on"] as? String == "\(long)")
        let atEnd = c.cardFrames
        #expect(await c.waitForCard(seconds: Double(atEnd) / Double(Signal.rate) + 3), "the card went on after 60 s")
        let pcm = c.pcm()
        let around = Array(pcm[max(0, (atEnd - 2 * Signal.rate) * 2)..<min(pcm.count, (atEnd + 2 * Signal.rate) * 2)])
        #expect(Signal.rmsDBFS(around[...]) > -30, "the tone plays on across the shorter alarm's end")
        #expect(try await c.run(["stop"]).status == 0)
        let stopped = try #require(await d.wait(for: "stopped") { $0["alarm"] as? Int == Int(long) })
        #expect(stopped["reason"] as? String == "dismissed" && stopped["ringing_on"] == nil)
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
        let rang = try c.history().filter { $0.kind == "rang" }.map(\.detail)
        #expect(rang.contains { $0.contains("with alarm") }, "the history says which alarms rang together: \(rang)")
    }

    // MARK: 4. A failing card is "not audible", never a silent "ringing", and never crashes

    @Test func aCardThatFailsEveryWriteIsReportedNotAudibleAndTheClockLivesOn() async throws {
        let c = try Clock()
        try String(contentsOfFile: c.config, encoding: .utf8).replacingOccurrences(of: c.out, with: "/dev/full")
            .write(toFile: c.config, atomically: true, encoding: .utf8)
        _ = try await c.addAlarm(["--source", "tone"])
        let d = try await c.daemon(lead: 3)
        _ = try #require(await d.wait(for: "ringing"))
        let silent = try #require(await d.wait(for: "not-audible"))
        #expect((silent["reason"] as? String)?.contains("snd_pcm_writei") == true, "\(silent)")
        let status = try await c.run(["status"])
        #expect(status.stdout.contains("NOT AUDIBLE: snd_pcm_writei"), "\(status.stdout)")
        // It keeps retrying, once every 2 s, without a storm of events, and it is still there.
        #expect(await d.wait(for: "exiting", timeout: .seconds(5)) == nil && d.exitStatus == nil)
        #expect(d.events.filter { $0["event"] as? String == "not-audible" }.count <= 2)
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    @Test func aCardThatCannotOpenKeepsTheClockRunningButNeverReady() async throws {
        let c = try Clock()
        try String(contentsOfFile: c.config, encoding: .utf8).replacingOccurrences(of: "file:'\(c.out)',raw", with: "hw:99,0")
            .write(toFile: c.config, atomically: true, encoding: .utf8)
        _ = try await c.addAlarm(["--source", "tone"])
        let d = try await c.daemon(lead: 4)
        _ = try #require(await d.wait(for: "started"))
        _ = try #require(await d.wait(for: "ringing"))
        _ = try #require(await d.wait(for: "not-audible"))
        #expect(d.position(of: "ready") == nil, "READY only once the device opened and took a write (R34)")
        let status = try await c.run(["status"])
        #expect(status.stdout.contains("the sound device") && status.stdout.contains("not open"), "\(status.stdout)")
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    @Test func tooFewFileDescriptorsAreRefusedInOneSentenceNeverACrash() async throws {
        let c = try Clock()
        let r = try await ProcessRunner.run(
            "/usr/bin/prlimit",
            [
                "--nofile=16", c.cli.binary, "run", "--db", c.cli.db,
                "--config", c.config,
            ], environment: c.cli.environment)
        #expect(r.status == 1, "exit \(r.status) (132 was the SIGILL)")
        #expect(r.errorSentence?.hasPrefix("The clock may open only 16 files at once") == true, "\(r.stderr)")
    }

    // MARK: 5. One stuck client never blocks stop or status (R37)

    /// Connects to the daemon's socket without sending anything; -1 when it could not.
    static func idleConnection(_ path: String, nonBlocking: Bool = false) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0), 0)
        let rc = (try? UnixAddress(path: path))?.withSockaddr { connect(fd, $0, $1) } ?? -1
        guard rc == 0 || errno == EINPROGRESS else {
            close(fd)
            return -1
        }
        return fd
    }

    @Test func idleAndTricklingClientsNeverBlockStopOrStatus() async throws {
        let c = try Clock()
        _ = try await c.addAlarm(["--source", "tone"])
        let d = try await c.daemon(lead: 2)
        _ = try #require(await d.wait(for: "ringing"))
        let socket = c.cli.db + ".sock"
        let idle = (0..<10).map { _ in Self.idleConnection(socket) }
        #expect(idle.allSatisfy { $0 >= 0 })
        let trickler = Self.idleConnection(socket)
        let trickle = Task.detached {
            for _ in 0..<20 where !Task.isCancelled {
                _ = send(trickler, "{", 1, Int32(MSG_NOSIGNAL))
                try? await Task.sleep(for: .seconds(1))
            }
        }
        defer {
            trickle.cancel()
            for fd in idle + [trickler] { close(fd) }
        }
        let status = try await c.run(["status"])
        #expect(status.status == 0 && status.stdout.hasPrefix("The clock is running."), "\(status.stderr)")
        let stop = try await c.run(["stop"])
        #expect(stop.status == 0, "\(stop.stderr)")
        _ = try #require(await d.wait(for: "stopped"))
        // 200 simultaneous connects are all taken (the listen backlog was 8).
        let many = (0..<200).map { _ in Self.idleConnection(socket, nonBlocking: true) }
        #expect(many.filter { $0 < 0 }.isEmpty, "\(many.filter { $0 < 0 }.count) of 200 connects refused")
        for fd in many where fd >= 0 { close(fd) }
        #expect(try await c.run(["status"]).status == 0)
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    // MARK: 6. A broken first metadata block never sends a station alarm to the tone (R23)

    @Test func aBrokenFirstMetadataBlockKeepsTheAlarmOnTheStation() async throws {
        let c = try Clock()
        let radio = try await DaemonTests.Radio(in: c.dir)
        _ = try await c.addAlarm(["--source", radio.base + "/mp3-icy?metaint=8192&block=@100000&repeat=10"])
        let d = try await c.daemon(lead: 4)
        _ = try #require(await d.wait(for: "ringing"))
        let audible = try #require(await d.wait(for: "audible"))
        #expect((audible["detail"] as? String)?.contains("source=station") == true, "\(audible)")
        #expect(d.position(of: "fallback") == nil, "\(d.output)")
        #expect(try await c.run(["stop"]).status == 0)
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    // MARK: 7. A typo in a config value never stops the clock, and the status says it (R36)

    @Test func aConfigTypoIsAWarningInTheStatusAndTheClockRings() async throws {
        let c = try Clock()
        _ = try await c.addAlarm(["--source", "tone"])
        // The typo comes after: an ordinary command refuses it (strict), the clock and `status` do not (R36).
        try (String(contentsOfFile: c.config, encoding: .utf8) + "\n[http]\nport = \"eighty\"\n")
            .write(toFile: c.config, atomically: true, encoding: .utf8)
        let d = try await c.daemon(lead: 3)
        _ = try #require(await d.wait(for: "ringing"))
        _ = try #require(await d.wait(for: "audible"))
        let status = try await c.run(["status"])
        #expect(status.stdout.contains("http.port") && status.stdout.contains("default 8080"), "\(status.stdout)")
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }
}
