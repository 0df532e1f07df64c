import AubadeApp
import AubadeCore
import AubadeHandoff
import AubadeTesting
import Foundation
import Testing

/// The second waker end to end (R35): the real `aubade run` and `aubade-waker` on one `--fake-time`, a tone
/// alarm seconds ahead, alsa-lib's `file` plugin as the card. Each test waits for events (JSON lines) with
/// generous watchdogs and checks what happened and in what order — and what reached the card — never how fast.
@Suite("Second waker end to end (R35)", .serialized)
struct WakerEndToEndTests {
    /// At most what reaches the card after a stop: the chunk in hand and the device's buffer plus latency.
    static let framesAfterAStop = 1024 + 2 * 8820

    @Test func aFrozenDaemonIsCoveredByTheWakerAfterTheGraceAndAStopSilencesIt() async throws {
        let rig = try WakerRig()
        let id = try await rig.addAlarm()
        let d = try await rig.daemon(lead: 40)
        let clock = try await rig.clock(of: d)
        // Ten seconds before the alarm by the daemon's clock: the daemon holds the card and answers nothing. Sent
        // by a thread of its own, whatever this test is waiting for by then.
        let freeze = rig.signal(SIGSTOP, to: d, beforeAlarm: 10, on: clock)
        let w = try await rig.waker(at: clock.now())
        let armed = try #require(await w.wait(for: "armed"))
        #expect(armed["alarm"] as? Int == Int(id) && armed["name"] as? String == "Work")
        try #require(WakerRig.number(armed, "at") == rig.ringsAt, "armed for \(armed), the alarm + grace is \(rig.ringsAt)")
        let frozenAt = await freeze.sent()
        try #require(
            frozenAt < rig.alarmInstant.timeIntervalSince1970 - 1,
            "the machine was too slow to freeze the daemon before its alarm")
        figure("waker: the daemon frozen before its alarm by", "\(rig.alarmInstant.timeIntervalSince1970 - frozenAt) s")
        let ringing = try #require(
            await w.wait(for: "ringing"),
            "the waker did not ring: its lines \(w.output.suffix(20)), its errors \(w.errorOutput.suffix(2000)), the daemon's last lines \(d.output.suffix(10))"
        )
        #expect(ringing["alarm"] as? Int == Int(id))
        // Frozen before its alarm, the daemon never rang it.
        #expect(d.position(of: "ringing") == nil, "the daemon rang before it was frozen: \(d.output.suffix(10))")
        let t = try #require(WakerRig.number(ringing, "t"))
        #expect(t >= rig.ringsAt, "rang \(rig.ringsAt - t) s before the grace was over")
        figure("waker: ring after the alarm + grace, on its clock (late_ms)", "\(ringing["late_ms"] ?? "?")")
        let device = try #require(await w.wait(for: "device"))
        #expect(device["alternate"] as? Bool == false)
        #expect(await rig.waitForCard(seconds: 2), "the card got \(rig.cardFrames) frames")
        // The card plays the classic tone (880 Hz beeps).
        #expect(Signal.firstHeard(880, over: 440, in: rig.pcm()) != nil)
        // The file plugin is no exclusive card: the frozen daemon did not stand in the waker's way, so it was
        // left alone.
        #expect(WakerRig.processState(d.pid) == "T")
        #expect(w.position(of: "daemon-killed") == nil)
        // A stop while the waker rings: `aubade stop` reaches the waker whatever the daemon does.
        let stop = try await rig.cli(["stop"])
        #expect(stop.status == 0, "\(stop.stderr)")
        #expect(stop.stdout.contains("The second waker's ring was stopped."), "\(stop.stdout)")
        let stopped = try #require(await w.wait(for: "stopped"))
        #expect(stopped["end"] as? String == "stop" && stopped["by"] as? String == "cli")
        let (rang, ended) = (try #require(w.position(of: "ringing")), try #require(w.position(of: "stopped")))
        #expect(rang < ended)
        let atStop = rig.cardFrames
        try await Task.sleep(for: .seconds(1))  // an unstopped tone would add 44 100 frames
        #expect(rig.cardFrames - atStop <= Self.framesAfterAStop, "\(rig.cardFrames - atStop) frames after the stop")
        #expect(rig.handoff(".waker").contains("rang \(id) "))
        // Thawed, the daemon reads the waker's ring into its history and morning report, and the occurrence
        // a person stopped on the waker does not go on ringing.
        d.signal(SIGCONT)
        let absorbed = try #require(await d.wait(for: "second-waker"))
        #expect(absorbed["end"] as? String == "stop", "\(absorbed)")
        let status = try await rig.cli(["status", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let lines = report["report"] as? [String] ?? []
        #expect(
            lines.contains { $0.contains("the daemon did not answer; the second waker rang") && $0.contains("stopped") },
            "\(lines)")
        #expect((report["ringing"] as? [String: Any]) == nil, "\(report)")
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
        w.signal(SIGTERM)
        #expect(await w.waitForExit() == 0)
    }

    /// The waker's ring follows the alarm's ladder as the daemon wrote it: an alarm of a 2-minute duration whose
    /// ladder climbs in 30-s steps and rings one more round after a 5-minute rest. The waker starts 4 s before that
    /// rest ends (its clock says so): it rests — no card opened — then rings the round at full, on the card, and
    /// ends it `unanswered` when the round is over, 7½ minutes after the alarm, not 2.
    @Test func theWakersRingFollowsTheLadderRestsRingsARoundAndEndsUnanswered() async throws {
        let rig = try WakerRig()
        let add = try await rig.cli([
            "alarm", "add", "--name", "Work", "--time", "08:00", "--days", "daily", "--source", "tone",
            "--duration", "2m", "--ladder", "step=30s,rounds=1,gap=5m", "--json",
        ])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(add.stdout.utf8)) as? [String: Any])
        let id = try #require(object["id"] as? Int, "\(add.stderr)")
        let d = try await rig.daemon(lead: 60)
        _ = try #require(await d.wait(for: "ready"))
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
        #expect(rig.handoff(".next-alarm").contains("\nladder 30 6 1 300\n"), "\(rig.handoff(".next-alarm"))")
        // 4 × 30 s of climb, then the rest from 120 s to 420 s after the ring began, then the round to 450 s.
        let w = try await rig.waker(at: rig.ringsAt + 416)
        let ringing = try #require(await w.wait(for: "ringing"), "\(w.output.suffix(10)) \(w.errorOutput.suffix(2000))")
        #expect(ringing["alarm"] as? Int == id)
        let rested = try #require(await w.wait(for: "rested"))
        #expect(rested["round"] as? Int == 1)
        #expect(WakerRig.number(rested, "until") == rig.ringsAt + 420)
        let round = try #require(await w.wait(for: "round"))
        #expect(round["round"] as? Int == 1)
        _ = try #require(await w.wait(for: "device"))
        let (restAt, roundAt, deviceAt) = (
            try #require(w.position(of: "rested")), try #require(w.position(of: "round")),
            try #require(w.position(of: "device"))
        )
        #expect(restAt < roundAt && roundAt < deviceAt, "the card is opened only when the round rings: \(w.output)")
        #expect(await rig.waitForCard(seconds: 2), "the card got \(rig.cardFrames) frames")
        #expect(Signal.firstHeard(880, over: 440, in: rig.pcm()) != nil)
        let stopped = try #require(await w.wait(for: "stopped"), "\(w.output.suffix(10))")
        #expect(stopped["end"] as? String == "unanswered" && stopped["by"] as? String == "-", "\(stopped)")
        #expect(WakerRig.number(stopped, "t").map { $0 >= rig.ringsAt + 450 } == true, "\(stopped)")
        #expect(rig.handoff(".waker").contains(" unanswered "), "\(rig.handoff(".waker"))")
        w.signal(SIGTERM)
        #expect(await w.waitForExit() == 0)
    }

    @Test func aDaemonCrashLoopingAtStartIsCoveredByTheWaker() async throws {
        let rig = try WakerRig()
        let id = try await rig.addAlarm()
        // A daemon that ran once wrote the next-alarm file; then it died and its database and backup copy broke.
        let first = try await rig.daemon(lead: 40)
        let clock = try await rig.clock(of: first)
        #expect(rig.handoff(".next-alarm").contains("entry \(id) "))
        let w = try await rig.waker(at: clock.now())
        let armed = try #require(await w.wait(for: "armed"))
        try #require(WakerRig.number(armed, "at") == rig.ringsAt, "armed for \(armed), the alarm + grace is \(rig.ringsAt)")
        first.signal(SIGKILL)
        _ = await first.waitForExit()
        let junk = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        try junk.write(to: URL(fileURLWithPath: rig.db))
        for suffix in ["-wal", "-shm", ".schedule.json"] { try? FileManager.default.removeItem(atPath: rig.db + suffix) }
        // Every start now fails (R27: never run with zero alarms silently): restarted as systemd would.
        var starts = 0
        while w.position(of: "ringing") == nil && starts < 300 {
            let r = try await ProcessRunner.run(
                rig.aubade, ["run", "--db", rig.db, "--config", rig.config, "--http", "off"],
                environment: rig.environment)
            #expect(r.status == 1, "a start on the broken database: \(r.status) \(r.stderr)")
            starts += 1
        }
        let ringing = try #require(await w.wait(for: "ringing"))
        #expect(ringing["alarm"] as? Int == Int(id))
        #expect(try #require(WakerRig.number(ringing, "t")) >= rig.ringsAt)
        figure("waker: daemon starts that failed before the waker rang", "\(starts)")
        _ = try #require(await w.wait(for: "device"))
        #expect(await rig.waitForCard(seconds: 2), "the card got \(rig.cardFrames) frames")
        #expect(Signal.firstHeard(880, over: 440, in: rig.pcm()) != nil)
        let stop = try await rig.cli(["stop"])
        #expect(stop.status == 0 && stop.stdout.contains("second waker"), "\(stop.stdout) \(stop.stderr)")
        let stopped = try #require(await w.wait(for: "stopped"))
        #expect(stopped["end"] as? String == "stop")
        w.signal(SIGTERM)
        #expect(await w.waitForExit() == 0)
    }

    @Test func aHealthyDaemonKeepsTheWakerSilentAndTheCardIsOpenedOnce() async throws {
        let rig = try WakerRig()
        let id = try await rig.addAlarm()
        let d = try await rig.daemon(lead: 20)
        let clock = try await rig.clock(of: d)
        let w = try await rig.waker(at: clock.now())
        let today = rig.alarmInstant.timeIntervalSince1970
        let armed = try #require(await w.wait(for: "armed"))
        try #require(WakerRig.number(armed, "occurrence") == today, "armed for \(armed) instead of today's \(today)")
        // What the daemon tells the waker: the device, eight occurrences of the alarm.
        let next = rig.handoff(".next-alarm")
        #expect(next.contains("device file:'\(rig.card)',raw"))
        #expect(next.components(separatedBy: "\nentry \(id) ").count - 1 == NextAlarmFile.occurrencesPerAlarm)
        _ = try #require(await d.wait(for: "audible"))
        // The heartbeat reached the waker: it moved on to tomorrow's occurrence without ringing today's.
        let tomorrow = today + 86_400
        _ = try #require(await w.wait(for: "armed") { WakerRig.number($0, "occurrence") == tomorrow })
        #expect(rig.handoff(".heartbeat").contains("handled \(id) \(Int64(today * 1000)) 0 audible"))
        // Past the grace on the card's own time (the daemon rang at the alarm second): the waker said nothing.
        #expect(await rig.waitForCard(seconds: Double(WakerRig.grace) + 3), "the card got \(rig.cardFrames) frames")
        let status = try await rig.cli(["status"])
        #expect(status.stdout.contains("Second waker: armed for Work (alarm \(id))"), "\(status.stdout)")
        let stop = try await rig.cli(["stop"])
        #expect(stop.status == 0 && !stop.stdout.contains("second waker"), "\(stop.stdout) \(stop.stderr)")
        _ = try #require(await d.wait(for: "stopped"))
        #expect(rig.handoff(".heartbeat").contains("handled \(id) \(Int64(today * 1000)) 0 stopped"))
        // The card was never opened twice: the waker never tried it, and remembers no ring.
        for event in ["ringing", "device", "device-failed", "daemon-killed"] {
            #expect(w.position(of: event) == nil, "the waker printed \(event): \(w.output)")
        }
        #expect(!rig.handoff(".waker").contains("\nrang "))
        #expect(Signal.firstHeard(880, over: 440, in: rig.pcm()) != nil)
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
        w.signal(SIGTERM)
        #expect(await w.waitForExit() == 0)
        #expect(w.position(of: "ringing") == nil)
    }

    @Test func checkSaysWhatTheWakerWouldDo() async throws {
        let rig = try WakerRig()
        let id = try await rig.addAlarm()
        let none = try await ProcessRunner.run(rig.wakerBinary, ["--check", "--db", rig.db])
        #expect(none.status == 1 && none.stdout.contains("nothing is guarded"), "\(none.stdout)")
        let d = try await rig.daemon(lead: 60)
        _ = try #require(await d.wait(for: "ready"))
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
        let before = try await ProcessRunner.run(
            rig.wakerBinary,
            [
                "--check", "--db", rig.db, "--grace", "\(WakerRig.grace)s",
                "--fake-time", rig.fakeTime(lead: 60),
            ])
        #expect(before.status == 0)
        #expect(
            before.stdout.contains("Would: ring alarm \(id) (Work), due \(rig.alarmInstant.formatted(.iso8601))"),
            "\(before.stdout)")
        #expect(before.stdout.contains("not running"))
        let after = try await ProcessRunner.run(
            rig.wakerBinary,
            [
                "--check", "--json", "--db", rig.db, "--grace", "\(WakerRig.grace)s",
                "--fake-time", rig.fakeTime(lead: -10),
            ])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
        #expect(object["would"] as? String == "ring" && object["alarm"] as? Int == Int(id), "\(object)")
        #expect(WakerRig.number(object, "at") == rig.ringsAt)
    }

    /// `--outputs-off` (the clock's unit's ExecStopPost): with no next-alarm file there is nothing to do; with one
    /// that lists a shaker, on this machine without GPIO, the real libgpiod's failure is named and the exit is 1.
    /// (Driving a real line inactive after a SIGKILL is the HIL's: scenarios/systemd.sh.)
    @Test func outputsOffDrivesWhatTheDaemonListedAndSaysWhatItCouldNot() async throws {
        let rig = try WakerRig()
        let none = try await ProcessRunner.run(rig.wakerBinary, ["--outputs-off", "--db", rig.db])
        #expect(none.status == 0 && none.stdout.contains("the daemon drove no output"), "\(none.stdout) \(none.stderr)")
        try "aubade-next-alarm 1\ndaemon 1 1\nwritten 5\noutput shaker 0 400 400 GPIO16\nend\n"
            .write(toFile: rig.db + ".next-alarm", atomically: true, encoding: .utf8)
        let listed = try await ProcessRunner.run(rig.wakerBinary, ["--outputs-off", "--db", rig.db])
        #expect(listed.status == 1, "\(listed.stdout) \(listed.stderr)")
        #expect(listed.stdout.hasPrefix("Output GPIO16 (shaker) could not be driven inactive: "), "\(listed.stdout)")
    }

    static let badInput: [([String], String)] = [
        (["--grace", "0s"], "--grace '0s' must be a duration from 1s to 30m"),
        (["--grace", "soon"], "--grace 'soon' must be a duration"),
        (["--fake-time", "tomorrow"], "--fake-time 'tomorrow' is not an ISO-8601 instant"),
        (["--colour"], "Unknown argument '--colour'"),
        (["--db"], "--db needs a value."),
        (["--config", "/nonexistent/aubade.toml"], "The config /nonexistent/aubade.toml cannot be read"),
    ]

    @Test(arguments: badInput)
    func badInputIsOneSentenceAndExitTwo(args: [String], sentence: String) async throws {
        let rig = try WakerRig()
        let r = try await ProcessRunner.run(rig.wakerBinary, args)
        #expect(r.status == 2)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("aubade-waker: \(sentence)"), "\(r.stderr)")
    }

    @Test func theWakerFindsTheDatabaseInTheDaemonsConfig() async throws {
        let rig = try WakerRig()
        _ = try await rig.addAlarm()
        let d = try await rig.daemon(lead: 60)
        _ = try #require(await d.wait(for: "ready"))
        d.signal(SIGTERM)
        _ = await d.waitForExit()
        let config = rig.dir.file("with-paths.toml")
        try "[paths]\ndatabase = \"\(rig.db)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let viaConfig = try await ProcessRunner.run(rig.wakerBinary, ["--check", "--config", config])
        #expect(viaConfig.status == 0 && viaConfig.stdout.contains(rig.db), "\(viaConfig.stdout) \(viaConfig.stderr)")
        let viaEnvironment = try await ProcessRunner.run(rig.wakerBinary, ["--check"], environment: ["AUBADE_CONFIG": config])
        #expect(viaEnvironment.status == 0 && viaEnvironment.stdout.contains(rig.db))
    }

    @Test func theStopTheWakerSendsIsTheControlSocketsOwnCommand() throws {
        let w = TextWriter(capacity: 256)
        let decoder = JSONDecoder()
        ControlLine.write(snooze: false, alarm: 3, by: .button, to: w)
        #expect(w.string.hasSuffix("\n"))
        #expect(try decoder.decode(ControlProtocol.Request.self, from: Data(w.bytes)).command == .stop(alarm: 3, by: .button))
        ControlLine.write(snooze: true, alarm: 12, by: .cli, to: w)
        #expect(try decoder.decode(ControlProtocol.Request.self, from: Data(w.bytes)).command == .snooze(alarm: 12, by: .cli))
    }
}
