import AubadeTesting
import Foundation
import Testing

/// A clock folder for the second waker's end-to-end tests: a database with one tone alarm at tomorrow's 08:00
/// (UTC), a config whose sound card is alsa-lib's `file` plugin (`card.raw`, paced in real time by whoever
/// plays), no buttons; and the real `aubade` and `aubade-waker` binaries, started on the same `--fake-time`.
struct WakerRig {
    let dir: TemporaryDirectory
    let aubade: String
    let wakerBinary: String
    let alarmInstant: Date
    /// The waker's grace in these tests: a few seconds instead of a minute.
    static let grace = 8

    var db: String { dir.file("aubade.sqlite") }
    var config: String { dir.file("aubade.toml") }
    var card: String { dir.file("card.raw") }
    /// What the daemon, the CLI and the waker run with: no config file, the rig's own runtime folder.
    var environment: [String: String] { ["AUBADE_CONFIG": "", "AUBADE_RUNTIME_DIR": dir.file("run")] }

    init() throws {
        dir = try TemporaryDirectory("waker")
        guard let aubade = ProcessRunner.builtExecutable("aubade"),
            let waker = ProcessRunner.builtExecutable("aubade-waker")
        else {
            throw RigError("The aubade and aubade-waker binaries are not built beside the tests; run 'swift build' first.")
        }
        self.aubade = aubade
        wakerBinary = waker
        try """
        [audio]
        device = "file:'\(dir.file("card.raw"))',raw"
        [clock]
        time_zone = "UTC"
        [buttons]
        snooze = ""
        stop = ""
        play_pause = ""
        sleep = ""
        """.write(toFile: dir.file("aubade.toml"), atomically: true, encoding: .utf8)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let tomorrow = calendar.date(byAdding: .day, value: 1, to: Date())!
        alarmInstant = calendar.date(bySettingHour: 8, minute: 0, second: 0, of: tomorrow)!
    }

    /// `aubade <args> --db <db> --config <config>`.
    @discardableResult
    func cli(_ args: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run(
            aubade, args + ["--db", db, "--config", config], environment: environment,
            currentDirectory: dir.path)
    }

    /// Adds the tone alarm "Work" at 08:00 daily, lasting 2 minutes; its id.
    func addAlarm() async throws -> Int64 {
        let r = try await cli([
            "alarm", "add", "--name", "Work", "--time", "08:00", "--days", "daily", "--source", "tone",
            "--duration", "2m", "--json",
        ])
        guard r.status == 0, let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any],
            let id = object["id"] as? Int
        else { throw RigError("alarm add failed: \(r.stderr)") }
        return Int64(id)
    }

    func fakeTime(lead: Double) -> String { alarmInstant.addingTimeInterval(-lead).formatted(.iso8601) }

    /// The daemon, its wall clock `lead` seconds before the alarm.
    func daemon(lead: Double) async throws -> EventProcess {
        try await EventProcess(
            aubade, ["run", "--json", "--db", db, "--config", config, "--fake-time", fakeTime(lead: lead)],
            environment: environment)
    }

    /// The waker on the same database, its wall clock started at `wall` (Unix seconds), with the tests' grace.
    func waker(at wall: Double) async throws -> EventProcess {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return try await EventProcess(
            wakerBinary,
            [
                "--json", "--db", db, "--grace", "\(WakerRig.grace)s",
                "--fake-time", f.string(from: Date(timeIntervalSince1970: wall)),
            ],
            environment: environment)
    }

    /// A daemon's wall clock as its `ready` line gave it, when that line arrived: a waker started later must start
    /// on that clock as it reads *now* — on the daemon's start instant it would lag by the daemon's start-up,
    /// which on a loaded machine can be longer than the lead before the alarm.
    struct DaemonClock {
        let wall: Double
        let at: ContinuousClock.Instant

        func now() -> Double {
            let elapsed = (ContinuousClock.now - at).components
            return wall + Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        }
    }

    /// Waits for the daemon's `ready` and reads its clock.
    func clock(of d: EventProcess) async throws -> DaemonClock {
        guard let ready = await d.wait(for: "ready"), let wall = WakerRig.number(ready, "t") else {
            throw RigError("the daemon did not say ready: \(d.errorOutput)")
        }
        return DaemonClock(wall: wall, at: .now)
    }

    /// Sleeps until the daemon's clock reads `seconds` before the alarm (at once when it is past that).
    func sleep(untilBeforeAlarm seconds: Double, on clock: DaemonClock) async throws {
        let wait = alarmInstant.timeIntervalSince1970 - seconds - clock.now()
        if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
    }

    /// The alarm instant plus the grace, in Unix seconds: when the waker may ring.
    var ringsAt: Double { alarmInstant.timeIntervalSince1970 + Double(WakerRig.grace) }

    func pcm() -> [Int16] { Signal.samples(card) }
    var cardFrames: Int { Signal.frames(card) }

    /// Waits until the card holds `seconds` of audio (false: the watchdog passed first). Polled: a file's
    /// growth has no event to await; the poll sleeps without holding a thread.
    func waitForCard(seconds: Double) async -> Bool {
        let deadline = ContinuousClock.now + EventProcess.watchdog
        while cardFrames < Int(seconds * Double(Signal.rate)) {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return true
    }

    /// The handoff file `<db><suffix>` as text ("" when missing).
    func handoff(_ suffix: String) -> String {
        (try? String(contentsOfFile: db + suffix, encoding: .utf8)) ?? ""
    }

    static func number(_ e: [String: Any]?, _ key: String) -> Double? {
        (e?[key] as? NSNumber)?.doubleValue
    }

    /// The state letter of process `pid` in /proc ("T" stopped, "S" sleeping…), nil when it is gone.
    static func processState(_ pid: Int32) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        return text[text.index(close, offsetBy: 2)...].split(separator: " ").first.map(String.init)
    }
}

struct RigError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
