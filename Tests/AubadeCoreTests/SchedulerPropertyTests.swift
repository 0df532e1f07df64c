import AubadeCore
import Foundation
import PropertyBased
import Testing

/// R11 and friends as properties: random sequences of create / edit / enable / disable / delete /
/// snooze / dismiss / clock-step / restart over two simulated weeks, run through the engine and through
/// `ReferenceModel` side by side. After every event the ringing group (in order), each member's occurrence
/// and snooze count, and the snoozes must agree, and the player must sound exactly while some alarm is
/// within its duration and neither snoozed nor dismissed (R13, R38: never left in silence); at the end the
/// histories, with whom each ring rang, must be equal. Independent checks: no occurrence rings twice,
/// nothing rings while disabled, every ring is a real occurrence of the rule due at most G before.
@Suite("Scheduler: property tests against a reference model")
struct SchedulerPropertyTests {
    @Test("random weeks of use match the reference model")
    func matchesReferenceModel() async {
        var seen: [String: Int] = [:]
        await propertyCheck(count: 120, input: Scenario.generator) { scenario in
            var run = try SimulationRun(scenario)
            try run.play()
            for entry in run.history { seen[entry.kind, default: 0] += 1 }
            seen["rang with others", default: 0] += run.history.filter { !$0.with.isEmpty }.count
            seen["member ended, others rang on", default: 0] += run.quietEnds
        }
        // The scenarios must exercise every path, or the agreement above proves little.
        let kinds: [HistoryKind] = [
            .rang, .rangLate, .resumed, .snoozed, .snoozeRefused, .snoozeEnded, .dismissed,
            .autoSilenced, .missed, .superseded, .cancelled, .clockStep,
        ]
        for kind in kinds.map(\.rawValue) + ["rang with others", "member ended, others rang on"] {
            #expect(seen[kind, default: 0] >= 3, "\(kind) happened \(seen[kind, default: 0]) times: \(seen)")
        }
    }
}

/// What happens during one simulated fortnight.
struct Scenario: CustomStringConvertible, Sendable {
    /// Which alarm a command is about: the n-th existing one (wrapping), or one by id.
    enum Target: Sendable {
        case slot(Int), id(Int64)
    }

    enum Command: Sendable {
        case create(ReferenceModel.Rule)
        case retime(Target, hour: Int, minute: Int)
        case redays(Target, days: Weekdays)
        case relabel(Target)
        case enable(Target), disable(Target), delete(Target)
        case step(seconds: Int)
        /// A forward step to `past` seconds after the next occurrence of any enabled alarm (R6 catch-up).
        case stepPastNext(past: Int)
        case restart
        case pressSnooze, pressStop
    }

    /// What the user (or the machine) does after an alarm starts sounding, and how many seconds later.
    enum Reaction: Sendable {
        case snooze(after: Int), dismiss(after: Int), ignore
        case restart(after: Int)
        /// Edits the sounding alarm: 0 relabel, 1 retime, 2 disable, 3 delete, 4 change days.
        case edit(after: Int, kind: Int)
        /// The wall clock jumps a day ahead: the alarm's own next occurrence may come due while its previous
        /// one still rings or is snoozed (superseded), while other alarms ring on.
        case stepDay(after: Int)
    }

    var commands: [(at: Int, command: Command)]
    var reactions: [Reaction]
    var catchUpWindow: Int

    var description: String {
        "G=\(catchUpWindow)s commands=\(commands.map { "t+\($0.at): \($0.command)" }) reactions=\(reactions)"
    }

    static let days = 14

