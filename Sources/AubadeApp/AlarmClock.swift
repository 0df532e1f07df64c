import AubadeAudio
import AubadeConfig
import AubadeCore
import AubadeHardware
import AubadeStore
import Foundation
import Logging

/// The clock itself: owns the alarm engine (`AlarmScheduler`) and carries out its actions against the store
/// and the sound — commit first, then record, then sound (R9). Inputs (buttons, shake, the control socket)
/// and the scheduler loop call in; being an actor, events are handled one at a time in arrival order.
///
/// Sound: an alarm's `AlarmSound` is prepared (device opened, station connected) 15 s before its time and
/// begun at the alarm second; its pre-alarm check runs 5 minutes before (R20). The sleep timer and programme
/// reservations play through `RadioSession`, which an alarm always stops (R14).
public actor AlarmClock {
    public struct Options: Sendable {
        public var sink: SinkOptions
        public var allowLoopback: Bool
        public var defaultZone: TimeZone
        /// The zone is the system's (not fixed by the config), so a change of /etc/localtime is followed.
        public var followsSystemZone: Bool
        public var shakeResponse: ShakeResponse
        /// Read when a stream is about to start (Wi-Fi-only): always the route of that moment, no polling.
        public var network: any NetworkStatus

        public init(sink: SinkOptions, allowLoopback: Bool, defaultZone: TimeZone, followsSystemZone: Bool,
                    shakeResponse: ShakeResponse = ShakeResponse(), network: any NetworkStatus = SysfsNetworkStatus()) {
            self.network = network
            self.sink = sink
            self.allowLoopback = allowLoopback
            self.defaultZone = defaultZone
            self.followsSystemZone = followsSystemZone
            self.shakeResponse = shakeResponse
        }
    }

    static let precheckLead: TimeInterval = 300
    static let prerollLead: TimeInterval = 15

    /// nil while the clock runs from the schedule's backup copy because the database is unreadable (R27).
    let store: Store?
    let options: Options
    let clock: DaemonClock
    let output: DaemonOutput
    let logger: Logger
    var scheduler: AlarmScheduler
    var settings: AppSettings
    var stations: [Int64: Station] = [:]
    var programmes: [Programme] = []
    var network: NetworkSnapshot?
    var wake = WakeUp(wall: nil, mono: nil)
    var sounding: Sounding?
    var prepared: [Int64: Prepared] = [:]
    var prechecks: [Int64: Precheck] = [:]
    var radio: RadioSession?
    var reservationsDone: Set<String> = []
    var lastReservationCheck: Date?
    var warnings: [String: String] = [:]
    var lastTitle: String?
    let wakeLoop: @Sendable () -> Void
    /// Told when an alarm starts (true) or stops (false) sounding: the button panel ignores presses that
    /// began before (R15), the shake sensor is sampled only while one rings.
    var ringingObserver: @Sendable (Bool) -> Void = { _ in }

    /// An alarm sounding now.
    struct Sounding {
        var alarmID: Int64
        var occurrence: Date
        var sound: AlarmSound
        var source: String
        var startedAt: MonotonicInstant
        var audibleAfter: Duration?
        var fallbacks: [String] = []
    }

    /// A sound pre-rolled for an occurrence that has not come yet.
    struct Prepared {
        var occurrence: Date
        var plan: AlarmSoundPlan
        var sound: AlarmSound
    }

    /// The pre-alarm check of an occurrence: running (nil result) or done.
    struct Precheck {
        var occurrence: Date
        var failure: String??
    }

    /// A clock over the stored alarms; call `start()` next. `wakeLoop` wakes the scheduler loop early (after
    /// an edit or an input changed what comes next).
    public init(store: Store, options: Options, clock: DaemonClock, output: DaemonOutput, logger: Logger,
                wakeLoop: @escaping @Sendable () -> Void) throws(StoreError) {
        self.store = store
        self.options = options
        self.clock = clock
        self.output = output
        self.logger = logger
        self.wakeLoop = wakeLoop
        let (settings, invalid) = try store.settingsWithProblems()
        self.settings = settings
        let alarms = try store.alarms()
        scheduler = AlarmScheduler(alarms: alarms, states: try store.runStates(), settings: settings,
                                   defaultZone: options.defaultZone, alarmsUpdatedAt: try store.alarmUpdateTimes())
        stations = Station.byID(try store.stations())
        programmes = try store.programmes()
        for key in invalid { warnings["setting-\(key)"] = "The stored setting \(key) is invalid; its default is used." }
    }

    /// A clock over the schedule's backup copy (R27): the database could not be read, so the alarms, stations
    /// and settings written beside it after the last change ring instead. Nothing is saved; the fault shows.
    public init(backup: ScheduleSnapshot.Contents, fault: String, options: Options, clock: DaemonClock,
                output: DaemonOutput, logger: Logger, wakeLoop: @escaping @Sendable () -> Void) {
        store = nil
        self.options = options
        self.clock = clock
        self.output = output
        self.logger = logger
        self.wakeLoop = wakeLoop
        settings = backup.settings
        scheduler = AlarmScheduler(alarms: backup.alarms, states: [], settings: backup.settings,
                                   defaultZone: options.defaultZone,
                                   alarmsUpdatedAt: Dictionary(backup.alarms.compactMap { $0.id.map { ($0, backup.writtenAt) } },
                                                               uniquingKeysWith: { a, _ in a }))
        stations = Station.byID(backup.stations)
        warnings["store"] = "\(fault) Running from the backup copy of the schedule written \(backup.writtenAt.formatted(.iso8601)); changes are not saved."
    }

    public func setRingingObserver(_ body: @escaping @Sendable (Bool) -> Void) { ringingObserver = body }

    /// Starts the engine: resumes a ringing alarm or a snooze (R9), catches up a recent missed one (R6).
    public func start() {
        perform(scheduler.start(at: clock.now()))
    }

    /// How many alarms are enabled, and the next one, for READY's status line.
    public func summary() -> String {
        let now = clock.now()
        let enabled = scheduler.alarms.values.filter(\.enabled)
        let next = enabled.compactMap { a in a.id.flatMap { scheduler.nextOccurrence(of: $0, after: now.wall) } }
            .min { $0.instant < $1.instant }
        let nextText = next.map { " — next \($0.instant.formatted(.iso8601))" } ?? ""
        return "\(enabled.count) alarm(s) enabled\(nextText)"
    }

    /// The scheduler loop's turn: picks up edits made by other processes, follows the system zone, lets the
    /// engine act, runs pre-checks and pre-rolls that are due. Returns when the loop should come back.
    public func tick() -> ContinuousClock.Instant {
        reloadIfChanged()
        let now = clock.now()
        if options.followsSystemZone {
            let zone = SystemZone.current()
            if zone.identifier != scheduler.defaultZone.identifier {
                perform(scheduler.timeZoneChanged(to: zone, at: now))
            }
        }
        perform(scheduler.tick(at: now))
        stepRadio(now: clock.now())
        prepareUpcoming(now: clock.now())
        startDueReservations(now: clock.now())
        return nextWakeInstant(now: clock.now())
    }

    /// The earliest of: the engine's wake-up, the next pre-check or pre-roll, the radio's next step, and a
    /// minute from now (so a wall-clock step is noticed, R5).
    func nextWakeInstant(now: SchedulerTime) -> ContinuousClock.Instant {
        var times: [ContinuousClock.Instant] = [clock.instant(forMono: now.mono + AlarmScheduler.stepCheckInterval)]
        if let wall = wake.wall { times.append(clock.instant(forWall: wall, now: now)) }
        if let mono = wake.mono { times.append(clock.instant(forMono: mono)) }
        for (id, occurrence) in upcoming(now: now, within: AlarmClock.precheckLead + 60) {
            for lead in [AlarmClock.precheckLead, AlarmClock.prerollLead] {
                let at = occurrence.addingTimeInterval(-lead)
                if at > now.wall, !(lead == AlarmClock.prerollLead && prepared[id]?.occurrence == occurrence) {
                    times.append(clock.instant(forWall: at, now: now))
                }
            }
        }
        if let next = nextReservationStart(now: now) { times.append(clock.instant(forWall: next, now: now)) }
        if let radioNext = radio?.nextStep(now: now.mono) { times.append(clock.instant(forMono: radioNext)) }
        return times.min()!
    }

    /// Enabled alarms whose next occurrence comes within `seconds`.
    func upcoming(now: SchedulerTime, within seconds: TimeInterval) -> [(Int64, Date)] {
        scheduler.alarms.keys.sorted().compactMap { id in
            guard let next = scheduler.nextOccurrence(of: id, after: now.wall),
                  next.instant.timeIntervalSince(now.wall) <= seconds,
                  scheduler.alarms[id]?.skipDate != next.date else { return nil }
            return (id, next.instant)
        }
    }

    /// Re-reads alarms, stations, settings and programmes, and tells the engine what changed.
    public func reload() {
        guard let store else { return }
        do throws(StoreError) {
            let alarms = try store.alarms()
            let newSettings = try store.settings()
            stations = Station.byID(try store.stations())
            programmes = try store.programmes()
            let now = clock.now()
            if alarms != scheduler.alarms.values.sorted(by: { ($0.id ?? 0) < ($1.id ?? 0) }) {
                perform(scheduler.alarmsChanged(alarms, at: now))
                for (id, p) in prepared where scheduler.alarms[id] == nil || scheduler.nextOccurrence(of: id, after: now.wall)?.instant != p.occurrence {
                    p.sound.stop()
                    prepared[id] = nil
                }
            }
            if newSettings != settings {
                settings = newSettings
                perform(scheduler.settingsChanged(newSettings, at: now))
            }
            warnings["store"] = nil
        } catch {
            warnings["store"] = "The database cannot be read (\(error.description)); the alarms known before keep ringing."
        }
        wakeLoop()
    }

    private var lastDataVersion: Int64?

    /// Reloads when another process committed to the database since the last look (a cheap read).
    func reloadIfChanged() {
        guard let version = try? store?.dataVersion() else { return }
        defer { lastDataVersion = version }
        if let last = lastDataVersion, last != version { reload() }
    }

    /// Sets (or clears, with nil) a standing warning shown by `status`; a new one is printed once. Pass
    /// `announce: false` for one its adapter already logged.
    func setWarning(_ key: String, _ text: String?, announce: Bool = true) {
        let old = warnings[key]
        warnings[key] = text
        if announce, let text, text != old {
            output.emit("warning", ["message": text])
        }
    }

    /// The network changed (the monitor looks every 30 s, for the log and the status).
    public func networkChanged(_ snapshot: NetworkSnapshot) {
        if let old = network, old != snapshot {
            let routes = snapshot.routes.map { "\($0.family.rawValue) via \($0.interface)\($0.isWireless ? " (wireless)" : "")" }
            output.emit("network", ["routes": routes.isEmpty ? "none" : routes.joined(separator: ", ")])
        }
        network = snapshot
    }

    /// Stops everything (shutdown).
    public func shutdown() {
        sounding?.sound.stop()
        for p in prepared.values { p.sound.stop() }
        prepared = [:]
        radio?.stop()
        radio = nil
    }
}
