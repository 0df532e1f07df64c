public import AubadeCore
import Foundation
import Logging
import Synchronization

/// The running clock: one actor on its own thread (`ClockExecutor`), and one way in, `send(_:)`. Every input —
/// a client's command from any face, a button or a shake, the engine's sound events, the scheduler loop's turns,
/// what the store says — goes in there in arrival order; the clock's parts decide (`AlarmRunner`: the alarms and
/// their checks and pre-rolls; `RadioPlayer`: sleep timer, listening, reservations; `Reminders`; `KioskDisplay`;
/// `StatusBoard`), appending what they decide to an ordered list of effects (`ClockEffect`), and one
/// `EffectRunner` carries the list out when the input is decided: commits (on the store's own thread, bounded),
/// then sounds, then lines, the second waker's files and background work. The store is never called on the
/// clock's thread: nothing it does can hold a ring back.
public actor RunningClock {
    nonisolated let executor: ClockExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    let deps: ClockDependencies
    let options: ClockOptions
    let catalogue: Catalogue
    let board: StatusBoard
    let effects = Effects()
    let effectRunner: EffectRunner
    let worker: StoreWorker
    let runner: AlarmRunner
    let radio: RadioPlayer
    let reminders: Reminders
    let display: KioskDisplay
    /// The screen's backlight, on its own thread: `KioskDisplay` hands it levels; a test waits for it to settle.
    public nonisolated let backlight: BacklightWriter
    let preAlarms: PreAlarmWatch
    /// The clients following a sound, and the live state's streams.
    let subscriptions = Subscriptions()
    /// The ring test sounding now, if any (a second one replaces it, as alarms replace each other).
    var ringTest: RingTestSound?
    /// The device tokens the HTTP API accepts, kept in step with the store (read without waiting for the clock).
    public nonisolated let tokens = TokenRegistry()
    /// Wakes the scheduler loop early: an edit may have brought the next alarm closer.
    public nonisolated let waker = LoopWaker()
    let pairing = PairingDesk()
    /// When each calendar source was last fetched or expanded again (`refreshCalendars`), kept in memory only.
    var calendarAttempts: [Int64: Date] = [:]
    /// When each podcast's feed was last tried (`refreshPodcasts`), by name, kept in memory only.
    var podcastAttempts: [String: Date] = [:]
    /// When the saved directory stations were last looked up (`refreshDirectoryStations`), kept in memory only.
    var directoryCheckedAt: Date?
    /// What the store's thread found when it looked at the database (changes by other processes, a replaced file).
    let storeWatch = StoreWatch()
    private var network: NetworkSnapshot?
    /// What each piece of slow work out continues when its result comes back, by the work's ticket.
    var awaiting: [ClockTicket: Awaiting] = [:]
    /// The refresh turns under way, by their reply's ticket: what is left to do, one item after the other.
    var refreshing: [ClockTicket: RefreshRun] = [:]
    /// Answers given and not yet taken by their callers, by ticket.
    private var answers: [ClockTicket: Result<ClockOutput, ClockError>] = [:]
    /// Runs the slow work the clock hands off, off its thread.
    nonisolated let workRunner: WorkRunner
    /// Set once shutdown has been carried out: nothing new starts.
    private var stopped = false
    private var deviceReady = false
    private var onReady: (@Sendable (String) -> Void)?

    /// A clock over `loaded` (the store's contents, or the backup copy's with `fault` saying why, R27).
    public init(loaded: StoredClock, deps: ClockDependencies, options: ClockOptions, fault: String? = nil) {
        executor = ClockExecutor()
        self.deps = deps
        self.options = options
        catalogue = Catalogue(loaded)
        board = StatusBoard(effects: effects)
        worker = StoreWorker(deps.store)
        workRunner = WorkRunner(
            worker: worker, calendars: deps.calendars, podcasts: deps.podcasts, directory: deps.directory, logos: deps.logos,
            readOnlyReason: deps.store.readOnlyReason)
        effectRunner = EffectRunner(
            worker: worker, sound: deps.sound, output: deps.output, time: deps.time,
            jobs: deps.jobs, board: board)
        // An occurrence the second waker rang and a person ended there is not rung again (R35).
        let handoff = options.waker?()
        effectRunner.handoff = handoff
        let scheduler = AlarmScheduler(
            alarms: loaded.alarms, states: WakerPlanning.settle(loaded.states, by: handoff?.report()),
            settings: loaded.settings, defaultZone: options.defaultZone,
            alarmsUpdatedAt: loaded.alarmUpdateTimes, daysOff: DaysOff(loaded.daysOff))
        runner = AlarmRunner(
            scheduler: scheduler, deps: deps, options: options, catalogue: catalogue, effects: effects,
            board: board)
        runner.handoff = handoff
        radio = RadioPlayer(deps: deps, options: options, catalogue: catalogue, effects: effects, board: board)
        reminders = Reminders(catalogue: catalogue)
        preAlarms = PreAlarmWatch(leadSeconds: options.preAlarmLeads, effects: effects)
        // A write that starts or stops failing wakes the loop, whose turn shows or clears the warning.
        backlight = BacklightWriter(deps.backlight, changed: { [waker] in waker.wake() })
        display = KioskDisplay(
            settings: loaded.settings.nightDimming, zone: options.defaultZone, writer: backlight, board: board,
            effects: effects)
        for key in loaded.invalidSettings {
            board.set("setting-\(key)", "The stored setting \(key) is invalid; its default is used.", announce: false)
        }
        if let fault { board.set("store", fault, announce: false) }
        effectRunner.alarmExists = { [runner] in runner.scheduler.alarms[$0] != nil }
        effectRunner.onEvent = { [subscriptions] in subscriptions.tell($0) }
        radio.alarmSounding = { [runner] in runner.isRinging }
        radio.clicks = DirectoryClicks(directory: deps.directory, effects: effects, logger: deps.logger)
    }

    // MARK: The one way in

    /// Decides `input`, carries out its effects, and answers. Every face and service calls this and nothing else.
    ///
    /// The clock decides each input to the end without waiting for anything (`accept`). Slow work it asks for — an
    /// edit's commit, a download, the directory — is handed back here and carried out by this caller's task, off the
    /// clock; what it finds is decided as an input of its own (`Arrival.worked`), with other inputs (an alarm's
    /// second, a button) decided in between. The caller is answered when the clock gives the answer its ticket waits
    /// for. A directory search touches no state of the clock and does not enter it at all.
    public nonisolated func send(_ input: ClockInput) async throws(ClockError) -> ClockOutput {
        if case .searchDirectory(let query) = input { return .directory(try await searchDirectory(query)) }
        let (reply, first) = await accept(input)
        var step = first
        while step.answer == nil, !step.work.isEmpty {
            let done = await carryOut(step.work)
            step = Step(answer: nil, work: [])
            for (ticket, result) in done {
                let next = await accept(.worked(ticket, result), reply: reply)
                step.answer = step.answer ?? next.answer
                step.work += next.work
            }
        }
        // Work that only follows the answer (a failed add's logo removed) still runs before the caller goes on.
        while !step.work.isEmpty {
            let done = await carryOut(step.work)
            step.work = []
            for (ticket, result) in done { step.work += await accept(.worked(ticket, result), reply: reply).work }
        }
        return try (step.answer ?? .success(.none)).get()
    }

    /// What the clock decides from: an input from outside, or what a piece of slow work it handed off found.
    enum Arrival {
        case input(ClockInput)
        case worked(ClockTicket, WorkResult)
    }

    /// What deciding an arrival gave the caller waiting under `reply`: its answer, if given, and the work to carry
    /// out.
    struct Step: Sendable {
        var answer: Result<ClockOutput, ClockError>?
        var work: [(ClockTicket, ClockWork)]
    }

    /// Decides an input under a new reply ticket.
    private func accept(_ input: ClockInput) -> (ClockTicket, Step) {
        let reply = effects.ticket()
        return (reply, accept(.input(input), reply: reply))
    }

    /// Decides one arrival — never waiting — then carries out its effects, in the one place they run (`settle`).
    private func accept(_ arrival: Arrival, reply: ClockTicket) -> Step {
        switch arrival {
        case .input(let input):
            do throws(ClockError) {
                if let output = try decide(input, reply: reply) { effects.append(.answer(reply, .success(output))) }
            } catch {
                effects.append(.answer(reply, .failure(error)))
            }
        case .worked(let ticket, let result):
            worked(ticket, result)
        }
        settle()
        let handoff = effectRunner.takeHandoff()
        for (ticket, answer) in handoff.answers { answers[ticket] = answer }
        if case .input(.turn) = arrival { answers[reply] = .success(.turn(turnAnswer())) }
        if case .input(.shutdown) = arrival { closeDown() }
        // After shutdown nothing new is started (the store's thread has ended); a caller still waiting is told.
        guard !stopped else {
            return Step(
                answer: answers.removeValue(forKey: reply) ?? .failure(ClockError(.failed, "The clock has stopped.")), work: [])
        }
        return Step(answer: answers.removeValue(forKey: reply), work: handoff.work)
    }

    /// Carries out slow work off the clock, all of it at once, and returns what each piece found.
    private nonisolated func carryOut(_ work: [(ClockTicket, ClockWork)]) async -> [(ClockTicket, WorkResult)] {
        let runner = workRunner
        return await withTaskGroup(of: (ClockTicket, WorkResult).self) { group in
            for (ticket, item) in work { group.addTask { (ticket, await runner.perform(item)) } }
            var done: [(ClockTicket, WorkResult)] = []
            for await result in group { done.append(result) }
            return done.sorted { $0.0 < $1.0 }
        }
    }

    /// Decides `input`: appends its effects, and returns its answer when it has one now (nil: an answer comes with
    /// the work it handed off, or the input has none).
    private func decide(_ input: ClockInput, reply: ClockTicket) throws(ClockError) -> ClockOutput? {
        let now = deps.time.now()
        switch input {
        case .start(let ringingChanged, let ready):
            start(ringingChanged: ringingChanged, ready: ready)
            return .reply(.done(summary(now)), events: nil)
        case .turn:
            turn()
        case .command(let command, let follow):
            return try handle(command, follow: follow, reply: reply)
        case .importCalendar(let url, let kind, let station):
            try importCalendar(from: url, kind: kind, station: station, reply: reply)
        case .searchDirectory:
            break  // answered by `send` without entering the clock
        case .addFromDirectory(let id, let name):
            try addFromDirectory(id: id, name: name, reply: reply)
        case .addPodcast(let feed, let name):
            try addPodcast(feed: feed, name: name, reply: reply)
        case .stationLogo(let id):
            try stationLogo(id: id, reply: reply)
        case .refreshCalendars:
            refreshCalendars(reply: reply)
        case .refreshPodcasts:
            refreshPodcasts(reply: reply)
        case .refreshDirectory:
            refreshDirectoryStations(reply: reply)
        case .button(let command):
            button(command)
        case .shake:
            effects.emit("shake")
            runner.shake(now)
        case .sound(let event):
            soundEvent(event)
            // Where listening to an episode got to, through the one edit path (a podcast removed meanwhile: nothing).
            for p in radio.takePositions() {
                edit(.podcastPosition(name: p.podcast, p.resume), reply: nil, then: .nothing)
            }
        case .stationChecked(let check, let id, let occurrence, let source, let failure):
            switch check {
            case .precheck:
                runner.precheckDone(id: id, occurrence: occurrence, source: source, failure: failure, now)
            case .lookahead: runner.lookaheadDone(id: id, occurrence: occurrence, failure: failure, now)
            }
        case .episodeChecked(let check, let id, let occurrence, let result):
            episodeChecked(check, id: id, occurrence: occurrence, result)
        case .network(let snapshot):
            networkChanged(snapshot)
        case .warning(let key, let text, let announce):
            board.set(key, text, announce: announce)
        case .announce(let event, let fields):
            deps.output.emit(event, pairs: fields.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
        case .subscribeLive:
            return .live(liveUpdates())
        case .subscribeHome:
            return .home(homeUpdates())
        case .shutdown:
            shutdown()
        }
        return input.answeredLater ? nil : ClockOutput.none
    }

    /// After every arrival, the one place effects are carried out: the radio gives way to a ringing alarm (R14: the
    /// clock's only copy of the rule — the engine has already pre-empted the radio's sound), the screen follows, the
    /// effects run, then the live state is published.
    private func settle() {
        let now = deps.time.now()
        if let ringing = runner.ringing { radio.giveWay(toAlarm: ringing.alarmID, now) }
        followDisplay(now)
        effectRunner.run(effects)
        let after = deps.time.now()
        publishLive(after)
        publishHome(after)
    }

    // MARK: Start and turns

    private func start(ringingChanged: @escaping @Sendable (Bool) -> Void, ready: @escaping @Sendable (String) -> Void) {
        runner.ringingChanged = ringingChanged
        runner.episodeChecked = { [weak self] check, id, occurrence, result in
            _ = try? await self?.send(.episodeChecked(check, alarm: id, occurrence: occurrence, result))
        }
        runner.stationChecked = { [weak self] check, id, occurrence, source, failure in
            _ = try? await self?.send(
                .stationChecked(check, alarm: id, occurrence: occurrence, sound: source, failure: failure))
        }
        onReady = ready
        let now = deps.time.now()
        // The alarms first (a ringing alarm resumes at once, R9); then a look at the store for the tokens.
        runner.absorbWakerRings(now, act: false, store: worker)
        runner.start(now)
        _ = reminders.due(now.wall, zone: runner.scheduler.defaultZone)
        lookAtStore(now, tokens: true)
        // READY comes with the engine's `deviceOpened` (its test write taken), delivered by `SoundEventService`
        // inside the running `ServiceGroup` — so by then SIGTERM is handled gracefully too.
    }

    /// What a turn of the scheduler loop returns: when to come back, and a line for systemd's status.
    public struct Turn: Sendable {
        public var wakeAt: MonotonicInstant
        public var now: SchedulerTime
        public var summary: String
        /// Whether the sound device has opened and taken a test write since start (R34).
        public var ready: Bool
    }

    /// The scheduler loop's turn: the store is looked at for other processes' commits and a file deleted, emptied
    /// or replaced (R27, so that the ring's commit goes to the file that is there) — waiting for it at most
    /// `StoreWorker.bound`, and not at all while it is stuck; then the alarms act, the radio steps, due
    /// reservations start. Returns when to come back: the earliest of the alarms' and the radio's next steps and a
    /// minute from now (so a wall-clock step is noticed, R5).
    private func turn() {
        lookAtStore(deps.time.now(), tokens: false)
        let now = deps.time.now()
        runner.advance(now)
        runner.absorbWakerRings(now, act: true, store: worker)
        radio.step(now)
        preAlarms.turn(runner.scheduler, now.wall)
        for start in reminders.due(now.wall, zone: runner.scheduler.defaultZone) {
            if runner.isRinging {
                radio.reservationPassed(start, now)
            } else {
                radio.reserve(start, now)
            }
        }
        noteTokenUses()
    }

    /// A turn's answer, once its effects have been carried out: the earliest of the alarms' and the radio's next
    /// steps and a minute from now (so a wall-clock step is noticed, R5); a second while commits are still out.
    private func turnAnswer() -> Turn {
        let now = deps.time.now()
        var times = runner.nextWake(now) + [now.mono + AlarmScheduler.stepCheckInterval]
        if let next = reminders.next(after: now.wall, zone: runner.scheduler.defaultZone) { times.append(now.mono(at: next)) }
        if let step = radio.nextStep(now) { times.append(step) }
        if let notice = preAlarms.next(runner.scheduler, now.wall) { times.append(now.mono(at: notice)) }
        if let expiry = pairing.valid(at: now.wall)?.expiresAt { times.append(now.mono(at: expiry)) }
        if let change = display.nextChange(now) { times.append(change) }
        if effectRunner.hasStoreWork { times.append(now.mono + .seconds(1)) }
        return Turn(wakeAt: times.min() ?? now.mono, now: now, summary: summary(now), ready: deviceReady)
    }

    /// How many alarms are enabled, and the next one.
    func summary(_ now: SchedulerTime) -> String {
        let enabled = runner.scheduler.alarms.values.filter(\.enabled).count
        let next = runner.next.map { " — next \($0.instant.formatted(.iso8601))" } ?? ""
        return "\(enabled) alarm(s) enabled\(next)"
    }

    // MARK: Inputs

    /// A classified button press. Stop and Snooze take the same path as the clients' commands (`dismiss`); a
    /// press that began before the alarm started is ignored by the alarm engine itself (R15), which compares the
    /// press's kernel timestamp with the ring's start on the same `CLOCK_MONOTONIC` base.
    private func button(_ command: ButtonPanel.Command) {
        effects.emit(
            "button",
            [
                "role": command.role.rawValue, "press": command.kind == .long ? "long" : "short",
                "action": command.action.name,
            ])
        let now = deps.time.now()
        let pressedAt = MonotonicInstant(command.pressedAt)
        switch command.action {
        case .none:
            break
        case .snooze:
            _ = try? dismiss(.snooze, alarm: nil, by: .button, pressedAt: pressedAt, idle: .nothing, now)
        case .stop:
            _ = try? dismiss(.stop, alarm: nil, by: .button, pressedAt: pressedAt, idle: .stopRadio, now)
        case .playPause:
            guard !runner.isRinging else { return }  // an alarm is not paused by accident
            if !radio.cancel(reason: "play/pause button", now) {
                _ = try? radio.startSleep(duration: nil, source: nil, now)
            }
        case .sleep(let minutes):
            if !runner.isRinging { radio.extendSleep(minutes: minutes, now) }
        case .sleepCancel:
            radio.cancel(reason: "sleep-cancel button", now)
        case .volumeUp, .volumeDown:
            if !runner.isRinging { radio.adjustVolume(up: command.action == .volumeUp) }
        }
    }

    /// The network changed (the monitor looks every 30 s, for the log and the status).
    private func networkChanged(_ snapshot: NetworkSnapshot) {
        if let old = network, old != snapshot {
            let routes = snapshot.routes.map { "\($0.family.rawValue) via \($0.interface)\($0.isWireless ? " (wireless)" : "")" }
            effects.emit("network", ["routes": routes.isEmpty ? "none" : routes.joined(separator: ", ")])
        }
        network = snapshot
    }

    // MARK: Sound

    /// What the engine reported: to the part that owns the sound, and to a client following it.
    private func soundEvent(_ event: SoundEvent) {
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
        subscriptions.forward(event)
    }

    private func markReady() {
        guard !deviceReady else { return }
        deviceReady = true
        onReady?(summary(deps.time.now()))
    }

    // MARK: The store

    /// Looks at the database on the store's thread (another process's commit, a file deleted, emptied or replaced,
    /// R27), waiting for the answer at most `StoreWorker.bound` — an answer that comes later is taken at the next
    /// input, and wakes the loop. `tokens`: read the device tokens whatever changed (at start).
    func lookAtStore(_ now: SchedulerTime, tokens: Bool) {
        let (watch, waker) = (storeWatch, self.waker)
        let ticket = worker.submit { store in
            if watch.look(store, tokens: tokens) { waker.wake() }
        }
        _ = worker.waitBounded(for: ticket)
        takeLook(now)
    }

    /// Takes what the store's thread found, if anything.
    func takeLook(_ now: SchedulerTime) {
        guard let look = storeWatch.take() else { return }
        if let replaced = look.replaced {
            board.set("restored", replaced)
            effects.record(.warning, at: now.wall, replaced)
        }
        if let loaded = look.loaded { reload(loaded, now) }
        if let list = look.tokens { self.tokens.replace(with: list) }
    }

    /// Runs on the clock the alarms, stations, settings and programmes `loaded` holds, telling the parts what
    /// changed; a store that could not be read leaves the clock on what it knew.
    func reload(_ result: Result<StoredClock, StoreError>, _ now: SchedulerTime) {
        let loaded: StoredClock
        do throws(StoreError) { loaded = try result.get() } catch {
            board.set("store", "The database cannot be read (\(error.description)); the alarms known before keep ringing.")
            return
        }
        let stationsChanged = Station.byID(loaded.stations) != catalogue.stations
        let settingsChanged = loaded.settings != catalogue.settings ? loaded.settings : nil
        catalogue.settings = loaded.settings
        catalogue.stations = Station.byID(loaded.stations)
        catalogue.programmes = loaded.programmes
        catalogue.calendarSources = loaded.calendarSources
        // An alarm's pre-roll plays the episode its pre-check downloaded: a podcast read again changes no plan.
        catalogue.podcasts = loaded.podcasts
        if loaded.daysOff != catalogue.daysOff {
            catalogue.daysOff = loaded.daysOff
            runner.scheduler.setDaysOff(DaysOff(loaded.daysOff))
        }
        runner.reload(alarms: loaded.alarms, settingsChanged: settingsChanged, stationsChanged: stationsChanged, now)
        board.set("store", nil)
        waker.wake()  // the next alarm may now be sooner than the loop's wake-up
    }

    /// Writes the token uses the registry noted (at most one per token an hour).
    private func noteTokenUses() {
        for (id, at) in tokens.takePendingUses() { effects.append(.tokenUsed(id: id, at: at)) }
    }

    /// Stops every sound (shutdown), and puts the screen's backlight back as it was found.
    private func shutdown() {
        runner.shutdown()
        display.restore()
        radio.cancel(reason: "the clock stopped", deps.time.now())
    }

    /// Once shutdown's effects have been carried out: the streams end, the store's thread ends, and nothing new is
    /// started.
    private func closeDown() {
        subscriptions.finishAll()
        worker.close()
        stopped = true
    }
}

extension ClockInput {
    /// Whether the answer comes after deciding: with the work the input handed off, or (a turn) once its effects ran.
    fileprivate var answeredLater: Bool {
        switch self {
        case .turn, .command, .importCalendar, .addFromDirectory, .addPodcast, .stationLogo, .refreshCalendars,
            .refreshPodcasts, .refreshDirectory, .searchDirectory:
            true
        default: false
        }
    }
}

/// What the store's thread found when it looked at the database, kept until the clock takes it. Thread-safe.
final class StoreWatch: Sendable {
    struct Look: Sendable {
        var replaced: String?
        var loaded: Result<StoredClock, StoreError>?
        var tokens: [AccessToken]?
    }

    private let state = Mutex<(version: Int64?, found: Look?)>((nil, nil))

    /// On the store's thread: the file's identity and SQLite's `data_version`; everything read again when either
    /// moved since the last look (the first look only notes them). True when there is something to take.
    func look(_ store: any ClockStore, tokens: Bool) -> Bool {
        let replaced = store.checkFile()
        let version = try? store.dataVersion()
        let moved = state.withLock { s -> Bool in
            defer { if let version { s.version = version } }
            guard let version, let last = s.version else { return false }
            return last != version
        }
        guard replaced != nil || moved || tokens else { return false }
        var look = Look(replaced: replaced)
        if replaced != nil || moved {
            do throws(StoreError) { look.loaded = .success(try store.load()) } catch { look.loaded = .failure(error) }
        }
        look.tokens = try? store.tokens()
        state.withLock { $0.found = look }
        return true
    }

    func take() -> Look? {
        state.withLock { s in
            defer { s.found = nil }; return s.found
        }
    }
}
