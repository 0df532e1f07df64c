public import AubadeApp
public import AubadeCore
public import AubadeTesting
public import Foundation
import Logging
import Synchronization

/// The one rig every in-process test of the running clock uses: the real `RunningClock` and its parts over the
/// fakes — the engine a `FakeSound` that records what it was asked, time a `ManualClock`, the pre-check a
/// `FakePrecheck` run when the test says so, the network a `FakeNetworkStatus` — and the store the test chooses:
/// `ClockRig` runs on the real one (`RigStore`: the SQLite store on a temporary file, its commits in the journal);
/// a test may hand it another (`SQLiteClockStore` itself, a store behind gates, the backup copy). Events the engine
/// would report are handed to the clock directly, so every test is deterministic and takes no real time.
public struct RunningClockRig<Backing: ClockStore>: Sendable {
    public let journal: Journal
    public let sound: FakeSound
    public let store: Backing
    public let time: ManualClock
    public let jobs: ManualJobs
    public let precheck: FakePrecheck
    public let network: FakeNetworkStatus
    /// The daemon's output lines (JSON), in order.
    public let lines: Lines
    public let ready: Lines
    public let ringingChanges: Lines
    /// The GPIO outputs, when the test gives the clock some.
    public let outputs: FakeOutputs?
    public let clock: RunningClock

    /// The clock over `store`, at `time`, with the options of a test clock: UTC, loopback streams allowed, the
    /// device "fake" as the configured one.
    public init(
        store: Backing, journal: Journal = Journal(), time: ManualClock, device: DeviceStatus? = nil,
        network: NetworkSnapshot = rigWifi, backlight: any Backlight = NullBacklight(),
        synchronised: Bool = true, calendars: CalendarOptions = CalendarOptions(),
        fetcher: (any CalendarFetcher)? = nil, preAlarmLeads: [Int] = [],
        directory: (any StationDirectory)? = nil, logos: (any StationLogoStore)? = nil,
        podcasts: (any PodcastFetcher)? = nil, podcastRefresh: Duration = .seconds(21_600),
        outputs: FakeOutputs? = nil, room: FakeRoomListener? = nil, selfTestHour: Int? = nil
    ) throws(StoreError) {
        self.outputs = outputs
        self.journal = journal
        self.store = store
        self.time = time
        (jobs, precheck) = (ManualJobs(), FakePrecheck())
        (lines, ready, ringingChanges) = (Lines(), Lines(), Lines())
        sound = FakeSound(journal: journal)
        if let device { sound.setDevice(device) }
        self.network = FakeNetworkStatus(network)
        let lines = self.lines
        let start = time.now().wall
        let output = DaemonOutput(json: true, wall: { start }, write: { lines.append($0) })
        let utc = TimeZone(identifier: "UTC") ?? .gmt
        let deps = ClockDependencies(
            store: store, sound: sound, time: time, jobs: jobs, precheck: precheck,
            network: self.network, output: output, isClockSynchronised: { synchronised },
            systemZone: { utc }, logger: Logger(label: "test"), backlight: backlight,
            calendars: fetcher, podcasts: podcasts, directory: directory, logos: logos, outputs: outputs, room: room)
        var options = ClockOptions(
            allowLoopback: true, defaultZone: utc, followsSystemZone: false,
            primaryDevice: "fake", calendars: calendars, preAlarmLeads: preAlarmLeads,
            podcastRefresh: podcastRefresh)
        options.selfTest = selfTestHour.flatMap(SelfTestSchedule.init(hour:))
        clock = RunningClock(loaded: try store.load(), deps: deps, options: options)
    }

    public func start() async {
        let (ready, ringing) = (self.ready, self.ringingChanges)
        await clock.start(ringingChanged: { ringing.append("\($0)") }, ready: { ready.append($0) })
    }

    /// Moves both clocks to `wall` and gives the clock its turn (as the scheduler loop would).
    @discardableResult
    public func advance(to wall: Date) async -> RunningClock.Turn {
        time.advance(to: wall)
        return await clock.tick()
    }

    /// Turns the loop through every wake-up it asks for up to `wall`, as the real loop would.
    public func run(until wall: Date) async {
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

    /// Every backlight level `fake` was set to, once the backlight's thread has written what it was handed; the
    /// clock is then given a no-op input, so that it shows (or clears) the backlight's warning as its loop would.
    public func percents(_ fake: FakeBacklight) async -> [Int] {
        await clock.backlight.settled()
        await clock.setWarning("rig.settled", nil, announce: false)
        return fake.percents
    }

    /// What the engine would report, handed to the clock.
    public func engineSays(_ event: SoundEvent) async { await clock.soundEvent(event) }

    /// The live state now (as a page that just connected gets it).
    public func live() async -> LiveState {
        var updates = await clock.liveUpdates().makeAsyncIterator()
        return await updates.next()!
    }

    public func status() async throws -> DaemonStatus {
        guard case .status(let s) = try await clock.handle(.status) else { throw RigError("no status") }
        return s
    }

    /// The clock's answer to `query`.
    public func ask(_ query: ClockQuery) async throws -> ClockAnswer {
        guard case .answer(let answer) = try await clock.handle(.query(query)) else { throw RigError("no answer") }
        return answer
    }

    /// What the clock saved for `edit`.
    @discardableResult
    public func edit(_ edit: ClockEdit) async throws -> EditOutcome {
        guard case .edited(let result) = try await clock.handle(.edit(edit)) else { throw RigError("no edit result") }
        return result.outcome
    }

    /// The output lines' events, in order.
    public var events: [String] {
        lines.all.compactMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["event"] as? String
        }
    }

