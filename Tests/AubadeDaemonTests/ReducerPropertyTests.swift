import AubadeAppTesting
import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import PropertyBased
import Testing

@testable import AubadeApp

/// The clock's one decision, `ClockState.reduce`, driven without its shell by random sequences of inputs — turns of
/// the scheduler loop, Stop and Snooze, alarms added and removed by a phone, changes of network — while the work
/// those edits hand off comes back late, out of order, failed, or twice. Each edit's work is carried out on a real
/// store (a SQLite file), as the shell would. Checked against a small reference model of which occurrences must
/// ring:
/// - an alarm the clock knows rings exactly once per occurrence, at the turn that reaches its second, and never
///   after the clock learned it was removed;
/// - a Stop always silences, whatever is in flight;
/// - every edit is answered exactly once, when its work comes back;
/// - no piece of work is handed off twice, and a result that comes back twice is acted on once.
@Suite("The clock's decision: property tests against a reference model")
struct ReducerPropertyTests {
    /// One morning written out: an alarm rings and is stopped while an edit adding another is out; the edit comes
    /// back and its alarm rings in turn.
    @Test func aStopWhileAnEditIsOutAndTheAddedAlarmRingsAfter() throws {
        var run = try ReducerRun(
            Morning(
                alarms: [(7, 0), (7, 10)],
                steps: [
                    .wait(seconds: 60), .toNextOccurrence, .add(minutesAhead: 7), .stop, .complete(pick: 0, fails: false),
                    .toNextOccurrence,
                ]))
        try run.play()
        #expect(run.seen["stopped a ring"] == 1 && run.seen["edit answered"] == 1)
        #expect(run.rings.keys.sorted() == ["1@1795503600", "2@1795504200", "3@1795504020"])
    }

    @Test("random mornings of buttons, edits in flight and late results keep the clock's promises")
    func randomMorningsKeepThePromises() async throws {
        var seen: [String: Int] = [:]
        await propertyCheck(count: 60, input: Morning.generator) { morning in
            var run = try ReducerRun(morning)
            try run.play()
            for (key, count) in run.seen { seen[key, default: 0] += count }
        }
        // The mornings must exercise every path, or the agreement above proves little.
        for key in [
            "rang", "stopped a ring", "snoozed", "edit answered", "edit failed", "late result", "duplicate result",
            "ring while an edit was out", "alarm added", "alarm removed",
        ] {
            #expect(seen[key, default: 0] >= 3, "\(key) happened \(seen[key, default: 0]) times: \(seen)")
        }
    }
}

/// One simulated morning: the alarms at the start, and what happens, in order.
struct Morning: CustomStringConvertible, Sendable {
    enum Step: Sendable {
        /// The clock's time moves on by `seconds` and the loop takes its turn.
        case wait(seconds: Int)
        /// The loop's turn exactly at the next occurrence of any alarm.
        case toNextOccurrence
        case stop, snooze
        /// A phone adds an alarm `minutesAhead` from now.
        case add(minutesAhead: Int)
        /// A phone removes the `slot`-th alarm the clock knows (wrapping).
        case remove(slot: Int)
        /// The oldest work still out (or the `pick`-th, out of order) comes back; `fails`: the store refused it.
        case complete(pick: Int, fails: Bool)
        /// A result that already came back comes back again.
        case duplicate
        case network(wired: Bool)
    }

    var alarms: [(hour: Int, minute: Int)]
    var steps: [Step]

    var description: String { "alarms \(alarms), \(steps.count) steps: \(steps)" }

    static let generator = Generator<Morning, Shrink.None<Morning>> { rng in
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        var minutes = Set<Int>()
        while minutes.count < int(1...3) { minutes.insert(int(0...40) + 6 * 60 + 55) }  // 06:55 to 07:35
        var steps: [Step] = []
        for _ in 0..<int(60...140) {
            switch int(0...19) {
            case 0...6: steps.append(.wait(seconds: int(1...90)))
            case 7...8: steps.append(.toNextOccurrence)
            case 9...10: steps.append(.stop)
            case 11: steps.append(.snooze)
            case 12...13: steps.append(.add(minutesAhead: int(6...30)))
            case 14: steps.append(.remove(slot: int(0...5)))
            case 15...17: steps.append(.complete(pick: int(0...3), fails: int(0...5) == 0))
            case 18: steps.append(.duplicate)
            default: steps.append(.network(wired: int(0...1) == 0))
            }
        }
        return Morning(alarms: minutes.sorted().map { ($0 / 60, $0 % 60) }, steps: steps)
    }
}

