import AubadeTesting
import Foundation
import Glibc
import Testing

/// `aubade run` with its MQTT face against a real Mosquitto broker on 127.0.0.1: the device and its states as a
/// subscriber sees them, edits from the CLI and commands from MQTT, the pre-alarm notice, and a broker that is
/// stale, killed, silent or refusing — none of which may delay an alarm. The daemon's wall clock is `--fake-time`
/// (the alarm a few seconds ahead); every wait is for a message or an event, under a watchdog.
@Suite("Home Assistant over MQTT, end to end", .serialized)
struct HomeAssistantDaemonTests {
    static let prefix = "aubade/t"

    /// A clock folder whose config has an `[mqtt]` section (client id `aubade-t`, topics under `aubade/t`).
    static func clock(_ mqtt: String = "") throws -> DaemonTests.Clock {
        let c = try DaemonTests.Clock()
        let config = try String(contentsOfFile: c.config, encoding: .utf8)
        try (config + "\n[mqtt]\nclient_id = \"aubade-t\"\ntopic_prefix = \"\(prefix)\"\n" + mqtt)
            .write(toFile: c.config, atomically: true, encoding: .utf8)
        return c
    }

    static func topic(_ suffix: String) -> String { "\(prefix)/\(suffix)" }

    /// Waits for a message on `aubade/t/<suffix>` whose payload `payload` accepts, at or after position `after`.
    static func wait(
        _ w: EventProcess, _ suffix: String, after: Int = 0, _ payload: @escaping @Sendable (String) -> Bool = { _ in true }
    ) async -> String? {
        await w.wait(after: after, where: MosquittoBroker.message(topic(suffix), payload)).map { $0["payload"] as? String ?? "" }
    }

    static func iso(_ date: Date) -> String { date.formatted(.iso8601) }

    /// Alarm `id` as `aubade alarm list --json` shows it.
    static func alarm(_ c: DaemonTests.Clock, _ id: Int64) async throws -> [String: Any]? {
        let listed = try await c.run(["alarm", "list", "--json"])
        let alarms = try c.cli.json(listed.stdout)["alarms"] as? [[String: Any]]
        return alarms?.first { $0["id"] as? Int == Int(id) }
    }

