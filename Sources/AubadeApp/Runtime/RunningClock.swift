public import AubadeCore
import AubadeSystemAsync
import Foundation
import Logging
import Synchronization

/// The running clock's shell: one actor on its own thread (`ClockExecutor`), and one way in, `send(_:)`. Every
/// input — a client's command from any face, a button or a shake, the engine's sound events, the scheduler loop's
/// turns — goes in there. The shell reads the world once (`WorldReading`), calls the clock's one decision,
/// `ClockState.reduce`, which never waits, and carries out the effects it returns in one place (`EffectRunner`:
/// commits on the store's own thread, bounded, then sounds, then lines, the second waker's files and background
/// checks). Slow work the decision hands off (an edit's commit, a download, the directory) is carried out by the
/// caller's task, off the clock, and what it finds is decided as an input of its own; answers are delivered by
/// ticket. The store is never called on the clock's thread without a bound: nothing it does can hold a ring back.
public actor RunningClock {
    nonisolated let executor: ClockExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    nonisolated let deps: ClockDependencies
    /// Everything the clock decides from.
    var state: ClockState
    let effectRunner: EffectRunner
    let worker: StoreWorker
    /// Runs the slow work the clock hands off, off its thread.
    nonisolated let workRunner: WorkRunner
    /// The link to the second waker (R35); nil when there is none (in-process tests).
    let handoff: (any WakerLink)?
    /// The screen's backlight, on its own thread: the clock hands it levels; a test waits for it to settle.
    public nonisolated let backlight: BacklightWriter
    /// The clients following a sound, and the live state's streams.
    let subscriptions = Subscriptions()
    /// The device tokens the HTTP API accepts, kept in step with the store (read without waiting for the clock).
    public nonisolated let tokens = TokenRegistry()
    /// Wakes the scheduler loop early: an edit may have brought the next alarm closer.
    public nonisolated let waker = LoopWaker()
    /// What the store's thread found when it looked at the database (changes by other processes, a replaced file).
    let storeWatch = StoreWatch()
    /// Answers given and not yet taken by their callers, by ticket.
    private var answers: [ClockTicket: Result<ClockOutput, ClockError>] = [:]

    /// A clock over `loaded` (the store's contents, or the backup copy's with `fault` saying why, R27).
    public init(loaded: StoredClock, deps: ClockDependencies, options: ClockOptions, fault: String? = nil) {
        executor = ClockExecutor()
        self.deps = deps
        worker = StoreWorker(deps.store)
        // An occurrence the second waker rang and a person ended there is not rung again (R35).
        let handoff = options.waker?()
        self.handoff = handoff
        let caps = ClockCapabilities(
            calendars: deps.calendars != nil, podcasts: deps.podcasts != nil, directory: deps.directory != nil,
            logos: deps.logos != nil, waker: handoff != nil, outputs: deps.outputs?.available ?? [], room: deps.room != nil,
            readOnlyReason: deps.store.readOnlyReason)
        workRunner = WorkRunner(
            worker: worker, calendars: deps.calendars, podcasts: deps.podcasts, directory: deps.directory, logos: deps.logos,
            caps: caps)
        // A write that starts or stops failing wakes the loop, whose turn shows or clears the warning.
        backlight = BacklightWriter(deps.backlight, changed: { [waker] in waker.wake() })
        state = ClockState(
            loaded: loaded, states: WakerPlanning.settle(loaded.states, by: handoff?.report()), options: options, caps: caps,
            world: RunningClock.read(deps), fault: fault)
        effectRunner = EffectRunner(
            worker: worker, sound: deps.sound, output: deps.output, time: deps.time, jobs: deps.jobs, handoff: handoff,
            checks: ClockChecks(precheck: deps.precheck, podcasts: deps.podcasts, directory: deps.directory, logger: deps.logger),
            backlight: backlight, tokens: tokens, waker: waker, outputs: deps.outputs, room: deps.room)
        effectRunner.onEvent = { [subscriptions] in subscriptions.tell($0) }
        effectRunner.report = { [weak self] input in _ = try? await self?.send(input) }
    }

    // MARK: The one way in

    /// Decides `input`, carries out its effects, and answers. Every face and service calls this and nothing else.
    ///
    /// The clock decides each input to the end without waiting (`ClockState.reduce`). Slow work it asks for is
    /// carried out here, by the caller's task, off the clock; what it finds is decided as an input of its own, with
    /// other inputs (an alarm's second, a button) decided in between. The caller is answered when the clock gives
    /// the answer its ticket waits for. A directory search touches no state of the clock and does not enter it.
    public nonisolated func send(_ input: ClockInput) async throws(ClockError) -> ClockOutput {
        if case .searchDirectory(let query) = input { return .directory(try await searchDirectory(query)) }
        let (reply, first) = await accept(input)
        var step = first
        // Until no work is left: work that follows the answer (a failed add's logo removed) also runs before the
        // caller goes on.
        while !step.work.isEmpty {
            let done = await carryOut(step.work)
            step.work = []
            for (ticket, result) in done {
                let next = await accept(.worked(ticket, result), reply: reply)
                step.answer = step.answer ?? next.answer
                step.work += next.work
            }
        }
        return try (step.answer ?? .success(.none)).get()
    }

    /// What deciding gave the caller waiting under a reply ticket: its answer, if given, and the work to carry out.
    struct Step: Sendable {
        var answer: Result<ClockOutput, ClockError>?
        var work: [(ClockTicket, ClockWork)]
    }

    /// Takes an input: what only the shell does with it (the callbacks of `start`, the streams), what is read of the
    /// world for it, then the decision.
    private func accept(_ input: ClockInput) -> (ClockTicket, Step) {
        let reply = state.ticket()
        switch input {
        case .start(let ringingChanged, let ready):
            effectRunner.ringingChanged = ringingChanged
            effectRunner.ready = ready
        case .subscribeLive:
            answers[reply] = .success(.live(liveUpdates()))
        case .subscribeHome:
            answers[reply] = .success(.home(homeUpdates()))
        default:
            break
        }
        switch input {
        case .turn, .command(.query, _), .stationLogo:
            // The database first (another process's commit, a replaced file, R27): a turn's ring commits to the file
            // that is there, a query answers from what another process committed.
            lookAtStore(tokens: false)
        default:
            break
        }
        var world = RunningClock.read(deps)
        switch input {
        case .turn:
            readWaker(&world)
            world.tokenUses = tokens.takePendingUses()
        case .command(.status, _):
            world.recentEvents = recentEvents()
            world.waker = handoff?.report()
        case .start:
            readWaker(&world)
        default:
            break
        }
        var step = accept(.input(input, reply: reply), reply: reply, world: world)
        switch input {
        case .start:
            lookAtStore(tokens: true)  // after the alarms (a ringing alarm resumes at once, R9): the tokens
        case .turn:
            answers[reply] = .success(.turn(turnAnswer()))
        case .command(_, follow: true):
            // A command that started a sound answers with its events too, registered before any can arrive.
            if case .success(.reply(.sound(let id, let label, let message), nil))? = step.answer {
                step.answer = .success(.reply(.sound(id, label: label, message: message), events: subscriptions.follow(id)))
            }
        case .shutdown:
            subscriptions.finishAll()
            worker.close()
        case .sound(let event):
            subscriptions.forward(event)
        default:
            break
        }
        if step.answer == nil { step.answer = answers.removeValue(forKey: reply) }
        return (reply, step)
    }

    /// Decides one arrival with the world as read now, and carries out its effects.
    private func accept(_ arrival: ClockState.Arrival, reply: ClockTicket, world: WorldReading? = nil) -> Step {
        var world = world ?? RunningClock.read(deps)
        world.backlight = backlight.takeOutcome()
        let effects = ClockState.reduce(&state, arrival, world)
        carryOut(effects)
        // After shutdown nothing new starts (the store's thread has ended); a caller still waiting is told so.
        guard !state.stopped else {
            pendingWork = []
            return Step(
                answer: answers.removeValue(forKey: reply) ?? .failure(ClockError(.failed, "The clock has stopped.")), work: [])
        }
        return Step(answer: answers.removeValue(forKey: reply), work: takeWork())
    }

    /// The one place effects are carried out; what carrying them out found (a commit that failed) is decided in
    /// turn, then the live state is published.
    private func carryOut(_ effects: [ClockEffect]) {
        var effects = effects
        repeat {
            // Run even with nothing to do: commits that came back are looked at, failed ones tried again.
            effectRunner.run(effects, alarms: Set(state.runner.scheduler.alarms.keys))
            let handoff = effectRunner.takeHandoff()
            for (ticket, answer) in handoff.answers { answers[ticket] = answer }
            pendingWork += handoff.work
            effects =
                handoff.warnings.isEmpty ? [] : ClockState.reduce(&state, .warnings(handoff.warnings), RunningClock.read(deps))
        } while !effects.isEmpty
        let now = deps.time.now()
        subscriptions.publish { state.liveState(now) }
        subscriptions.publishHome { state.homeState(now) }
    }

    private var pendingWork: [(ClockTicket, ClockWork)] = []

    private func takeWork() -> [(ClockTicket, ClockWork)] {
        defer { pendingWork = [] }
        return pendingWork
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

    /// A search of the public directory (`GET /directory/search`): it touches nothing of the clock, so it is asked
    /// without entering the clock, on a thread of its own (`deps.directory`); nothing is stored.
    nonisolated func searchDirectory(_ query: DirectoryQuery) async throws(ClockError) -> [DirectoryStation] {
        guard let directory = deps.directory else { throw ClockCapabilities.directoryOff }
        return try await runBlocking("aubade-directory") { () throws(ClockError) -> [DirectoryStation] in
            do throws(DirectoryError) { return try directory.search(query) } catch {
                throw ClockError(.upstream, error.message)
            }
        }
    }

    // MARK: Reading the world

    /// What is read for every input.
    private nonisolated static func read(_ deps: ClockDependencies) -> WorldReading {
        var random = SystemRandomNumberGenerator()
        return WorldReading(
            now: deps.time.now(), network: deps.network.current(), device: deps.sound.device,
            synchronised: deps.isClockSynchronised(), systemZone: deps.systemZone(), entropy: random.next())
    }

    /// The second waker's report if it changed since the last look — with the history's waker rings the first time
    /// (read on the store's thread, waited for at most `StoreWorker.bound`: a store that does not answer leaves the
    /// report to the next look).
    private func readWaker(_ world: inout WorldReading) {
        guard let handoff, let report = handoff.reportIfChanged() else { return }
        if state.runner.wakerRingsAbsorbed == nil {
            let since = world.now.wall.addingTimeInterval(-3 * 86_400)
            guard let events = worker.answer({ (try? $0.events(limit: 500, since: since)) ?? [] }) else {
                handoff.forgetLastLook()
                return
            }
            world.wakerHistory = events
        }
        world.wakerChanged = report
    }

    /// The morning report's events of the last day for `status`, waited for at most `StoreWorker.bound`: a stuck
    /// store leaves the report out, never the status (which is how a person finds out what rings).
    private func recentEvents() -> [HistoryEvent]? {
        let since = deps.time.now().wall.addingTimeInterval(-86_400)
        return worker.answer { (try? $0.events(limit: 500, since: since)) ?? [] }
    }

    /// Looks at the database on the store's thread (another process's commit, a file deleted, emptied or replaced,
    /// R27), waiting for the answer at most `StoreWorker.bound` — an answer that comes later is taken at the next
    /// look, and wakes the loop — and decides what it found. `tokens`: read the device tokens whatever changed.
    func lookAtStore(tokens: Bool) {
        let (watch, waker) = (storeWatch, self.waker)
        let ticket = worker.submit { store in
            if watch.look(store, tokens: tokens) { waker.wake() }
        }
        _ = worker.waitBounded(for: ticket)
        guard let look = storeWatch.take() else { return }
        _ = accept(.storeLooked(look), reply: state.ticket())
    }

    // MARK: Turns

    /// What a turn of the scheduler loop returns: when to come back, and a line for systemd's status.
    public struct Turn: Sendable {
        public var wakeAt: MonotonicInstant
        public var now: SchedulerTime
        public var summary: String
        /// Whether the sound device has opened and taken a test write since start (R34).
        public var ready: Bool
    }

    /// A turn's answer, once its effects have been carried out; a second while commits are still out.
    private func turnAnswer() -> Turn {
        let now = deps.time.now()
        var times = state.wakeTimes(now)
        if effectRunner.hasStoreWork { times.append(now.mono + .seconds(1)) }
        return Turn(wakeAt: times.min() ?? now.mono, now: now, summary: state.summary, ready: state.deviceReady)
    }

    // MARK: Streams

    /// The live state now, then every change of it (computed after each input; published only when something
    /// besides the time changed). Each subscriber gets its own stream that keeps only the newest few states, so a
    /// slow reader never holds the clock back; it ends when the clock shuts down or the subscriber stops listening.
    func liveUpdates() -> AsyncStream<LiveState> {
        subscriptions.subscribe(current: state.liveState(deps.time.now())) { [weak self] id in
            Task { await self?.unsubscribe(id) }
        }
    }

    /// The home state now, then every change of it and every event, in order (`HomeUpdate`): what the MQTT face
    /// follows. The stream keeps the newest `Subscriptions.homeBuffer` updates for a reader that lags, so it never
    /// holds the clock back; it ends when the clock shuts down or the reader stops listening.
    func homeUpdates() -> AsyncStream<HomeUpdate> {
        subscriptions.subscribeHome(current: state.homeState(deps.time.now())) { [weak self] id in
            Task { await self?.unsubscribe(id) }
        }
    }

    /// Ends the live or home stream `id` (its subscriber stopped listening).
    func unsubscribe(_ id: UUID) {
        subscriptions.unsubscribe(id)
    }

    /// How many streams follow the live state (for tests and the status).
    public var liveSubscriberCount: Int { subscriptions.liveCount }
}

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
