import AubadeCore
import Foundation
import Synchronization

/// Carries out the running clock's effects (`ClockEffect`) after each input — the one place that orders them:
/// - commits go to the store's own thread (`StoreWorker`), a run state and the history event that follows it in
///   one transaction (so a stop or a ring is one commit);
/// - a sound is told to the engine only after the commits before it returned (R9) — or after
///   `StoreWorker.bound`, whichever comes first: a store that cannot commit in time never holds a ring back; its
///   commit still runs, a failed state is tried again when the store next answers, and the clock says so;
/// - lines, the second waker's files and background work come after the sounds, in their order.
/// Not Sendable: the clock actor owns it and runs it on its own thread.
final class EffectRunner {
    let worker: StoreWorker
    let sound: any SoundPort
    let output: DaemonOutput
    let time: any ClockTime
    let jobs: any BackgroundJobs
    let handoff: (any WakerLink)?
    let checks: ClockChecks
    let backlight: BacklightWriter
    let tokens: TokenRegistry
    let waker: LoopWaker
    let outputs: (any OutputSwitches)?
    let room: (any RoomListener)?
    /// Where the clock's events go as they are carried out (every history line, and `tell`'s): its followers.
    var onEvent: (ClockEvent) -> Void = { _ in }
    /// Where a background check reports when it is done: the clock, as an input.
    var report: @Sendable (ClockInput) async -> Void = { _ in }
    /// Told when an alarm starts (true) or stops (false) sounding: the shake sensor is sampled only then.
    var ringingChanged: @Sendable (Bool) -> Void = { _ in }
    /// Told once the sound device has opened and taken a test write (R34), with the summary line.
    var ready: @Sendable (String) -> Void = { _ in }

    /// The work handed off, the answers given and the warnings found by the effects carried out since the last
    /// call, for the clock to take (`takeHandoff`): only the clock can start the one, deliver the next and decide
    /// the last.
    private var handedOff = Handoff()
    /// The alarms that exist as the effects run (a state saved for an alarm deleted meanwhile has no row to update:
    /// no warning).
    private var alarms: Set<Int64> = []

    /// Commits handed to the store whose outcome has not been looked at yet.
    private var inFlight: [Commit] = []
    /// Run states whose commit failed, by alarm: tried again when the store next answers (the newest one only).
    private var retries: [Int64: AlarmRunState] = [:]

    /// Whether commits are still out or waiting to be tried again: the scheduler loop comes back soon, to try.
    var hasStoreWork: Bool { !inFlight.isEmpty || !retries.isEmpty }

    /// How late a sound may begin before its `ringing` line and the history say it began late.
    static let lateAfter: TimeInterval = 1

    init(
        worker: StoreWorker, sound: any SoundPort, output: DaemonOutput, time: any ClockTime, jobs: any BackgroundJobs,
        handoff: (any WakerLink)?, checks: ClockChecks, backlight: BacklightWriter, tokens: TokenRegistry, waker: LoopWaker,
        outputs: (any OutputSwitches)?, room: (any RoomListener)? = nil
    ) {
        self.outputs = outputs
        self.room = room
        self.worker = worker
        self.sound = sound
        self.output = output
        self.time = time
        self.jobs = jobs
        self.handoff = handoff
        self.checks = checks
        self.backlight = backlight
        self.tokens = tokens
        self.waker = waker
    }

    /// A standing warning found while carrying out effects, for the clock to decide.
    struct Warning: Sendable {
        var key: String
        var text: String?
        var announce = true
    }

