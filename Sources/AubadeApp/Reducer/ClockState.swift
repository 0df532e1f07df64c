import AubadeCore
import Foundation

/// Everything the running clock decides from, as one value: the alarms and their checks and pre-rolls
/// (`AlarmRunner`), the radio (`RadioPlayer`), reservations (`Reminders`), the kiosk's face (`KioskDisplay`), the
/// pre-alarm notices, the pairing code, a ring test, the refresh attempts, the slow work out (`awaiting`) — and the
/// context every part decides with (`ClockContext`: the catalogue, the warnings, the effects, the world's reading).
///
/// `reduce` is the clock's one decision: pure, it never waits, reads no clock and does no I/O. The shell
/// (`RunningClock`) reads the world, calls it once per input, and carries out the effects it returns.
struct ClockState {
    var context: ClockContext
    var runner: AlarmRunner
    var radio = RadioPlayer()
    var reminders = Reminders()
    var display: KioskDisplay
    var preAlarms: PreAlarmWatch
    var pairing = PairingDesk()
    /// The ring test sounding now, if any (a second one replaces it, as alarms replace each other).
    var ringTest: RingTestSound?
    /// The microphone's daily self-test (idle without a microphone).
    var selfTest: RoomSelfTest
    /// When each calendar source was last fetched or expanded again (`refreshCalendars`), kept in memory only.
    var calendarAttempts: [Int64: Date] = [:]
    /// When each podcast's feed was last tried (`refreshPodcasts`), by name, kept in memory only.
    var podcastAttempts: [String: Date] = [:]
    /// When the saved directory stations were last looked up (`refreshDirectoryStations`), kept in memory only.
    var directoryCheckedAt: Date?
    var network: NetworkSnapshot?
    /// Whether the sound device has opened and taken a test write since start (R34).
    var deviceReady = false
    /// What each piece of slow work out continues when its result comes back, by the work's ticket.
    var awaiting: [ClockTicket: Awaiting] = [:]
    /// The refresh turns under way, by their reply's ticket: what is left to do, one item after the other.
    var refreshing: [ClockTicket: RefreshRun] = [:]
    /// Set by shutdown: nothing new starts.
    var stopped = false

    /// The clock over `loaded` (the store's contents, or the backup copy's with `fault` saying why, R27); `states`:
    /// the alarms' run states as the second waker's report leaves them (R35).
    init(
        loaded: StoredClock, states: [AlarmRunState], options: ClockOptions, caps: ClockCapabilities, world: WorldReading,
        fault: String? = nil
    ) {
        context = ClockContext(options: options, caps: caps, world: world, catalogue: Catalogue(loaded))
        let scheduler = AlarmScheduler(
            alarms: loaded.alarms, states: states, settings: loaded.settings, defaultZone: options.defaultZone,
            alarmsUpdatedAt: loaded.alarmUpdateTimes, daysOff: DaysOff(loaded.daysOff), ladder: options.ladder,
            outputs: caps.outputs)
        runner = AlarmRunner(scheduler: scheduler)
        preAlarms = PreAlarmWatch(leadSeconds: options.preAlarmLeads)
        display = KioskDisplay(settings: loaded.settings.nightDimming, zone: options.defaultZone)
        selfTest = RoomSelfTest(
            schedule: caps.room ? options.selfTest : nil, lastVerdict: loaded.lastSelfTest, zone: options.defaultZone)
        for key in loaded.invalidSettings {
            context.warn("setting-\(key)", "The stored setting \(key) is invalid; its default is used.", announce: false)
        }
        if let fault { context.warn("store", fault, announce: false) }
    }

    /// What the clock decides from: an input from outside (answered under `reply`), what the store's thread found
    /// when it looked at the database, what a piece of slow work found, or what carrying out effects found (a
    /// commit that failed, the waker's files that cannot be written).
    enum Arrival {
        case input(ClockInput, reply: ClockTicket)
        case storeLooked(StoreWatch.Look)
        case worked(ClockTicket, WorkResult)
        case warnings([EffectRunner.Warning])
    }

