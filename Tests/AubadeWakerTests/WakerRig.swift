import AubadeTesting
import Foundation
import Synchronization
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

    /// A daemon's wall clock, exactly: its `ready` line gives `t` and beside it `mono`, the machine's
    /// CLOCK_MONOTONIC then; a daemon on `--fake-time` advances its wall clock with CLOCK_MONOTONIC, so at any
    /// moment it reads `t + (CLOCK_MONOTONIC now − mono)` — however late this test got to read the line. (Anchored
    /// on the moment the test read the line, it lagged the daemon by the test's own delay: in a loaded full run
    /// the cooperative pool, held by other tests, resumed this one more than 10 s late, the daemon was frozen after
    /// its alarm instead of before, and it had made the alarm heard — so the waker rightly stayed silent.)
    /// `mono` is read a moment before `t`, so this clock may run ahead of the daemon's by that moment, never behind.
    struct DaemonClock: Sendable {
        let wall: Double
        let mono: Double

        func now() -> Double { wall + (WakerRig.monotonic() - mono) }

        /// The CLOCK_MONOTONIC instant (seconds) at which the daemon's clock reads `instant` (Unix seconds).
        func monotonic(at instant: Double) -> Double { mono + (instant - wall) }
    }

    /// Waits for the daemon's `ready` and reads its clock.
    func clock(of d: EventProcess) async throws -> DaemonClock {
        guard let ready = await d.wait(for: "ready"), let wall = WakerRig.number(ready, "t"),
            let mono = WakerRig.number(ready, "mono")
        else {
            throw RigError("the daemon did not say ready: \(d.errorOutput)")
        }
        let clock = DaemonClock(wall: wall, mono: mono)
        figure("waker: the daemon's ready line read by the test after", seconds: clock.now() - wall)
        return clock
    }

    /// Sends `sig` to `process` when the daemon's clock reads `seconds` before the alarm (at once when that is past),
    /// from a thread of its own sleeping on CLOCK_MONOTONIC — a task may be resumed seconds late when other tests
    /// hold the cooperative pool. Started at once; `sent()` gives the daemon's clock just after the signal went.
    func signal(_ sig: Int32, to process: EventProcess, beforeAlarm seconds: Double, on clock: DaemonClock) -> TimedSignal {
        TimedSignal(sig, to: process, atMonotonic: clock.monotonic(at: alarmInstant.timeIntervalSince1970 - seconds), on: clock)
    }

    /// CLOCK_MONOTONIC now, in seconds: the clock of the daemon's `mono` and of its fake wall clock.
    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
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

/// A signal sent at a CLOCK_MONOTONIC instant by a thread of its own (`WakerRig.signal`).
final class TimedSignal: Sendable {
    private let sentAt = Mutex<Double?>(nil)
    private let changes = ChangeSignal()

    init(_ sig: Int32, to process: EventProcess, atMonotonic target: Double, on clock: WakerRig.DaemonClock) {
        let thread = Thread { [self] in
            var ts = timespec(tv_sec: Int(target.rounded(.down)), tv_nsec: Int((target - target.rounded(.down)) * 1e9))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
            process.signal(sig)
            sentAt.withLock { $0 = clock.now() }
            changes.bump()
        }
        thread.name = "aubade-test-signal"
        thread.start()
    }

    /// The daemon's clock just after the signal was sent (an upper bound of when it arrived).
    func sent() async -> Double {
        while true {
            let seen = changes.generation
            if let at = sentAt.withLock({ $0 }) { return at }
            await changes.wait(past: seen, until: .now + EventProcess.watchdog)
        }
    }
}

struct RigError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