    /// Carries out `effects` in order; `alarms`: the alarms that exist now.
    func run(_ effects: [ClockEffect], alarms: Set<Int64>) {
        self.alarms = alarms
        collect()
        retry()
        var after: [ClockEffect] = []
        var index = effects.startIndex
        while index < effects.endIndex {
            let effect = effects[index]
            index += 1
            switch effect {
            case .save(let state):
                retries[state.alarmID] = nil
                if index < effects.endIndex, case .record(let event, let fields) = effects[index] {
                    index += 1
                    commit(.save(state, recording: event))
                    after.append(.record(event, fields: fields))
                } else {
                    commit(.save(state, recording: nil))
                }
            case .update(let alarm):
                commit(.update(alarm))
            case .record(let event, _):
                commit(.record(event))
                after.append(effect)
            case .tokenUsed(let id, let at):
                commit(.tokenUsed(id: id, at: at))
            case .sound(let command):
                settle()
                tell(command)
            case .ringingChanged(let ringing):
                ringingChanged(ringing)
            default:
                after.append(effect)
            }
        }
        settle()
        var more: [ClockEffect] = []
        for effect in after { carryOutAfter(effect, &more) }
        // What those asked for (a late ring's record) is carried out too.
        if !more.isEmpty { run(more, alarms: alarms) }
    }

    private func tell(_ command: SoundCommand) {
        switch command {
        case .play(let id, let request, let paused): sound.play(id, request, paused: paused)
        case .begin(let id): sound.begin(id)
        case .beginAt(let id, let instant): sound.begin(id, at: instant)
        case .stop(let id): sound.stop(id)
        case .volume(let id, let level): sound.setVolume(id, level)
        }
    }

