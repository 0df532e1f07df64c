import AubadeCore
import Foundation
import Testing

/// Drives an `AlarmScheduler` as the daemon would: applies `.persist` / `.saveAlarm` to a fake store,
/// `.ring` / `.stopRinging` to a fake player, and ticks only when the last `.wakeMe` asked (or every
/// `stepCheckInterval`). Checks the action-order contract on every batch.
struct SchedulerHarness {
    var engine: AlarmScheduler
    var now: SchedulerTime
    /// The store as the daemon would have written it.
    var storedStates: [Int64: AlarmRunState] = [:]
    var storedAlarms: [Int64: Alarm] = [:]
    /// The alarm whose `.ring` chose the sound that is playing, as a player following the contract would
    /// have it: set by `.ring`, cleared only by a `.stopRinging` that silences the player.
    var sounding: Int64?
    /// Every batch, with the time it was returned at.
    var batches: [(at: SchedulerTime, actions: [SchedulerAction])] = []
    var wake: WakeUp?
    /// Wall instants at which the player went silent while some alarm still rang (R13, R38): always a fault.
    var silences: [Date] = []
    /// Wall instants at which the player went silent (the last ringing alarm stopped).
    var silencedAt: [Date] = []

    init(
        _ alarms: [Alarm], zone: String = "Europe/Berlin", at wall: String, settings: AppSettings = AppSettings(),
        states: [AlarmRunState] = [], monoOrigin: Double = 1_000
    ) throws {
        engine = AlarmScheduler(alarms: alarms, states: states, settings: settings, defaultZone: try Fixture.zone(zone))
        now = SchedulerTime(wall: try Fixture.instant(wall), mono: MonotonicInstant(seconds: monoOrigin))
        for alarm in alarms { if let id = alarm.id { storedAlarms[id] = alarm } }
        for state in states { storedStates[state.alarmID] = state }
    }

    // MARK: events

    @discardableResult
    mutating func start() -> [SchedulerAction] { take(engine.start(at: now)) }

    @discardableResult
    mutating func snooze(alarm: Int64? = nil, pressedAt: MonotonicInstant? = nil, by input: DismissInput? = nil)
        -> [SchedulerAction]
    {
        take(engine.snoozePressed(at: now, alarmID: alarm, pressedAt: pressedAt, by: input))
    }

    @discardableResult
    mutating func stop(alarm: Int64? = nil, pressedAt: MonotonicInstant? = nil, by input: DismissInput? = nil)
        -> [SchedulerAction]
    {
        take(engine.stopPressed(at: now, alarmID: alarm, pressedAt: pressedAt, by: input))
    }

    @discardableResult
    mutating func shake() -> [SchedulerAction] { take(engine.shakeDetected(at: now)) }

    @discardableResult
    mutating func shake(_ response: ShakeResponse) -> [SchedulerAction] {
        take(engine.shakeDetected(at: now, response: response))
    }

    @discardableResult
    mutating func save(_ alarm: Alarm) -> [SchedulerAction] {
        if let id = alarm.id { storedAlarms[id] = alarm }
        return take(engine.alarmSaved(alarm, at: now))
    }

    @discardableResult
    mutating func remove(_ id: Int64) -> [SchedulerAction] {
        storedAlarms[id] = nil
        storedStates[id] = nil
        return take(engine.alarmRemoved(id: id, at: now))
    }

    @discardableResult
    mutating func changeZone(_ id: String) throws -> [SchedulerAction] {
        take(engine.timeZoneChanged(to: try Fixture.zone(id), at: now))
    }

    /// Steps the wall clock by `seconds` (the monotonic clock does not move) and tells the engine at once
    /// when `announce`, else lets the next tick notice it.
    @discardableResult
    mutating func stepWallClock(by seconds: Double, announce: Bool = true) -> [SchedulerAction] {
        now.wall = now.wall.addingTimeInterval(seconds)
        return announce ? take(engine.wallClockStepped(at: now)) : []
    }

    // MARK: time

    /// Lets time pass (both clocks) until `wall`, ticking whenever the engine asked to be woken.
    mutating func run(until wall: Date) {
        while true {
            let due = nextWake()
            guard let due, due.wall <= wall else { break }
            now = due
            take(engine.tick(at: now))
        }
        if wall > now.wall { now = now.advanced(by: wall.timeIntervalSince(now.wall)) }
    }

    mutating func run(until text: String) throws { run(until: try Fixture.instant(text)) }

