public import AubadeCore
import Foundation
import Logging

/// The running clock: one actor, on its own thread (`ClockExecutor`: the store's commits fsync there, never
/// on the cooperative pool), coordinating parts that each have one job — `AlarmRunner` (the alarms, their
/// pre-checks, pre-rolls and sounds), `RadioPlayer` (sleep timer, listening, reservation tuning),
/// `Reminders` (reserved programmes), `KioskDisplay` (night dimming), `StatusBoard` (warnings) and `HistoryLog`
/// — through the ports in
/// `ClockDependencies`. Everything reaches it in arrival order: `ClockCommand`s from clients, button and shake
/// inputs, the engine's sound events, the scheduler loop's turns.
public actor RunningClock {
    nonisolated let executor: ClockExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    let deps: ClockDependencies
    let options: ClockOptions
    let catalogue: Catalogue
    let board: StatusBoard
    let history: HistoryLog
    let runner: AlarmRunner
    let radio: RadioPlayer
    let reminders: Reminders
    var followers: [SoundID: AsyncStream<SoundEvent>.Continuation] = [:]
    /// The ring test sounding now, if any (a second one replaces it, as alarms replace each other).
    var ringTest: RingTestSound?
    let display: KioskDisplay
    /// The device tokens the HTTP API accepts, kept in step with the store (read without waiting for the clock).
    public nonisolated let tokens = TokenRegistry()
    /// Wakes the scheduler loop early: an edit may have brought the next alarm closer.
    public nonisolated let waker = LoopWaker()
    let pairing = PairingDesk()
    var liveSubscribers: [UUID: AsyncStream<LiveState>.Continuation] = [:]
    var lastLive: LiveState?
    /// When each calendar source was last fetched or expanded again (`refreshCalendars`), kept in memory only.
    var calendarAttempts: [Int64: Date] = [:]
    private var lastDataVersion: Int64?
    private var network: NetworkSnapshot?
    private var deviceReady = false
    private var onReady: (@Sendable (String) -> Void)?

    /// A clock over `loaded` (the store's contents, or the backup copy's with `fault` saying why, R27).
    public init(loaded: StoredClock, deps: ClockDependencies, options: ClockOptions, fault: String? = nil) {
        executor = ClockExecutor()
        self.deps = deps
        self.options = options
        catalogue = Catalogue(loaded)
        board = StatusBoard(output: deps.output)
        history = HistoryLog(store: deps.store, output: deps.output, board: board)
        // An occurrence the second waker rang and a person ended there is not rung again (R35).
        let handoff = options.waker.map(WakerHandoff.init)
        let scheduler = AlarmScheduler(alarms: loaded.alarms, states: handoff?.settle(loaded.states) ?? loaded.states,
                                       settings: loaded.settings, defaultZone: options.defaultZone,
                                       alarmsUpdatedAt: loaded.alarmUpdateTimes, daysOff: DaysOff(loaded.daysOff))
        runner = AlarmRunner(scheduler: scheduler, deps: deps, options: options, catalogue: catalogue, history: history,
                             board: board)
        runner.handoff = handoff
        radio = RadioPlayer(deps: deps, options: options, catalogue: catalogue, history: history, board: board)
        reminders = Reminders(catalogue: catalogue)
        display = KioskDisplay(settings: loaded.settings.nightDimming, zone: options.defaultZone,
                               backlight: deps.backlight, board: board, output: deps.output)
        for key in loaded.invalidSettings {
            board.set("setting-\(key)", "The stored setting \(key) is invalid; its default is used.", announce: false)
        }
        if let fault { board.set("store", fault, announce: false) }
    }

    /// Starts the alarm engine (resumes a ringing alarm or a snooze, R9; catches up a missed one, R6).
    /// `ringingChanged` is told when an alarm starts or stops sounding (the shake sensor is sampled only
    /// then); `ready` is called, with the summary line, once the sound device has opened and taken a test write
    /// (R34).
    public func start(ringingChanged: @escaping @Sendable (Bool) -> Void = { _ in },
                      ready: @escaping @Sendable (String) -> Void = { _ in }) {
        runner.ringingChanged = ringingChanged
        runner.precheckFinished = { [weak self] id, occurrence, failure in
            await self?.precheckFinished(id: id, occurrence: occurrence, failure: failure)
        }
        runner.lookaheadFinished = { [weak self] id, occurrence, failure in
            await self?.lookaheadFinished(id: id, occurrence: occurrence, failure: failure)
        }
        onReady = ready
        lastDataVersion = try? deps.store.dataVersion()
        refreshTokens()
        let now = deps.time.now()
        runner.absorbWakerRings(now, act: false)
        runner.start(now)
        _ = reminders.due(now.wall, zone: runner.scheduler.defaultZone)
        afterAlarmActions(now)
        publishLive()  // the kiosk's screen as the schedule has it from the first moment
        // READY comes with the engine's `deviceOpened` (its test write taken), delivered by `SoundEventService`
        // inside the running `ServiceGroup` — so by then SIGTERM is handled gracefully too.
    }

    /// What a turn of the scheduler loop returns: when to come back, and a line for systemd's status.
    public struct Turn: Sendable {
        public var wakeAt: MonotonicInstant
        public var now: SchedulerTime
        public var summary: String
    }

    /// The scheduler loop's turn: picks up edits made by other processes, lets the alarms act, steps the
    /// radio, starts due reservations. Returns when to come back: the earliest of the alarms' and the radio's
    /// next steps and a minute from now (so a wall-clock step is noticed, R5).
    public func tick() -> Turn {
        if let replaced = deps.store.checkFile() {
            board.set("restored", replaced)
            history.record(.warning, at: deps.time.now().wall, replaced)
            reload()
        }
        reloadIfChanged()
        let now = deps.time.now()
        runner.advance(now)
        runner.absorbWakerRings(now, act: true)
        radio.step(now)
        for start in reminders.due(now.wall, zone: runner.scheduler.defaultZone) {
            radio.reserve(start, alarmRinging: runner.isRinging, now)
        }
        afterAlarmActions(now)
        noteTokenUses()
        publishLive()
        var times = runner.nextWake(now) + [now.mono + AlarmScheduler.stepCheckInterval]
        if let next = reminders.next(after: now.wall, zone: runner.scheduler.defaultZone) { times.append(now.mono(at: next)) }
        if let step = radio.nextStep(now) { times.append(step) }
        if let expiry = pairing.valid(at: now.wall)?.expiresAt { times.append(now.mono(at: expiry)) }
        if let change = display.nextChange(now) { times.append(change) }
        return Turn(wakeAt: times.min()!, now: now, summary: summary(now))
    }

    /// How many alarms are enabled, and the next one.
    func summary(_ now: SchedulerTime) -> String {
        let enabled = runner.scheduler.alarms.values.filter(\.enabled).count
        let next = runner.next.map { " — next \($0.instant.formatted(.iso8601))" } ?? ""
        return "\(enabled) alarm(s) enabled\(next)"
    }

    /// What READY and the log say at start.
    public func summary() -> String { summary(deps.time.now()) }

    /// When an alarm rings, the radio gives way (R14) — at once, not when the engine's report arrives.
    private func afterAlarmActions(_ now: SchedulerTime) {
        if let ringing = runner.ringing { radio.giveWay(toAlarm: ringing.alarmID, now) }
    }

    // MARK: Inputs

    /// A classified button press. Presses that began before the alarm started are ignored by the alarm
    /// engine itself (R15), which compares the press's kernel timestamp with the ring's start on the same
    /// `CLOCK_MONOTONIC` base.
    public func button(_ command: ButtonPanel.Command) {
        deps.output.emit("button", ["role": command.role.rawValue, "press": command.kind == .long ? "long" : "short",
                                    "action": command.action.name])
        let now = deps.time.now()
        let pressedAt = MonotonicInstant(command.pressedAt)
        switch command.action {
        case .none:
            break
        case .snooze:
            if !runner.isRinging, stopRingTest() { break }  // a ring test has nothing to snooze: it just ends
            runner.snooze(by: .button, pressedAt: pressedAt, now)
        case .stop:
            if runner.isRinging {
                runner.stop(by: .button, pressedAt: pressedAt, now)
            } else if !stopRingTest() {
                radio.cancel(reason: "stop button", now)
            }
        case .playPause:
            guard !runner.isRinging else { return }  // an alarm is not paused by accident
            if !radio.cancel(reason: "play/pause button", now) {
                _ = try? radio.startSleep(duration: nil, source: nil, alarmRinging: false, now)
            }
        case .sleep(let minutes):
            if !runner.isRinging { radio.extendSleep(minutes: minutes, alarmRinging: false, now) }
        case .sleepCancel:
            radio.cancel(reason: "sleep-cancel button", now)
        case .volumeUp, .volumeDown:
            if !runner.isRinging { radio.adjustVolume(up: command.action == .volumeUp) }
        }
        publishLive()
    }

    /// A sustained shake (`ShakeDetector`).
    public func shake() {
        deps.output.emit("shake")
        runner.shake(deps.time.now())
        publishLive()
    }

    /// The network changed (the monitor looks every 30 s, for the log and the status).
    public func networkChanged(_ snapshot: NetworkSnapshot) {
        if let old = network, old != snapshot {
            let routes = snapshot.routes.map { "\($0.family.rawValue) via \($0.interface)\($0.isWireless ? " (wireless)" : "")" }
            deps.output.emit("network", ["routes": routes.isEmpty ? "none" : routes.joined(separator: ", ")])
        }
        network = snapshot
    }

    /// Says something on the daemon's output (an event line in JSON mode), e.g. where the web page listens.
    public func announce(_ event: String, _ fields: KeyValuePairs<String, (any Sendable)?>) {
        deps.output.emit(event, fields)
    }

    /// Sets (or clears) a standing warning shown by `status`.
    public func setWarning(_ key: String, _ text: String?, announce: Bool = true) {
        board.set(key, text, announce: announce)
        publishLive()
    }

    // MARK: Sound

    /// What the engine reported: to the part that owns the sound, and to a client following it.
    public func soundEvent(_ event: SoundEvent) {
        let now = deps.time.now()
        switch event {
        case .deviceOpened:
            board.set("sound", nil)
            markReady()
            runner.deviceEvent(event, now)
            radio.deviceEvent(event)
        case .deviceFailed(let problem):
            board.set("sound", "The sound device fails: \(problem) The clock keeps trying it.", announce: false)
            runner.deviceEvent(event, now)
            radio.deviceEvent(event)
        default:
            if let id = event.sound {
                if runner.owns(id) {
                    runner.soundEvent(event, now)
                } else if radio.owns(id) {
                    radio.soundEvent(event, now)
                } else if ringTest?.id == id {
                    ringTestEvent(event)
                }
            }
        }
        forward(event)
        publishLive()
    }

    private func forward(_ event: SoundEvent) {
        guard let id = event.sound else {
            for follower in followers.values { follower.yield(event) }
            return
        }
        followers[id]?.yield(event)
        if case .stopped = event {
            followers.removeValue(forKey: id)?.finish()
        }
    }

    private func markReady() {
        guard !deviceReady else { return }
        deviceReady = true
        onReady?(summary(deps.time.now()))
    }

    /// Whether the sound device has opened and taken a test write since start (R34).
    public var isReady: Bool { deviceReady }

    private func precheckFinished(id: Int64, occurrence: Date, failure: String?) {
        runner.precheckDone(id: id, occurrence: occurrence, failure: failure, deps.time.now())
        publishLive()
    }

    private func lookaheadFinished(id: Int64, occurrence: Date, failure: String?) {
        runner.lookaheadDone(id: id, occurrence: occurrence, failure: failure, deps.time.now())
        publishLive()
    }

    // MARK: Reload

    /// Reloads when another process committed to the database since the last look (a cheap read).
    func reloadIfChanged() {
        guard let version = try? deps.store.dataVersion() else { return }
        defer { lastDataVersion = version }
        if let last = lastDataVersion, last != version { reload() }
    }

    /// Re-reads alarms, stations, settings and programmes, and tells the parts what changed.
    func reload() {
        let loaded: StoredClock
        do throws(StoreError) { loaded = try deps.store.load() } catch {
            board.set("store", "The database cannot be read (\(error.description)); the alarms known before keep ringing.")
            return
        }
        let now = deps.time.now()
        let stationsChanged = Station.byID(loaded.stations) != catalogue.stations
        let settingsChanged = loaded.settings != catalogue.settings ? loaded.settings : nil
        catalogue.settings = loaded.settings
        catalogue.stations = Station.byID(loaded.stations)
        catalogue.programmes = loaded.programmes
        catalogue.calendarSources = loaded.calendarSources
        if loaded.daysOff != catalogue.daysOff {
            catalogue.daysOff = loaded.daysOff
            runner.scheduler.setDaysOff(DaysOff(loaded.daysOff))
        }
        runner.reload(alarms: loaded.alarms, settingsChanged: settingsChanged, stationsChanged: stationsChanged, now)
        afterAlarmActions(now)
        board.set("store", nil)
        refreshTokens()
        waker.wake()  // the next alarm may now be sooner than the loop's wake-up
        publishLive()
    }

    /// Reads the device tokens again (after a reload, a pairing, another process's `token new|revoke`).
    func refreshTokens() {
        guard let list = try? deps.store.tokens() else { return }
        tokens.replace(with: list)
    }

    /// Writes the token uses the registry noted (at most one per token an hour).
    private func noteTokenUses() {
        for (id, at) in tokens.takePendingUses() { try? deps.store.tokenUsed(id: id, at: at) }
    }

    /// Stops every sound (shutdown), and puts the screen's backlight back as it was found.
    public func shutdown() {
        runner.shutdown()
        display.restore()
        let now = deps.time.now()
        radio.cancel(reason: "the clock stopped", now)
        for follower in followers.values { follower.finish() }
        followers = [:]
        for subscriber in liveSubscribers.values { subscriber.finish() }
        liveSubscribers = [:]
    }
}