    /// The clock's one decision: `arrival` decided on `state` with the world as `world` reads, to the end, without
    /// waiting; returns what it asks of the world, in order.
    static func reduce(_ state: inout ClockState, _ arrival: Arrival, _ world: WorldReading) -> [ClockEffect] {
        state.context.world = world
        state.decide(arrival)
        state.settle()
        return state.context.effects.take()
    }

    /// A new ticket for a reply the clock will owe.
    mutating func ticket() -> ClockTicket { context.effects.ticket() }

    var now: SchedulerTime { context.world.now }

    private mutating func decide(_ arrival: Arrival) {
        switch arrival {
        case .input(let input, let reply):
            if stopped, input.startsWork {
                return context.effects.append(.answer(reply, .failure(ClockError(.failed, "The clock has stopped."))))
            }
            do throws(ClockError) {
                if let output = try decide(input, reply: reply) { context.effects.append(.answer(reply, .success(output))) }
            } catch {
                context.effects.append(.answer(reply, .failure(error)))
            }
        case .storeLooked(let look):
            takeLook(look)
        case .worked(let ticket, let result):
            worked(ticket, result)
        case .warnings(let warnings):
            for w in warnings { context.warn(w.key, w.text, announce: w.announce) }
        }
    }

    /// Decides `input`: appends its effects, and returns its answer when it has one now (nil: an answer comes with
    /// the work it handed off, or — a turn — from the shell once its effects ran).
    private mutating func decide(_ input: ClockInput, reply: ClockTicket) throws(ClockError) -> ClockOutput? {
        switch input {
        case .start:
            start()
            return .reply(.done(summary), events: nil)
        case .turn:
            turn()
            return nil
        case .command(let command, _):
            return try handle(command, reply: reply).map { .reply($0, events: nil) }
        case .importCalendar(let url, let kind, let station):
            try importCalendar(from: url, kind: kind, station: station, reply: reply)
            return nil
        case .searchDirectory:
            return ClockOutput.none  // answered by the shell without entering the clock
        case .addFromDirectory(let id, let name):
            try addFromDirectory(id: id, name: name, reply: reply)
            return nil
        case .addPodcast(let feed, let name):
            try addPodcast(feed: feed, name: name, reply: reply)
            return nil
        case .stationLogo(let id):
            try stationLogo(id: id, reply: reply)
            return nil
        case .refreshCalendars:
            refreshCalendars(reply: reply)
            return nil
        case .refreshPodcasts:
            refreshPodcasts(reply: reply)
            return nil
        case .refreshDirectory:
            refreshDirectoryStations(reply: reply)
            return nil
        case .button(let command):
            button(command)
        case .shake:
            context.effects.emit("shake")
            runner.shake(now, &context)
        case .sound(let event):
            soundEvent(event)
            // Where listening to an episode got to, through the one edit path (a podcast removed meanwhile: nothing).
            for p in radio.takePositions() {
                edit(.podcastPosition(name: p.podcast, p.resume), reply: nil, then: .nothing)
            }
        case .stationChecked(let check, let id, let occurrence, let source, let failure):
            switch check {
            case .precheck:
                runner.precheckDone(id: id, occurrence: occurrence, source: source, failure: failure, now, &context)
            case .lookahead: runner.lookaheadDone(id: id, occurrence: occurrence, failure: failure, now, &context)
            }
        case .episodeChecked(let check, let id, let occurrence, let result):
            episodeChecked(check, id: id, occurrence: occurrence, result)
        case .network(let snapshot):
            networkChanged(snapshot)
        case .roomHeard(let id, let occurrence, let found):
            runner.roomHeard(id, occurrence: occurrence, found, now, &context)
        case .selfTestHeard(let started, let found):
            selfTest.heard(started: started, found, alarmNear: alarmNear, now, &context)
        case .warning(let key, let text, let announce):
            context.warn(key, text, announce: announce)
        case .announce(let event, let fields):
            context.effects.append(.announce(event, fields))
        case .subscribeLive, .subscribeHome:
            return nil  // the shell's: streams of what the clock decides
        case .shutdown:
            shutdown()
        }
        return ClockOutput.none
    }

    /// After every arrival: the radio gives way to a ringing alarm (R14: the clock's only copy of the rule — the
    /// engine has already pre-empted the radio's sound), and the screen follows.
    private mutating func settle() {
        if let ringing = runner.ringing { radio.giveWay(toAlarm: ringing.alarmID, now, &context) }
        if selfTest.running != nil, let other = soundingBesidesSelfTest {
            selfTest.giveWay(to: other, alarmNear: alarmNear, &context)
        }
        followDisplay()
    }