/// Plays a morning through `ClockState.reduce` and checks every step.
struct ReducerRun {
    let morning: Morning
    let dir: TemporaryDirectory
    let store: SQLiteClockStore
    var state: ClockState
    var wall: Date
    var mono: MonotonicInstant
    var network = ClockRig.wifi
    /// Work handed off and not yet come back, in the order it was handed off.
    var outstanding: [(ClockTicket, ClockWork)] = []
    /// Results that came back (kept to send again).
    var delivered: [(ClockTicket, WorkResult)] = []
    var workTickets: Set<ClockTicket> = []
    /// The edits waiting for their answer, by reply ticket, and how many answers each reply got.
    var editReplies: Set<ClockTicket> = []
    var answers: [ClockTicket: Int] = [:]
    /// The sounds the clock started.
    var sounds: Set<SoundID> = []
    /// Each scheduled ring, by alarm and occurrence: how many times, and when it was decided.
    var rings: [String: (count: Int, at: Date)] = [:]
    /// The reference model: when the clock learned each alarm, when a removal of it was first asked (whether or not
    /// that one came through: from then on an occurrence may or may not ring), and when it was removed.
    var knownSince: [Int64: Date] = [:]
    var removing: [Int64: Date] = [:]
    var removed: [Int64: Date] = [:]
    /// Every alarm the store saved, as it saved it.
    var rules: [Int64: Alarm] = [:]
    var seen: [String: Int] = [:]
    /// What happened, for a failure's message.
    var log: [(Date, String)] = []

    static let start = ClockRig.at(6, 50)
    static let utc = TimeZone(identifier: "UTC") ?? .gmt

    init(_ morning: Morning) throws {
        self.morning = morning
        dir = try TemporaryDirectory("reducer-property")
        let start = ReducerRun.start
        let file = try Store.open(path: dir.file("aubade.sqlite"), now: { start })
        for (i, a) in morning.alarms.enumerated() { _ = try file.insert(ClockRig.alarm(Int64(i + 1), a.hour, a.minute)) }
        store = SQLiteClockStore(file)
        wall = start
        mono = MonotonicInstant(seconds: 1_000_000)
        let loaded = try store.load()
        let options = ClockOptions(allowLoopback: true, defaultZone: ReducerRun.utc, followsSystemZone: false)
        let caps = ClockCapabilities(calendars: false, podcasts: false, directory: false, logos: false, waker: false)
        state = ClockState(
            loaded: loaded, states: loaded.states, options: options, caps: caps,
            world: WorldReading(
                now: SchedulerTime(wall: start, mono: mono), network: ClockRig.wifi,
                device: DeviceStatus(isOpen: true, name: "fake", problem: nil, opens: 1), synchronised: true,
                systemZone: ReducerRun.utc, entropy: 42))
        for alarm in loaded.alarms {
            knownSince[alarm.id!] = start
            rules[alarm.id!] = alarm
        }
    }

    var world: WorldReading {
        WorldReading(
            now: SchedulerTime(wall: wall, mono: mono), network: network,
            device: DeviceStatus(isOpen: true, name: "fake", problem: nil, opens: 1), synchronised: true,
            systemZone: ReducerRun.utc, entropy: UInt64(wall.timeIntervalSince1970))
    }