    static let generator = Generator<Scenario, Shrink.None<Scenario>> { rng in
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        func rule() -> ReferenceModel.Rule {
            ReferenceModel.Rule(
                hour: int(5...8), minute: [0, 0, 5, 30, 59][int(0...4)],
                days: Weekdays(rawValue: int(1...127)), enabled: int(0...5) > 0,
                duration: 60 * int(1...20), snoozeMinutes: int(1...12), maxSnoozes: int(0...3))
        }
        var commands: [(Int, Command)] = [(0, .create(rule()))]
        for _ in 0..<int(4...28) {
            let at = int(0...(days * 86_400))
            let slot = Target.slot(int(0...3))
            let command: Command =
                switch int(0...13) {
                case 0, 1: .create(rule())
                case 2: .retime(slot, hour: int(5...8), minute: [0, 5, 30, 59][int(0...3)])
                case 3: .redays(slot, days: Weekdays(rawValue: int(1...127)))
                case 4: .relabel(slot)
                case 5: .enable(slot)
                case 6: .disable(slot)
                case 7: .delete(slot)
                case 8, 9: .step(seconds: [-86_400, -7_200, -600, -60, 60, 600, 25 * 60, 45 * 60, 7_200, 86_400][int(0...9)])
                case 10: .restart
                case 11: .stepPastNext(past: [0, 59, 60, 600, 1_799, 1_800, 1_801, 3_000, 4_000][int(0...8)])
                default: .create(rule())
                }
            commands.append((at, command))
        }
        let reactions: [Reaction] = (0..<200).map { _ in
            switch int(0...9) {
            case 0, 1, 2: .snooze(after: int(1...900))
            case 3, 4: .dismiss(after: int(1...1_500))
            case 5: .restart(after: int(1...900))
            case 6: .edit(after: int(1...900), kind: int(0...4))
            case 7: .stepDay(after: int(1...900))
            default: .ignore
            }
        }
        return Scenario(
            commands: commands.sorted { $0.0 < $1.0 }, reactions: reactions,
            catchUpWindow: [1_800, 1_800, 600, 3_600][int(0...3)])
    }
}

/// Plays a `Scenario` through the engine and the model, checking as it goes.
struct SimulationRun {
    let scenario: Scenario
    let zone: TimeZone
    let startWall: Int
    var settings = AppSettings()
    var engine: AlarmScheduler
    var model: ReferenceModel
    var monoOrigin = 500.0
    var real = 0
    var storedStates: [Int64: AlarmRunState] = [:]
    var storedAlarms: [Int64: Alarm] = [:]
    /// The alarm whose `.ring` chose the sound playing; nil while the player is silent.
    var sounding: Int64?
    /// Whether the last batch had a `.ring`.
    var rangInLastBatch = false
    /// Stops that left others ringing (the sound went on): the ringing group at work.
    var quietEnds = 0
    var wake: WakeUp?
    var nextID: Int64 = 1
    var reactionIndex = 0
    /// Commands scheduled by reactions to rings.
    var reactions: [(at: Int, command: Scenario.Command)] = []
    var history: [ReferenceModel.Entry] = []
    var rang: Set<String> = []

    init(_ scenario: Scenario) throws {
        self.scenario = scenario
        zone = try Fixture.zone("Asia/Kathmandu")
        startWall = Int(try Fixture.instant("2026-06-01T00:00:00Z").timeIntervalSince1970)
        settings.catchUpSeconds = scenario.catchUpWindow
        engine = AlarmScheduler(alarms: [], states: [], settings: settings, defaultZone: zone)
        model = ReferenceModel(startWall: startWall, catchUpWindow: scenario.catchUpWindow)
    }

    var now: SchedulerTime {
        SchedulerTime(
            wall: Date(timeIntervalSince1970: TimeInterval(model.wall(real))),
            mono: MonotonicInstant(seconds: monoOrigin + Double(real)))
    }

    mutating func play() throws {
        take(engine.start(at: now))
        var pending = scenario.commands
        let end = Scenario.days * 86_400 + 86_400
        while true {
            // Always the earliest thing next: an engine wake-up, then a reaction, then a scheduled command.
            let wakeAt = wakeReal().map { max($0, real) }
            let reactionAt = reactions.map(\.at).min()
            let commandAt = pending.first?.at
            let t = [wakeAt, reactionAt, commandAt].compactMap { $0 }.min() ?? end
            guard t < end else { break }
            real = max(real, t)
            model.advance(to: real)
            if wakeAt == t {
                take(engine.tick(at: now))
            } else if reactionAt == t, let i = reactions.firstIndex(where: { $0.at == t }) {
                try apply(reactions.remove(at: i).command)
            } else {
                try apply(pending.removeFirst().command)
            }
            try check()
        }
        let expected = model.log.sorted()
        let got = history.sorted()
        #expect(got == expected, "first difference at \(firstDifference(got, expected)) in \(scenario)")
    }

    private func wakeReal() -> Int? {
        var times: [Double] = []
        if let w = wake?.wall { times.append(w.timeIntervalSince1970 - Double(startWall + model.wallOffset)) }
        if let m = wake?.mono { times.append((m - MonotonicInstant(seconds: monoOrigin)).inSeconds) }
        return times.min().map { Int($0.rounded(.up)) }
    }