    // MARK: Start and turns

    /// Resumes a ringing alarm or a snooze (R9), catches up a recent missed one (R6); the rings the second waker made
    /// while the daemon was away go into the history.
    private mutating func start() {
        runner.absorbWakerRings(now, act: false, &context)
        runner.start(now, &context)
        _ = reminders.due(now.wall, zone: runner.scheduler.defaultZone, context.catalogue)
    }

    /// The scheduler loop's turn: the alarms act, the radio steps, due reservations start, the token uses are written.
    private mutating func turn() {
        runner.advance(now, &context)
        runner.absorbWakerRings(now, act: true, &context)
        radio.step(now, &context)
        preAlarms.turn(runner.scheduler, now.wall, &context)
        for start in reminders.due(now.wall, zone: runner.scheduler.defaultZone, context.catalogue) {
            if runner.isRinging {
                radio.reservationPassed(start, now, &context)
            } else {
                radio.reserve(start, alarmSounding: runner.isRinging, now, &context)
            }
        }
        for (id, at) in context.world.tokenUses.sorted(by: { $0.key < $1.key }) {
            context.effects.append(.tokenUsed(id: id, at: at))
        }
        if !stopped { selfTestTurn() }
    }

    /// When the loop must come back, as of `now` (after a turn's effects ran): the earliest of the alarms' and the
    /// radio's next steps and a minute from now (so a wall-clock step is noticed, R5).
    func wakeTimes(_ now: SchedulerTime) -> [MonotonicInstant] {
        var times = runner.nextWake(now, outputs: context.caps.outputs) + [now.mono + AlarmScheduler.stepCheckInterval]
        if let next = reminders.next(after: now.wall, zone: runner.scheduler.defaultZone, context.catalogue) {
            times.append(now.mono(at: next))
        }
        if let step = radio.nextStep(now) { times.append(step) }
        if let look = selfTest.nextWake(now) { times.append(look) }
        if let notice = preAlarms.next(runner.scheduler, now.wall) { times.append(now.mono(at: notice)) }
        if let expiry = pairing.valid(at: now.wall)?.expiresAt { times.append(now.mono(at: expiry)) }
        if let change = display.nextChange(now) { times.append(change) }
        return times
    }

    /// How many alarms are enabled, and the next one.
    var summary: String {
        let enabled = runner.scheduler.alarms.values.filter(\.enabled).count
        let next = runner.next.map { " — next \($0.instant.formatted(.iso8601))" } ?? ""
        return "\(enabled) alarm(s) enabled\(next)"
    }

    // MARK: Inputs

    /// A classified button press. Stop and Snooze take the same path as the clients' commands (`dismiss`); a
    /// press that began before the alarm started is ignored by the alarm engine itself (R15), which compares the
    /// press's kernel timestamp with the ring's start on the same `CLOCK_MONOTONIC` base.
    private mutating func button(_ command: ButtonPanel.Command) {
        context.effects.emit(
            "button",
            [
                "role": command.role.rawValue, "press": command.kind == .long ? "long" : "short",
                "action": command.action.name,
            ])
        let pressedAt = MonotonicInstant(command.pressedAt)
        // Any button answers a wake-up check's "Are you up?": a Stop or Snooze in the scheduler, the others here.
        switch command.action {
        case .none:
            if runner.asking { runner.personActed(now, by: .button, &context) }
        case .snooze:
            _ = try? dismiss(.snooze, alarm: nil, by: .button, pressedAt: pressedAt, idle: .nothing)
        case .stop:
            _ = try? dismiss(.stop, alarm: nil, by: .button, pressedAt: pressedAt, idle: .stopRadio)
        case .playPause:
            runner.personActed(now, by: .button, &context)
            guard !runner.isRinging else { return }  // an alarm is not paused by accident
            if !radio.cancel(reason: "play/pause button", now, &context) {
                _ = try? radio.startSleep(duration: nil, source: nil, alarmSounding: false, now, &context)
            }
        case .sleep(let minutes):
            runner.personActed(now, by: .button, &context)
            if runner.isRinging { return }
            radio.extendSleep(minutes: minutes, now, &context)
        case .sleepCancel:
            runner.personActed(now, by: .button, &context)
            radio.cancel(reason: "sleep-cancel button", now, &context)
        case .volumeUp, .volumeDown:
            // While an alarm rings, a button that does not stop or snooze it is a person awake: its ladder goes
            // back to its own sound (the alarm keeps its own level, R14, R18).
            runner.personActed(now, by: .button, &context)
            if runner.isRinging { return }
            radio.adjustVolume(up: command.action == .volumeUp, &context)
        }
    }