    /// The last sound played (and whether it was prepared first).
    public var lastPlayed: (id: SoundID, request: SoundRequest, paused: Bool)? { sound.played.last }
}

/// The rig on the real store (`RigStore`).
public typealias ClockRig = RunningClockRig<RigStore>

extension RunningClockRig where Backing == RigStore {
    /// A clock whose store holds `alarms`, `stations`, … (each with its id) and starts at `start` (2026-11-24
    /// 06:50 UTC, a Tuesday, by default).
    public init(
        alarms: [Alarm] = [], stations: [Station] = [], programmes: [Programme] = [],
        settings: AppSettings = AppSettings(), states: [AlarmRunState] = [], start: Date = rigMorning,
        device: DeviceStatus? = nil, network: NetworkSnapshot = rigWifi,
        backlight: any Backlight = NullBacklight(), synchronised: Bool = true,
        calendars: CalendarOptions = CalendarOptions(), fetcher: (any CalendarFetcher)? = nil,
        preAlarmLeads: [Int] = [], outputs: FakeOutputs? = nil, room: FakeRoomListener? = nil,
        selfTestHour: Int? = nil
    ) {
        let journal = Journal()
        let time = ManualClock(wall: start)
        do {
            let store = try RigStore(
                alarms: alarms, stations: stations, programmes: programmes, settings: settings, states: states,
                journal: journal, time: time)
            self = try RunningClockRig(
                store: store, journal: journal, time: time, device: device, network: network,
                backlight: backlight, synchronised: synchronised, calendars: calendars,
                fetcher: fetcher, preAlarmLeads: preAlarmLeads, outputs: outputs, room: room,
                selfTestHour: selfTestHour)
        } catch {
            // No test can go on without its rig: a temporary file that cannot be made, a seed the store refuses.
            preconditionFailure("The rig's store cannot be set up: \(error)")
        }
    }

    /// The kinds of the history events, in order.
    public var history: [String] { store.history.map(\.kind) }
}

extension RunningClockRig {
    /// 2026-11-24, a Tuesday, 06:50 UTC.
    public static var morning: Date { rigMorning }

    public static func at(_ hour: Int, _ minute: Int, _ second: Int = 0, day: Int = 0) -> Date {
        Calendar.utc.date(
            bySettingHour: hour, minute: minute, second: second,
            of: morning.addingTimeInterval(TimeInterval(day * 86_400)))!
    }

    public static var wifi: NetworkSnapshot { rigWifi }
    public static var wired: NetworkSnapshot {
        NetworkSnapshot(ipv4: .init(family: .ipv4, interface: "eth0", metric: 100, isWireless: false, operState: "up"))
    }

    public static func alarm(
        _ id: Int64, _ hour: Int, _ minute: Int, sound: SoundSource = .tone, duration: Int = 900,
        shake: Bool = false, maxSnoozes: Int = 3, ladder: AlarmLadder = .clock
    ) -> Alarm {
        Alarm(
            id: id, name: "Alarm \(id)", time: try! LocalTime(hour: hour, minute: minute), recurrence: .weekly(.all),
            durationSeconds: duration, shakeToStop: shake, sound: sound, maxSnoozes: maxSnoozes, ladder: ladder)
    }

    public static func station(_ id: Int64, _ name: String = "FIP") -> Station {
        try! Station(id: id, name: name, url: try! StreamURL(parsing: "http://radio.example/\(name.lowercased())"))
    }
}

@usableFromInline let rigMorning = Date(timeIntervalSince1970: 1_795_503_000)
@usableFromInline let rigWifi = NetworkSnapshot(
    ipv4: .init(
        family: .ipv4, interface: "wlan0", metric: 600, isWireless: true,
        operState: "up"))

public struct RigError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}

/// Lines collected from any thread.
public final class Lines: Sendable {
    private let store = Mutex<[String]>([])
    public init() {}
    public func append(_ line: String) { store.withLock { $0.append(line) } }
    public var all: [String] { store.withLock { $0 } }
}

extension Calendar {
    public static let utc: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()
}