    static func json(_ text: String?) -> [String: Any]? {
        text.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func theClockAppearsFollowsTheCLIAndTakesCommandsFromMQTT() async throws {
        let broker = try await MosquittoBroker()
        let c = try Self.clock()
        let id = try await c.addAlarm(["--source", "tone"])
        let watcher = try await broker.watch([Self.topic("#"), "homeassistant/device/aubade-t/config"])
        let d = try await c.daemon(lead: 3600, extra: ["--mqtt", "mqtt://127.0.0.1:\(broker.port)"])
        #expect(await Self.wait(watcher, "availability") { $0 == "online" } != nil)
        let document = Self.json(
            await watcher.wait(after: 0, where: MosquittoBroker.message("homeassistant/device/aubade-t/config"))?["payload"]
                as? String)
        let components = document?["components"] as? [String: [String: Any]]
        #expect(components?["alarm_\(id)"]?["platform"] as? String == "switch")
        #expect(components?["next_alarm"]?["unique_id"] as? String == "aubade-t_next_alarm")
        #expect(await Self.wait(watcher, "next_alarm") { $0 == Self.iso(c.alarmInstant) } != nil)
        #expect(await Self.wait(watcher, "next_alarm/name") { $0 == "Work" } != nil)
        #expect(await Self.wait(watcher, "state") { $0 == "idle" } != nil)
        #expect(await Self.wait(watcher, "ringing") { $0 == "OFF" } != nil)
        #expect(await Self.wait(watcher, "alarm/\(id)/time") { $0 == "08:00" } != nil)

        // An edit from the CLI: the switch and the next alarm follow.
        var mark = watcher.events.count
        #expect(try await c.run(["alarm", "disable", "\(id)"]).status == 0)
        #expect(await Self.wait(watcher, "alarm/\(id)/enabled", after: mark) { $0 == "OFF" } != nil)
        #expect(await Self.wait(watcher, "next_alarm", after: mark) { $0 == "None" } != nil)

        // Commands from MQTT go through the clock: the CLI sees them, and so do the states.
        mark = watcher.events.count
        try await broker.publish(Self.topic("alarm/\(id)/enabled/set"), "ON")
        #expect(await Self.wait(watcher, "alarm/\(id)/enabled", after: mark) { $0 == "ON" } != nil)
        try await broker.publish(Self.topic("alarm/\(id)/time/set"), "07:45")
        #expect(await Self.wait(watcher, "alarm/\(id)/time", after: mark) { $0 == "07:45" } != nil)
        #expect(try await Self.alarm(c, id)?["time"] as? String == "07:45")
        // A bad payload is one log line and changes nothing.
        try await broker.publish(Self.topic("alarm/\(id)/time/set"), "25:00")
        try await broker.publish(Self.topic("cmd"), "dance")
        try await broker.publish(Self.topic("alarm/\(id)/days/set"), "mon-fri")
        #expect(await Self.wait(watcher, "alarm/\(id)/days", after: mark) { $0 == "mon,tue,wed,thu,fri" } != nil)
        #expect(await d.waitForError(containing: "was refused"), "\(d.errorOutput)")
        #expect(await d.waitForError(containing: "'dance' on aubade/t/cmd is not a command"), "\(d.errorOutput)")
        #expect(try await Self.alarm(c, id)?["time"] as? String == "07:45")

        // An alarm added appears in the document; removed, it is sent as removed and its states are cleared.
        mark = watcher.events.count
        let second = try await c.addAlarm(["--source", "tone"])
        let added = await watcher.wait(
            after: mark,
            where: MosquittoBroker.message("homeassistant/device/aubade-t/config") {
                $0.contains("alarm_\(second)_days")
            })
        #expect(added != nil)
        mark = watcher.events.count
        #expect(try await c.run(["alarm", "rm", "\(second)"]).status == 0)
        #expect(await Self.wait(watcher, "alarm/\(second)/enabled", after: mark) { $0.isEmpty } != nil)
        let removed = Self.json(
            await watcher.wait(after: mark, where: MosquittoBroker.message("homeassistant/device/aubade-t/config"))?["payload"]
                as? String)
        let gone = (removed?["components"] as? [String: [String: Any]])?["alarm_\(second)"]
        #expect(gone?.keys.sorted() == ["platform"], "\(String(describing: gone))")

        // A clean stop says offline.
        mark = watcher.events.count
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
        #expect(await Self.wait(watcher, "availability", after: mark) { $0 == "offline" } != nil)
    }

    /// A payload is anyone's (R40): one with a line break and a right-to-left override is one line of the daemon's
    /// log, the break written `\n` and the override `\u{202E}`, so no message can forge a line of the log or turn
    /// one around.
    @Test func aPayloadWithALineBreakIsOneLineOfTheLogEscaped() async throws {
        let broker = try await MosquittoBroker()
        let c = try Self.clock()
        let id = try await c.addAlarm(["--source", "tone"])
        let watcher = try await broker.watch([Self.topic("availability")])
        let d = try await c.daemon(lead: 3600, extra: ["--mqtt", "mqtt://127.0.0.1:\(broker.port)"])
        #expect(await Self.wait(watcher, "availability") { $0 == "online" } != nil)
        let forged = "1999-12-31T23:59:59 critical : all alarms deleted"
        try await broker.publish(Self.topic("cmd"), "dance\n\(forged)\u{202E}gpj.exe")
        try await broker.publish(Self.topic("alarm/\(id)/time/set"), "25:00\n\(forged)")
        #expect(await d.waitForError(containing: "on aubade/t/cmd is not a command"), "\(d.errorOutput)")
        #expect(await d.waitForError(containing: "was refused"), "\(d.errorOutput)")
        let lines = d.errorOutput.split(separator: "\n")
        let command = lines.filter { $0.contains("dance") }
        #expect(command.count == 1, "\(command)")
        #expect(
            command.first?.hasSuffix(
                #"MQTT: 'dance\n1999-12-31T23:59:59 critical : all alarms deleted\u{202E}gpj.exe' on aubade/t/cmd is not a command; use stop, snooze or skip_next."#
            ) == true, "\(command)")
        let time = lines.filter { $0.contains("25:00") }
        #expect(time.count == 1, "\(time)")
        #expect(time.first?.contains(#"'25:00\n1999-12-31T23:59:59 critical : all alarms deleted' was refused"#) == true)
        #expect(!lines.contains { $0.hasPrefix("1999-12-31") }, "no line is the forged one: \(lines)")
        #expect(!d.errorOutput.unicodeScalars.contains("\u{202E}"))
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    /// The notice comes at its lead before the occurrence, for an alarm that will ring and for one passed over for
    /// a day off (saying so); the state is `pre_alarm` until the ring.
    @Test func thePreAlarmComesAtItsLeadAlsoForAnOccurrenceThatWillNotRing() async throws {
        let broker = try await MosquittoBroker()
        let c = try Self.clock("pre_alarm = [\"1m\"]\n")
        let work = try await c.addAlarm(["--source", "tone"])
        let skipped = try await c.addAlarm(["--source", "tone", "--name", "Gym", "--skip-days-off"])
        let day = String(Self.iso(c.alarmInstant).prefix(10))
        #expect(try await c.run(["days-off", "add", day, "--name", "Holiday"]).status == 0)
        let watcher = try await broker.watch([Self.topic("#")])
        let d = try await c.daemon(lead: 66, extra: ["--mqtt", "mqtt://127.0.0.1:\(broker.port)"])
        #expect(await Self.wait(watcher, "availability") { $0 == "online" } != nil)
        let first = try #require(Self.json(await Self.wait(watcher, "event") { $0.contains("pre_alarm") }))
        let second = try #require(
            Self.json(await Self.wait(watcher, "event") { $0.contains("pre_alarm") && $0.contains("\"alarm\":\(skipped)") }))
        #expect(first["alarm"] as? Int == Int(work) && first["will_ring"] as? Bool == true, "\(first)")
        #expect(first["lead_minutes"] as? Int == 1 && first["at"] as? String == Self.iso(c.alarmInstant))
        #expect(second["will_ring"] as? Bool == false && second["why"] as? String == "day off: Holiday", "\(second)")
        #expect(await Self.wait(watcher, "state") { $0 == "pre_alarm" } != nil)
        // At its lead by the daemon's clock: not before the alarm's second minus one minute.
        let line = try #require(await d.wait(for: "pre-alarm") { $0["alarm"] as? Int == Int(work) })
        let at = try #require(DaemonTests.number(line, "t"))
        #expect(at >= c.alarmInstant.timeIntervalSince1970 - 60, "\(line)")
        #expect(d.position(of: "pre-alarm")! < (d.position(of: "ringing") ?? Int.max))
    }