    mutating func play() throws {
        _ = decide(.start(ringingChanged: { _ in }, ready: { _ in }))
        for step in morning.steps { try take(step) }
        // Everything still out comes back, and the clock runs on for the rest of the morning.
        while !outstanding.isEmpty { try complete(pick: 0, fails: false) }
        for _ in 0..<90 { try take(.wait(seconds: 60)) }
        try checkRings()
        for reply in editReplies { #expect(answers[reply] == 1, "edit \(reply) was answered \(answers[reply] ?? 0) times") }
    }

    mutating func take(_ step: Morning.Step) throws {
        log.append((wall, "\(wall.formatted(.iso8601)) \(step)"))
        switch step {
        case .wait(let seconds):
            advance(by: TimeInterval(seconds))
            turn()
        case .toNextOccurrence:
            let next = state.runner.scheduler.alarms.keys.compactMap {
                state.runner.scheduler.nextRinging(of: $0, after: wall)?.instant
            }.min()
            if let next, next.timeIntervalSince(wall) <= 3600 { advance(by: next.timeIntervalSince(wall)) }
            turn()
        case .stop:
            let ringing = state.runner.ringing?.sound
            let wasRinging = state.runner.isRinging
            let effects = decide(.command(.stop(alarm: nil, by: .cli), follow: false))
            if wasRinging {
                seen["stopped a ring", default: 0] += 1
                #expect(!state.runner.isRinging, "a Stop silences the alarm")
                if let ringing {
                    #expect(
                        effects.contains { if case .sound(.stop(ringing)) = $0 { true } else { false } }, "its sound is stopped")
                }
            }
        case .snooze:
            let wasRinging = state.runner.isRinging
            _ = decide(.command(.snooze(alarm: nil, by: .cli), follow: false))
            if wasRinging, !state.runner.isRinging { seen["snoozed", default: 0] += 1 }
        case .add(let minutesAhead):
            let at = wall.addingTimeInterval(TimeInterval(minutesAhead * 60))
            let time = Calendar.utc.dateComponents([.hour, .minute], from: at)
            let text = String(format: "%02d:%02d", time.hour ?? 0, time.minute ?? 0)
            let reply = state.ticket()
            let patch = AlarmPatch(name: "Added \(editReplies.count + 1)", time: text, days: "daily")
            _ = decide(.command(.edit(.addAlarm(patch)), follow: false), reply: reply)
            editReplies.insert(reply)
        case .remove(let slot):
            let ids = state.runner.scheduler.alarms.keys.sorted()
            guard !ids.isEmpty else { return }
            let id = ids[slot % ids.count]
            let reply = state.ticket()
            _ = decide(.command(.edit(.removeAlarm(id: id)), follow: false), reply: reply)
            editReplies.insert(reply)
            removing[id] = removing[id] ?? wall
        case .complete(let pick, let fails):
            guard !outstanding.isEmpty else { return }
            try complete(pick: pick, fails: fails)
        case .duplicate:
            guard let (ticket, result) = delivered.last else { return }
            seen["duplicate result", default: 0] += 1
            let effects = reduce(.worked(ticket, result))
            #expect(
                !effects.contains { if case .answer = $0 { true } else if case .work = $0 { true } else { false } },
                "a result that comes back twice is acted on once")
        case .network(let wired):
            network = wired ? ClockRig.wired : ClockRig.wifi
            _ = decide(.network(network))
        }
    }

    mutating func advance(by seconds: TimeInterval) {
        wall = wall.addingTimeInterval(seconds)
        mono = mono + .seconds(seconds)
    }

    mutating func turn() { _ = decide(.turn) }

    /// The `pick`-th work still out comes back, carried out on the real store (or refused by it, `fails`).
    mutating func complete(pick: Int, fails: Bool) throws {
        let index = pick % outstanding.count
        if index > 0 { seen["late result", default: 0] += 1 }
        let (ticket, work) = outstanding.remove(at: index)
        guard case .edit(let edit, let zone, let at) = work else {
            Issue.record("only edits are handed off here, not \(work)")
            return
        }
        let result: WorkResult
        if fails {
            result = .edited(.failure(.readOnly("The database is read-only (a test's refusal).")))
            seen["edit failed", default: 0] += 1
        } else {
            let outcome = try store.apply(edit, zone: zone, now: at)
            result = .edited(.success(WorkResult.Edited(outcome: outcome, loaded: .success(try store.load()), tokens: [])))
            switch outcome {
            case .alarm(let a):
                knownSince[a.id!] = wall
                rules[a.id!] = a
            case .alarmRemoved(let a): removed[a.id!] = wall
            default: break
            }
        }
        let before = answers.values.reduce(0, +)
        _ = reduce(.worked(ticket, result))
        #expect(answers.values.reduce(0, +) == before + 1, "the edit is answered when its work comes back")
        delivered.append((ticket, result))
    }

    /// Decides an input under a new reply ticket.
    mutating func decide(_ input: ClockInput) -> [ClockEffect] { decide(input, reply: state.ticket()) }

    mutating func decide(_ input: ClockInput, reply: ClockTicket) -> [ClockEffect] {
        if !outstanding.isEmpty, case .turn = input { seen["turn with work out", default: 0] += 1 }
        return reduce(.input(input, reply: reply))
    }

    /// One call of the decision, and what every effect it returns must be.
    mutating func reduce(_ arrival: ClockState.Arrival) -> [ClockEffect] {
        let effects = ClockState.reduce(&state, arrival, world)
        for effect in effects {
            switch effect {
            case .work(let ticket, let work):
                #expect(workTickets.insert(ticket).inserted, "work \(ticket) is handed off once")
                outstanding.append((ticket, work))
            case .answer(let ticket, let answer):
                answers[ticket, default: 0] += 1
                if editReplies.contains(ticket) {
                    switch answer {
                    case .success(.reply(.edited(let result), _)):
                        seen["edit answered", default: 0] += 1
                        if case .alarm = result.outcome { seen["alarm added", default: 0] += 1 }
                        if case .alarmRemoved = result.outcome { seen["alarm removed", default: 0] += 1 }
                    case .failure: break
                    default: Issue.record("an edit answered with \(answer)")
                    }
                }
            case .emit(let event, _) where event == "stopped":
                log.append((wall, "stopped"))
            case .sound(.play(let id, _, _)):
                #expect(sounds.insert(id).inserted, "sound \(id) is started once")
            case .record(let event, _) where [HistoryKind.rang.rawValue, HistoryKind.rangLate.rawValue].contains(event.kind):
                // Every member of a group due at the same second rings (R38), each with its own history line.
                guard let id = event.alarmID, let occurrence = HistoryDetail.occurrence(in: event.detail) else {
                    Issue.record("a ring without its alarm or occurrence: \(event)")
                    continue
                }
                let key = "\(id)@\(Int(occurrence.timeIntervalSince1970))"
                rings[key] = ((rings[key]?.count ?? 0) + 1, wall)
                log.append((wall, "rang \(key)"))
                seen["rang", default: 0] += 1
                if !outstanding.isEmpty { seen["ring while an edit was out", default: 0] += 1 }
                #expect(wall >= occurrence && wall.timeIntervalSince(occurrence) <= 90, "rung at the turn that reached it")
            default:
                break
            }
        }
        return effects
    }

    /// The reference model: every occurrence of an alarm the clock knew, before its removal was asked for, rang once;
    /// none rang after the clock learned of the removal; none rang twice.
    func checkRings() throws {
        for (key, ring) in rings { #expect(ring.count == 1, "\(key) rang \(ring.count) times") }
        let end = wall
        for (id, since) in knownSince {
            let alarm = try #require(rules[id])
            var after = since
            while let next = AlarmSchedule.next(of: alarm, after: after, defaultZone: ReducerRun.utc), next.instant <= end {
                after = next.instant
                let key = "\(id)@\(Int(next.instant.timeIntervalSince1970))"
                if let asked = removing[id], next.instant >= asked {
                    if let gone = removed[id], next.instant > gone { #expect(rings[key] == nil, "\(key) rang after its removal") }
                    continue
                }
                // Within a minute of learning of it, an occurrence may be passed over (it is not a missed alarm).
                guard next.instant.timeIntervalSince(since) > 60 else { continue }
                #expect(
                    rings[key]?.count == 1,
                    "\(key) should have rung once: \(alarm.time) known since \(since), removing \(String(describing: removing[id])), log \(log.filter { abs($0.0.timeIntervalSince(next.instant)) < 600 }.map(\.1))"
                )
            }
        }
    }
}