    private func carryOutAfter(_ effect: ClockEffect, _ more: inout [ClockEffect]) {
        switch effect {
        case .record(let event, let fields):
            output.emit(event.kind, fields ?? ["alarm": event.alarmID, "detail": event.detail.isEmpty ? nil : event.detail])
            onEvent(.recorded(event))
        case .rang(let note):
            rang(note, &more)
        case .emit(let event, let fields):
            output.emit(event, fields)
        case .announce(let event, let fields):
            output.emit(event, pairs: fields.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
        case .waker(let write):
            guard let handoff else { return }
            switch write {
            case .publish(let entries, let now): handoff.publish(entries, now: now)
            case .note(let notes): handoff.note(notes)
            }
            warn("waker-files", handoff.problem)
        case .check(let check):
            let (checks, report) = (self.checks, self.report)
            jobs.submit { await report(await checks.run(check)) }
        case .countClick(let id):
            let checks = self.checks
            jobs.submit { await checks.countClick(id) }
        case .tell(let event):
            onEvent(event)
        case .work(let ticket, let work):
            handedOff.work.append((ticket, work))
        case .answer(let ticket, let answer):
            handedOff.answers.append((ticket, answer))
        case .tokens(let list):
            tokens.replace(with: list)
        case .wakeLoop:
            waker.wake()
        case .ready(let summary):
            ready(summary)
        case .backlight(let percent):
            backlight.set(percent: percent)
        case .restoreBacklight:
            backlight.restore()
        case .output(let name, let on):
            // A message to the outputs' own thread: nothing here waits for a line.
            outputs?.set(name, on: on)
        case .room(.arm):
            room?.arm()
        case .room(.disarm):
            room?.disarm()
        case .room(.listen(let id, let occurrence, let since)):
            // The verdict comes back as an input of its own, from the microphone's thread.
            let report = self.report
            room?.listen(since: since) { found in
                Task { await report(.roomHeard(alarmID: id, occurrence: occurrence, found)) }
            }
        case .room(.listenSelfTest(let started, let since)):
            let report = self.report
            room?.listen(since: since) { found in
                Task { await report(.selfTestHeard(started: started, found)) }
            }
        case .save, .update, .tokenUsed, .sound, .ringingChanged:
            break
        }
    }

    /// What the effects carried out since the last call handed off, answered and found.
    struct Handoff {
        var work: [(ClockTicket, ClockWork)] = []
        var answers: [(ClockTicket, Result<ClockOutput, ClockError>)] = []
        var warnings: [Warning] = []
    }

    func takeHandoff() -> Handoff {
        defer { handedOff = Handoff() }
        return handedOff
    }

    /// The warnings as last handed to the clock: only a change is handed again.
    private var reported: [String: String?] = [:]

    private func warn(_ key: String, _ text: String?, announce: Bool = true) {
        if let last = reported[key], last == text { return }
        reported[key] = .some(text)
        handedOff.warnings.append(Warning(key: key, text: text, announce: announce))
    }

    /// The `ringing` line; a sound that began later than `lateAfter` after its second says so (and why) in the
    /// line and the history, whatever the cause.
    private func rang(_ note: RingNote, _ more: inout [ClockEffect]) {
        let now = time.now().wall
        let lateBy = note.due.map { now.timeIntervalSince($0) } ?? 0
        let late = note.late || lateBy >= EffectRunner.lateAfter
        output.emit(
            "ringing",
            [
                "alarm": note.alarmID, "source": note.source, "cause": note.cause, "late": late,
                "late_s": lateBy >= EffectRunner.lateAfter ? (lateBy * 10).rounded() / 10 : nil,
                "occurrence": note.occurrence.timeIntervalSince1970,
            ])
        if !note.late, lateBy >= EffectRunner.lateAfter {
            more.append(
                .record(
                    HistoryEvent(
                        at: now, alarmID: note.alarmID, kind: HistoryKind.warning.rawValue,
                        detail: "The alarm began \(String(format: "%.1f", lateBy)) s after its time."), fields: nil))
        }
    }

    // MARK: Commits

    private enum Write: Sendable {
        case save(AlarmRunState, recording: HistoryEvent?)
        case update(Alarm)
        case record(HistoryEvent)
        case tokenUsed(id: Int64, at: Date)
    }

    /// A write handed to the store, and what it said.
    private struct Commit {
        let write: Write
        let ticket: StoreWorker.Ticket
        let outcome: Outcome
    }

    /// A commit's failure, carried from the store's thread back to the clock.
    private final class Outcome: Sendable {
        let failure = Mutex<StoreError?>(nil)
    }

    private func commit(_ write: Write) {
        let outcome = Outcome()
        let ticket = worker.submit { store in
            do throws(StoreError) {
                switch write {
                case .save(let state, let event): try store.save(state, recording: event)
                case .update(let alarm): try store.update(alarm)
                case .record(let event): try store.record(event)
                case .tokenUsed(let id, let at): try store.tokenUsed(id: id, at: at)
                }
            } catch {
                outcome.failure.withLock { $0 = error }
            }
        }
        inFlight.append(Commit(write: write, ticket: ticket, outcome: outcome))
    }

    /// Waits for the commits handed in so far — at most `StoreWorker.bound`, and not at all while the store is
    /// stuck — then says what they did.
    private func settle() {
        guard let last = inFlight.last, !last.ticket.isDone else { return collect() }
        if !worker.waitBounded(for: last.ticket) {
            warn(
                "store-slow",
                "The database did not answer within \(StoreWorker.bound.formatted()); the clock goes on without waiting for it, and saves when it answers."
            )
        }
        collect()
    }

    /// Looks at the commits that have returned: failures become warnings (and a failed state is tried again).
    private func collect() {
        var pending: [Commit] = []
        for commit in inFlight {
            guard commit.ticket.isDone else {
                pending.append(commit)
                continue
            }
            guard let error = commit.outcome.failure.withLock({ $0 }) else { continue }
            switch commit.write {
            case .save(let state, let event):
                if alarms.contains(state.alarmID) {
                    retries[state.alarmID] = state
                    warn("persist", "The alarm state could not be saved (\(error.description)).")
                }
                if event != nil { warn("history", "The event history could not be written (\(error.description)).") }
            case .update:
                warn("persist", "The alarm could not be saved (\(error.description)).")
            case .record:
                warn("history", "The event history could not be written (\(error.description)).")
            case .tokenUsed:
                break
            }
        }
        inFlight = pending
        if inFlight.isEmpty { warn("store-slow", nil, announce: false) }
    }

    /// Hands the failed states to the store again, once it answers.
    private func retry() {
        guard !retries.isEmpty, inFlight.isEmpty, !worker.isStalled else { return }
        let states = retries.values.sorted { $0.alarmID < $1.alarmID }
        retries = [:]
        for state in states where alarms.contains(state.alarmID) { commit(.save(state, recording: nil)) }
    }
}
