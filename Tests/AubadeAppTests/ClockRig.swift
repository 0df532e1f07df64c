import AubadeApp
import AubadeAudio
import AubadeCore
import AubadeHardware
import Foundation
import Logging
import Synchronization

/// A running clock in-process (the real `RunningClock` and its parts) over the fakes: the engine is a
/// `FakeSound` that records what it was asked, the store a `MemoryClockStore`, time a `ManualClock`, the
/// pre-check a `FakePrecheck` run when the test says so. Events the engine would report are handed to the
/// clock directly, so every test is deterministic and takes no real time.
struct ClockRig {
    let journal = Journal()
    let sound: FakeSound
    let store: MemoryClockStore
    let time: ManualClock
    let jobs = ManualJobs()
    let precheck = FakePrecheck()
    let network: FakeNetworkStatus
    let lines = Lines()
    let ready = Lines()
    let ringingChanges = Lines()
    let clock: RunningClock

    /// 2026-11-24, a Tuesday, 06:50 UTC.
    static let morning = Date(timeIntervalSince1970: 1_795_503_000)

    static func at(_ hour: Int, _ minute: Int, _ second: Int = 0, day: Int = 0) -> Date {
        Calendar.utc.date(bySettingHour: hour, minute: minute, second: second,
                          of: morning.addingTimeInterval(TimeInterval(day * 86_400)))!
    }

    static let wifi = NetworkSnapshot(ipv4: .init(family: .ipv4, interface: "wlan0", metric: 600, isWireless: true, operState: "up"))
    static let wired = NetworkSnapshot(ipv4: .init(family: .ipv4, interface: "eth0", metric: 100, isWireless: false, operState: "up"))

    init(alarms: [Alarm] = [], stations: [Station] = [], programmes: [Programme] = [], settings: AppSettings = AppSettings(),
         states: [AlarmRunState] = [], start: Date = ClockRig.morning, device: DeviceStatus? = nil,
         network: NetworkSnapshot = ClockRig.wifi, backlight: any Backlight = NullBacklight(), synchronised: Bool = true,
         storeWrapper: (MemoryClockStore, ManualClock) -> any ClockStore = { store, _ in store }) {
        sound = FakeSound(journal: journal)
        if let device { sound.setDevice(device) }
        store = MemoryClockStore(StoredClock(alarms: alarms, states: states, settings: settings, stations: stations,
                                             programmes: programmes), journal: journal)
        time = ManualClock(wall: start)
        self.network = FakeNetworkStatus(network)
        let lines = self.lines
        let output = DaemonOutput(json: true, wall: { start }, write: { lines.append($0) })
        let deps = ClockDependencies(store: storeWrapper(store, time), sound: sound, time: time, jobs: jobs, precheck: precheck,
                                     network: self.network, output: output, isClockSynchronised: { synchronised },
                                     systemZone: { TimeZone(identifier: "UTC")! }, logger: Logger(label: "test"),
                                     backlight: backlight)
        clock = RunningClock(loaded: try! store.load(), deps: deps,
                             options: ClockOptions(allowLoopback: true, defaultZone: TimeZone(identifier: "UTC")!,
                                                   followsSystemZone: false, primaryDevice: "fake"))
    }

    func start() async {
        let (ready, ringing) = (self.ready, self.ringingChanges)
        await clock.start(ringingChanged: { ringing.append("\($0)") }, ready: { ready.append($0) })
    }

    /// Moves both clocks to `wall` and gives the clock its turn (as the scheduler loop would).
    @discardableResult
    func advance(to wall: Date) async -> RunningClock.Turn {
        time.advance(to: wall)
        return await clock.tick()
    }

    /// Turns the loop through every wake-up it asks for up to `wall`, as the real loop would.
    func run(until wall: Date) async {
        var turn = await clock.tick()
        while true {
            let next = turn.now.wall.addingTimeInterval((turn.wakeAt - turn.now.mono).inSeconds)
            guard next <= wall else { break }
            time.advance(to: max(next, time.now().wall.addingTimeInterval(0.001)))
            turn = await clock.tick()
        }
        time.advance(to: wall)
        _ = await clock.tick()
    }

    /// What the engine would report, handed to the clock.
    func engineSays(_ event: SoundEvent) async { await clock.soundEvent(event) }

    /// The live state now (as a page that just connected gets it).
    func live() async -> LiveState {
        var updates = await clock.liveUpdates().makeAsyncIterator()
        return await updates.next()!
    }

    func status() async throws -> DaemonStatus {
        guard case .status(let s) = try await clock.handle(.status) else { throw RigError("no status") }
        return s
    }

    /// The kinds of the history events, in order.
    var history: [String] { store.history.map(\.kind) }

    /// The output lines' events, in order.
    var events: [String] {
        lines.all.compactMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["event"] as? String
        }
    }

    /// The last sound played (and whether it was prepared first).
    var lastPlayed: (id: SoundID, request: SoundRequest, paused: Bool)? { sound.played.last }

    static func alarm(_ id: Int64, _ hour: Int, _ minute: Int, sound: SoundSource = .tone, duration: Int = 900,
                      shake: Bool = false, maxSnoozes: Int = 3) -> Alarm {
        Alarm(id: id, name: "Alarm \(id)", time: try! LocalTime(hour: hour, minute: minute), recurrence: .weekly(.all),
              durationSeconds: duration, shakeToStop: shake, sound: sound, maxSnoozes: maxSnoozes)
    }

    static func station(_ id: Int64, _ name: String = "FIP") -> Station {
        try! Station(id: id, name: name, url: try! StreamURL(parsing: "http://radio.example/\(name.lowercased())"))
    }
}

struct RigError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// Lines collected from any thread.
final class Lines: Sendable {
    private let store = Mutex<[String]>([])
    func append(_ line: String) { store.withLock { $0.append(line) } }
    var all: [String] { store.withLock { $0 } }
}

extension Calendar {
    static let utc: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()
}