    /// A "stop" left retained on the command topic must never silence the alarm, even when the clock subscribes
    /// while it rings (the broker was away and comes back holding it); a stop sent while it rings does, and the
    /// history says it came from MQTT.
    @Test func aRetainedStaleStopNeverSilencesTheAlarmAndAFreshOneDoes() async throws {
        let broker = try await MosquittoBroker(persistent: true)
        try await broker.publish(Self.topic("cmd"), "stop", retain: true)
        await broker.stop(graceful: true)  // it saves the retained stop, and is away when the clock starts
        let c = try Self.clock()
        let id = try await c.addAlarm(["--source", "tone"])
        let d = try await c.daemon(lead: 8, extra: ["--mqtt", "mqtt://127.0.0.1:\(broker.port)"])
        let ringing = try #require(await d.wait(for: "ringing"))
        #expect(ringing["alarm"] as? Int == Int(id) && ringing["late"] as? Bool == false)
        try await broker.start()
        #expect(try await broker.take(Self.topic("cmd"), count: 1) == ["\(Self.topic("cmd")) stop"], "the broker kept the stop")
        let watcher = try await broker.watch([Self.topic("#")])
        // The clock comes back while ringing, subscribes to its commands, and says so in its states.
        #expect(await Self.wait(watcher, "ringing") { $0 == "ON" } != nil)
        #expect(await Self.wait(watcher, "availability") { $0 == "online" } != nil)
        let heard = c.cardFrames
        #expect(await c.waitForCard(seconds: Double(heard) / Double(Signal.rate) + 2))
        #expect(d.position(of: "stopped") == nil, "the retained stop silenced the alarm: \(d.output)")
        try await broker.publish(Self.topic("cmd"), "stop")
        let stopped = try #require(await d.wait(for: "stopped"))
        #expect(stopped["by"] as? String == "mqtt")
        let event = Self.json(await Self.wait(watcher, "event") { $0.contains("dismissed") })
        #expect(event?["how"] as? String == "mqtt")
        #expect(try c.history().contains { $0.kind == "dismissed" && $0.detail == "by=mqtt" })
        #expect(await Self.wait(watcher, "ringing") { $0 == "OFF" } != nil)
    }