    private mutating func apply(_ command: Scenario.Command) throws {
        let ids = engine.alarms.keys.sorted()
        func pick(_ target: Scenario.Target) -> Int64? {
            switch target {
            case .slot(let n): ids.isEmpty ? nil : ids[n % ids.count]
            case .id(let id): ids.contains(id) ? id : nil
            }
        }
        switch command {
        case .create(let rule):
            let id = nextID
            nextID += 1
            try save(id, rule)
        case .retime(let slot, let hour, let minute):
            guard let id = pick(slot), var rule = model.rules[id] else { return }
            rule.hour = hour
            rule.minute = minute
            try save(id, rule)
        case .redays(let slot, let days):
            guard let id = pick(slot), var rule = model.rules[id] else { return }
            rule.days = days
            try save(id, rule)
        case .relabel(let slot):
            guard let id = pick(slot), var alarm = storedAlarms[id] else { return }
            alarm.name += "!"
            alarm.volume = alarm.volume == 50 ? 60 : 50
            storedAlarms[id] = alarm
            take(engine.alarmSaved(alarm, at: now))
        case .enable(let slot), .disable(let slot):
            guard let id = pick(slot), var rule = model.rules[id] else { return }
            if case .enable = command { rule.enabled = true } else { rule.enabled = false }
            try save(id, rule)
        case .delete(let slot):
            guard let id = pick(slot) else { return }
            model.remove(id, at: real)
            storedAlarms[id] = nil
            storedStates[id] = nil
            take(engine.alarmRemoved(id: id, at: now))
        case .step(let seconds):
            model.step(by: seconds, at: real)
            take(engine.wallClockStepped(at: now))
        case .stepPastNext(let past):
            let wall = model.wall(real)
            let next = model.rules.filter(\.value.enabled).compactMap { id, rule in
                ReferenceModel.next(rule, after: max(model.handled[id] ?? wall, wall))
            }.min()
            guard let next else { return }
            model.step(by: next + past - wall, at: real)
            take(engine.wallClockStepped(at: now))
        case .pressSnooze:
            model.snoozePressed(at: real)
            take(engine.snoozePressed(at: now))
        case .pressStop:
            model.stopPressed(at: real)
            take(engine.stopPressed(at: now))
        case .restart:
            model.restart(at: real)
            monoOrigin += 10_000
            sounding = nil
            engine = AlarmScheduler(
                alarms: Array(storedAlarms.values), states: Array(storedStates.values),
                settings: settings, defaultZone: zone)
            take(engine.start(at: now))
        }
    }

    private mutating func save(_ id: Int64, _ rule: ReferenceModel.Rule) throws {
        let time = try LocalTime(hour: rule.hour, minute: rule.minute)
        var alarm = storedAlarms[id] ?? Alarm(id: id, name: "alarm \(id)", time: time, recurrence: .weekly(.all))
        alarm.time = time
        alarm.recurrence = .weekly(rule.days)
        alarm.enabled = rule.enabled
        alarm.durationSeconds = rule.duration
        alarm.snoozeMinutes = rule.snoozeMinutes
        alarm.maxSnoozes = rule.maxSnoozes
        storedAlarms[id] = alarm
        model.save(id, rule, at: real)
        take(engine.alarmSaved(alarm, at: now))
    }

    /// Carries out a batch as the daemon would and records its history.
    private mutating func take(_ actions: [SchedulerAction]) {
        SchedulerHarness.checkOrder(actions)
        rangInLastBatch = false
        for action in actions {
            switch action {
            case .persist(let state): storedStates[state.alarmID] = state
            case .saveAlarm(let alarm): if let id = alarm.id { storedAlarms[id] = alarm }
            case .ring(let request):
                if request.cause != .resumed { react(to: request.alarmID) }
                sounding = request.alarmID
                rangInLastBatch = true
            case .stopRinging(let stop):
                if stop.silencesPlayer { sounding = nil } else { quietEnds += 1 }
            case .record(let event):
                history.append(
                    ReferenceModel.Entry(
                        at: real, kind: event.kind, id: event.alarmID,
                        with: HistoryDetail.ringingWith(in: event.detail)))
                checkRing(event)
            case .wakeMe(let w): wake = w
            case .snoozeRefused, .climb, .outputs, .wakeCheck: break
            }
        }
    }