    /// Lets time pass until `wall`, ticking only at the wake-ups the engine asked for (no minute step checks: the
    /// wall clock here never steps), so a simulation of weeks stays quick.
    mutating func runByWakeUps(until wall: Date) {
        while true {
            var delays: [Double] = []
            if let w = wake?.wall { delays.append(max(0, w.timeIntervalSince(now.wall))) }
            if let m = wake?.mono { delays.append(max(0, (m - now.mono).inSeconds)) }
            guard let delay = delays.min(), now.wall.addingTimeInterval(delay) <= wall else { break }
            now = now.advanced(by: max(delay, 0.001))
            take(engine.tick(at: now))
        }
        if wall > now.wall { now = now.advanced(by: wall.timeIntervalSince(now.wall)) }
    }

    mutating func run(for seconds: Double) { run(until: now.wall.addingTimeInterval(seconds)) }

    /// The time of the next tick: the engine's wall or monotonic request, at the latest a step check.
    private func nextWake() -> SchedulerTime? {
        var candidates: [Double] = [AlarmScheduler.stepCheckInterval.inSeconds]
        if let w = wake?.wall { candidates.append(max(0, w.timeIntervalSince(now.wall))) }
        if let m = wake?.mono { candidates.append(max(0, (m - now.mono).inSeconds)) }
        guard let delay = candidates.min() else { return nil }
        return now.advanced(by: delay)
    }

    // MARK: bookkeeping

    @discardableResult
    private mutating func take(_ actions: [SchedulerAction]) -> [SchedulerAction] {
        SchedulerHarness.checkOrder(actions)
        batches.append((now, actions))
        let wasSounding = sounding != nil
        for action in actions {
            switch action {
            case .persist(let state): storedStates[state.alarmID] = state
            case .saveAlarm(let alarm): if let id = alarm.id { storedAlarms[id] = alarm }
            case .ring(let request): sounding = request.alarmID
            case .stopRinging(let stop): if stop.silencesPlayer { sounding = nil }
            case .wakeMe(let w): wake = w
            case .record, .snoozeRefused, .climb, .outputs, .wakeCheck: break
            }
        }
        if wasSounding, sounding == nil {
            silencedAt.append(now.wall)
            if !engine.ringingAlarmIDs.isEmpty { silences.append(now.wall) }
        }
        #expect(
            (sounding != nil) == !engine.ringingAlarmIDs.isEmpty,
            "the player must sound exactly while some alarm rings: \(String(describing: sounding)) vs \(engine.ringingAlarmIDs)")
        if actions.contains(where: { if case .ring = $0 { true } else { false } }) {
            #expect(sounding == engine.soundingAlarmID, "a ring sounds the alarm that started most recently")
        }
        return actions
    }

    /// R9 and the batch contract: persists and alarm saves first, then history, rings before stops, one
    /// wake-up at the end.
    static func checkOrder(_ actions: [SchedulerAction]) {
        func rank(_ a: SchedulerAction) -> Int {
            switch a {
            case .persist, .saveAlarm: 0
            case .record: 1
            case .ring, .climb, .outputs, .wakeCheck: 2
            case .stopRinging: 3
            case .snoozeRefused: 4
            case .wakeMe: 5
            }
        }
        let ranks = actions.map(rank)
        #expect(ranks == ranks.sorted(), "actions out of contract order: \(actions)")
        #expect(ranks.filter { $0 == 5 }.count == 1 && ranks.last == 5, "a batch ends with one wakeMe")
    }

    // MARK: queries

    var allActions: [SchedulerAction] { batches.flatMap(\.actions) }

    /// Every ring, with the wall time it was asked at.
    var rings: [(at: Date, request: RingRequest)] {
        batches.flatMap { batch in
            batch.actions.compactMap { a -> (Date, RingRequest)? in
                if case .ring(let r) = a { return (batch.at.wall, r) }
                return nil
            }
        }
    }

    var stops: [StopRinging] {
        allActions.compactMap { if case .stopRinging(let stop) = $0 { stop } else { nil } }
    }

    var events: [HistoryEvent] {
        allActions.compactMap { if case .record(let e) = $0 { e } else { nil } }
    }

    func events(_ kind: HistoryKind) -> [HistoryEvent] { events.filter { $0.kind == kind.rawValue } }

    var refusals: [Int64] {
        allActions.compactMap { if case .snoozeRefused(let id) = $0 { id } else { nil } }
    }
}