    /// A TLS broker whose authority file cannot be read: one warning, and the alarm rings on time.
    @Test func anUnreadableAuthorityFileIsAWarningAndTheAlarmRings() async throws {
        let c = try Self.clock("ca_file = \"/nonexistent/ca.crt\"\n")
        _ = try await c.addAlarm(["--source", "tone"])
        let d = try await c.daemon(lead: 8, extra: ["--mqtt", "mqtts://127.0.0.1:1"])
        let warning = await d.wait(for: "warning") { ($0["message"] as? String)?.contains("TLS") == true }
        #expect(warning != nil, "\(d.output) \(d.errorOutput)")
        let ringing = try #require(await d.wait(for: "ringing"))
        #expect(ringing["late"] as? Bool == false)
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    /// The broker killed while an alarm is due: it rings on time, the status says the broker is lost; started
    /// again, the clock reconnects by itself and publishes its state anew (the broker kept nothing).
    @Test func theBrokerKilledBeforeTheAlarmDelaysNothingAndIsRejoined() async throws {
        let broker = try await MosquittoBroker()
        let c = try Self.clock()
        _ = try await c.addAlarm(["--source", "tone"])
        let watcher = try await broker.watch([Self.topic("availability")])
        let d = try await c.daemon(lead: 10, extra: ["--mqtt", "mqtt://127.0.0.1:\(broker.port)"])
        #expect(await Self.wait(watcher, "availability") { $0 == "online" } != nil)
        await broker.stop()
        let warning = await d.wait(for: "warning") { ($0["message"] as? String)?.contains("MQTT broker") == true }
        #expect(warning != nil, "\(d.output)")
        let status = try await c.run(["status"])
        #expect(status.stdout.contains("MQTT broker 127.0.0.1:\(broker.port) cannot be reached"), "\(status.stdout)")
        let ringing = try #require(await d.wait(for: "ringing"))
        #expect(ringing["late"] as? Bool == false, "\(ringing)")
        try await broker.start()
        let again = try await broker.watch([Self.topic("#")])
        #expect(await Self.wait(again, "ringing") { $0 == "ON" } != nil)
        #expect(await Self.wait(again, "availability") { $0 == "online" } != nil)
        let after = try await c.run(["status"])
        #expect(!after.stdout.contains("cannot be reached"), "\(after.stdout)")
        #expect(try await c.run(["stop"]).status == 0)
    }

    /// A broker that accepts TCP and never answers: the alarm rings on time, the CLI is answered at once.
    @Test func aBrokerThatAcceptsAndNeverAnswersDelaysNothing() async throws {
        let silent = try SilentListener()
        let c = try Self.clock()
        _ = try await c.addAlarm(["--source", "tone"])
        let d = try await c.daemon(lead: 8, extra: ["--mqtt", "mqtt://127.0.0.1:\(silent.port)"])
        _ = try #require(await d.wait(for: "ready"))
        let status = try await c.run(["status"])
        #expect(status.status == 0)
        let ringing = try #require(await d.wait(for: "ringing"))
        #expect(ringing["late"] as? Bool == false, "\(ringing)")
        #expect(try await c.run(["stop"]).status == 0)
        #expect(try #require(await d.wait(for: "stopped"))["by"] as? String == "cli")
    }

    /// TLS with a password file: the right password connects; a wrong one is one warning, the clock runs on and
    /// keeps trying without a crash loop.
    @Test func tlsWithAPasswordFileConnectsAndAWrongPasswordIsOneWarning() async throws {
        let dir = try TemporaryDirectory()
        chmod(dir.path, 0o755)  // the broker runs as nobody
        for args in [
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Aubade test CA", "-keyout",
                dir.file("ca.key"), "-out", dir.file("ca.crt"),
            ],
            [
                "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", dir.file("server.key"), "-out",
                dir.file("server.csr"),
            ],
            [
                "x509", "-req", "-in", dir.file("server.csr"), "-CA", dir.file("ca.crt"), "-CAkey", dir.file("ca.key"),
                "-CAcreateserial", "-days", "2", "-extfile", dir.file("san.cnf"), "-out", dir.file("server.crt"),
            ],
        ] {
            if args.contains("-extfile") {
                try "subjectAltName=IP:127.0.0.1\n".write(toFile: dir.file("san.cnf"), atomically: true, encoding: .utf8)
            }
            let r = try await ProcessRunner.run("/usr/bin/openssl", args)
            try #require(r.status == 0, "openssl \(args.first!): \(r.stderr)")
        }
        try "".write(toFile: dir.file("passwd"), atomically: true, encoding: .utf8)
        let p = try await ProcessRunner.run("/usr/bin/mosquitto_passwd", ["-b", dir.file("passwd"), "clock", "s3cret"])
        try #require(p.status == 0, "\(p.stderr)")
        for file in ["passwd", "ca.crt", "server.crt", "server.key"] { chmod(dir.file(file), 0o644) }
        let broker = try await MosquittoBroker(
            config:
                "password_file \(dir.file("passwd"))\ncafile \(dir.file("ca.crt"))\ncertfile \(dir.file("server.crt"))\nkeyfile \(dir.file("server.key"))\n"
        )
        try "s3cret\n".write(toFile: dir.file("good"), atomically: true, encoding: .utf8)
        try "wrong\n".write(toFile: dir.file("bad"), atomically: true, encoding: .utf8)
        let section = { (file: String) in
            "broker = \"mqtts://127.0.0.1:\(broker.port)\"\nusername = \"clock\"\npassword_file = \"\(dir.file(file))\"\nca_file = \"\(dir.file("ca.crt"))\"\n"
        }
        let good = try Self.clock(section("good"))
        _ = try await good.addAlarm(["--source", "tone"])
        let d = try await good.daemon(lead: 3600)
        let connected = try await ProcessRunner.run(
            "/usr/bin/mosquitto_sub",
            [
                "-h", "127.0.0.1", "-p", "\(broker.port)", "--cafile", dir.file("ca.crt"), "-u", "clock", "-P", "s3cret",
                "-t", Self.topic("availability"), "-C", "1", "-W", "60",
            ])
        #expect(
            connected.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "online", "\(connected.stderr) \(d.errorOutput)")
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)

        let bad = try Self.clock(section("bad"))
        let b = try await bad.daemon(lead: 3600)
        let refused = try #require(await b.wait(for: "warning") { ($0["message"] as? String)?.contains("refused") == true })
        #expect(
            (refused["message"] as? String)?.contains("The MQTT broker 127.0.0.1:\(broker.port) refused the connection") == true)
        // It keeps trying (1 s, 2 s, 4 s…): by the third attempt the warning has still been given once.
        var attempts = 0
        let deadline = ContinuousClock.now + EventProcess.watchdog
        while attempts < 3, ContinuousClock.now < deadline {
            attempts = broker.log.components(separatedBy: "not authorised").count - 1
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(attempts >= 3, "\(broker.log)")
        #expect(
            b.events.filter { $0["event"] as? String == "warning" && ($0["message"] as? String)?.contains("refused") == true }
                .count == 1)
        #expect(b.exitStatus == nil)
        #expect(try await bad.run(["status"]).stdout.contains("refused the connection"))
    }

    /// `aubade doctor` says whether the broker takes the clock and whether the device is published, and that a
    /// broker that is gone cannot be reached — a warning, never a problem.
    @Test func doctorReportsTheBroker() async throws {
        let broker = try await MosquittoBroker()
        let c = try Self.clock("broker = \"mqtt://127.0.0.1:\(broker.port)\"\n")
        _ = try await c.addAlarm(["--source", "tone"])
        let watcher = try await broker.watch([Self.topic("availability")])
        let d = try await c.daemon(lead: 3600)
        #expect(await Self.wait(watcher, "availability") { $0 == "online" } != nil)
        func mqttCheck() async throws -> [String: Any]? {
            let r = try await c.run(["doctor", "--json"])
            let checks = try c.cli.json(r.stdout)["checks"] as? [[String: Any]]
            return checks?.first { $0["check"] as? String == "mqtt" }
        }
        let up = try #require(try await mqttCheck())
        #expect(up["status"] as? String == "ok", "\(up)")
        #expect((up["message"] as? String)?.contains("the device is published") == true, "\(up)")
        #expect((up["message"] as? String)?.contains("the clock is online") == true, "\(up)")
        await broker.stop()
        let down = try #require(try await mqttCheck())
        #expect(down["status"] as? String == "warning", "\(down)")
        #expect((down["message"] as? String)?.contains("cannot be reached") == true, "\(down)")
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    /// Home Assistant restarted (`online` on its status topic): the clock sends its device and every state again,
    /// though nothing changed.
    @Test func homeAssistantComingOnlineGetsTheDeviceAndStatesAgain() async throws {
        let broker = try await MosquittoBroker()
        let c = try Self.clock()
        _ = try await c.addAlarm(["--source", "tone"])
        let watcher = try await broker.watch([Self.topic("#"), "homeassistant/device/aubade-t/config"])
        let d = try await c.daemon(lead: 3600, extra: ["--mqtt", "mqtt://127.0.0.1:\(broker.port)"])
        #expect(await Self.wait(watcher, "volume") != nil)
        let mark = watcher.events.count
        try await broker.publish("homeassistant/status", "online")
        #expect(await watcher.wait(after: mark, where: MosquittoBroker.message("homeassistant/device/aubade-t/config")) != nil)
        #expect(await Self.wait(watcher, "next_alarm", after: mark) { $0 == Self.iso(c.alarmInstant) } != nil)
        #expect(await Self.wait(watcher, "volume", after: mark) != nil)
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    /// Killed without a goodbye, the clock's last will says offline.
    @Test func aKilledClockIsOfflineByItsLastWill() async throws {
        let broker = try await MosquittoBroker()
        let c = try Self.clock()
        let watcher = try await broker.watch([Self.topic("availability")])
        let d = try await c.daemon(lead: 3600, extra: ["--mqtt", "mqtt://127.0.0.1:\(broker.port)"])
        #expect(await Self.wait(watcher, "availability") { $0 == "online" } != nil)
        let mark = watcher.events.count
        d.signal(SIGKILL)
        _ = await d.waitForExit()
        #expect(await Self.wait(watcher, "availability", after: mark) { $0 == "offline" } != nil)
    }
}