    /// The next reaction to a ring that just started (of `id`).
    private mutating func react(to id: Int64) {
        guard reactionIndex < scenario.reactions.count else { return }
        defer { reactionIndex += 1 }
        switch scenario.reactions[reactionIndex] {
        case .snooze(let after): reactions.append((real + after, .pressSnooze))
        case .dismiss(let after): reactions.append((real + after, .pressStop))
        case .restart(let after): reactions.append((real + after, .restart))
        case .edit(let after, let kind):
            let command: Scenario.Command =
                switch kind {
                case 0: .relabel(.id(id))
                case 1: .retime(.id(id), hour: 5 + reactionIndex % 4, minute: 30)
                case 2: .disable(.id(id))
                case 3: .delete(.id(id))
                default: .redays(.id(id), days: Weekdays(rawValue: 1 + reactionIndex % 127))
                }
            reactions.append((real + after, command))
        case .stepDay(let after): reactions.append((real + after, .step(seconds: 86_400)))
        case .ignore: break
        }
    }

    /// Independent of the model: a rung occurrence is a real, enabled, not yet rung occurrence, due ≤ G ago.
    private mutating func checkRing(_ event: HistoryEvent) {
        guard event.kind == HistoryKind.rang.rawValue || event.kind == HistoryKind.rangLate.rawValue,
            let id = event.alarmID
        else { return }
        let key = "\(id) \(event.detail.prefix(24))"
        #expect(!rang.contains(key), "occurrence rang twice: \(key) in \(scenario)")
        rang.insert(key)
        // The record says "due <ISO-8601>[, N min late]"; the state may already have moved on in this batch.
        guard let alarm = engine.alarms[id],
            let occurrence = try? Date(String(event.detail.dropFirst(4).prefix(20)), strategy: .iso8601)
        else {
            Issue.record("rang an unknown alarm \(id) or an unreadable occurrence: \(event.detail)")
            return
        }
        #expect(alarm.enabled, "alarm \(id) rang while disabled in \(scenario)")
        let lag = Int(event.at.timeIntervalSince(occurrence))
        #expect(lag >= 0 && lag <= scenario.catchUpWindow, "rang \(lag) s after its occurrence")
        let o = Int(occurrence.timeIntervalSince1970)
        let rule = ReferenceModel.Rule(
            hour: alarm.time.hour, minute: alarm.time.minute,
            days: { if case .weekly(let d) = alarm.recurrence { d } else { [] } }(),
            enabled: true, duration: 0, snoozeMinutes: 0, maxSnoozes: 0)
        #expect(ReferenceModel.occurrences(rule, after: o - 1, through: o) == [o], "not an occurrence of the rule")
    }

    /// After every event: the engine and the model agree on what rings and what is snoozed, and the player
    /// sounds exactly while some alarm is within its duration and neither snoozed nor dismissed.
    private func check() throws {
        // R13, R38: the model's group is exactly the alarms within their duration, not snoozed or dismissed.
        #expect(
            (sounding != nil) == !model.ringing.isEmpty,
            "t+\(real): the player is \(sounding == nil ? "silent" : "sounding") while \(model.ringing.map(\.id)) ring in \(scenario)"
        )
        #expect(
            engine.ringingAlarmIDs == model.ringing.map(\.id),
            "t+\(real): engine rings \(engine.ringingAlarmIDs), model \(model.ringing.map(\.id)) in \(scenario)")
        if rangInLastBatch {
            #expect(sounding == engine.soundingAlarmID, "t+\(real): a ring sounds the latest started alarm in \(scenario)")
        }
        for r in model.ringing {
            #expect(engine.state(of: r.id).occurrence == Date(timeIntervalSince1970: TimeInterval(r.occurrence)))
            #expect(engine.state(of: r.id).snoozeCount == r.count)
        }
        let snoozedIDs = Set(engine.states.values.filter { $0.phase == .snoozed }.map(\.alarmID))
        #expect(snoozedIDs == Set(model.snoozed.keys), "t+\(real): snoozes differ in \(scenario)")
    }

    private func firstDifference(_ a: [ReferenceModel.Entry], _ b: [ReferenceModel.Entry]) -> String {
        for (x, y) in zip(a, b) where x != y { return "engine \(x) vs model \(y)" }
        return a.count < b.count ? "engine lacks \(b[a.count])" : (a.count > b.count ? "engine extra \(a[b.count])" : "none")
    }
}