    /// The network changed (the monitor looks every 30 s, for the log and the status).
    private mutating func networkChanged(_ snapshot: NetworkSnapshot) {
        if let old = network, old != snapshot {
            let routes = snapshot.routes.map { "\($0.family.rawValue) via \($0.interface)\($0.isWireless ? " (wireless)" : "")" }
            context.effects.emit("network", ["routes": routes.isEmpty ? "none" : routes.joined(separator: ", ")])
        }
        network = snapshot
    }

    // MARK: Sound

    /// What the engine reported: to the part that owns the sound (the shell forwards it to a client following it).
    private mutating func soundEvent(_ event: SoundEvent) {
        switch event {
        case .deviceOpened:
            context.warn("sound", nil)
            if !deviceReady {
                deviceReady = true
                context.effects.append(.ready(summary))
            }
            runner.deviceEvent(event, now, &context)
            radio.deviceEvent(event, &context)
        case .deviceFailed(let problem):
            context.warn("sound", "The sound device fails: \(problem) The clock keeps trying it.", announce: false)
            runner.deviceEvent(event, now, &context)
            radio.deviceEvent(event, &context)
        default:
            if let id = event.sound {
                if runner.owns(id) {
                    runner.soundEvent(event, now, &context)
                } else if radio.owns(id) {
                    radio.soundEvent(event, now, &context)
                } else if ringTest?.id == id {
                    ringTestEvent(event)
                }
            }
        }
    }

    // MARK: The store

    /// What the store's thread found when it looked at the database (another process's commit, a file deleted,
    /// emptied or replaced, R27).
    private mutating func takeLook(_ look: StoreWatch.Look) {
        if let replaced = look.replaced {
            context.warn("restored", replaced)
            context.effects.record(.warning, at: now.wall, replaced)
        }
        if let loaded = look.loaded { reload(loaded) }
        if let list = look.tokens { context.effects.append(.tokens(list)) }
    }

    /// Runs on the clock the alarms, stations, settings and programmes `loaded` holds, telling the parts what
    /// changed; a store that could not be read leaves the clock on what it knew.
    mutating func reload(_ result: Result<StoredClock, StoreError>) {
        let loaded: StoredClock
        do throws(StoreError) { loaded = try result.get() } catch {
            context.warn("store", "The database cannot be read (\(error.description)); the alarms known before keep ringing.")
            return
        }
        var catalogue = context.catalogue
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
        context.catalogue = catalogue
        runner.reload(
            alarms: loaded.alarms, settingsChanged: settingsChanged, stationsChanged: stationsChanged, now, &context)
        context.warn("store", nil)
        context.effects.append(.wakeLoop)  // the next alarm may now be sooner than the loop's wake-up
    }

    /// Stops every sound (shutdown), and puts the screen's backlight back as it was found.
    private mutating func shutdown() {
        runner.shutdown(&context)
        selfTest.giveWay(to: "the clock stopped", alarmNear: alarmNear, &context)
        context.effects.append(.restoreBacklight)
        radio.cancel(reason: "the clock stopped", now, &context)
        stopped = true
    }

    /// The saved stations' names by id.
    var stationNames: [Int64: String] { context.catalogue.stations.mapValues(\.name) }
}

extension ClockInput {
    /// Whether deciding the input may start slow work (refused once the clock has stopped).
    fileprivate var startsWork: Bool {
        switch self {
        case .command, .importCalendar, .addFromDirectory, .addPodcast, .stationLogo, .refreshCalendars, .refreshPodcasts,
            .refreshDirectory:
            true
        default: false
        }
    }
}
