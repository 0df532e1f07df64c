public import Foundation

/// The alarm engine's decisions (docs/HOUSE-RULES.md §4): a pure state machine over alarms, run-time states,
/// the settings and two injected clocks. Each event method takes `now` (wall + monotonic, read once by the
/// caller), updates the machine and returns the `SchedulerAction`s the daemon must carry out, in order.
///
/// Guarantees (RELIABILITY.md):
/// - Occurrences come from the local rule, recomputed on every event (R1–R4; see `AlarmSchedule`).
/// - Any number of alarms ring at once (the ringing group). One that comes due, or whose snooze ends,
///   while others ring joins them: its sound replaces the one playing without a silent moment, and nothing
///   ends the others (R13). Each member auto-silences at the end of its own duration; the player goes
///   silent only when the last member stops (R38). Snooze and stop without an alarm id act on every
///   ringing member; with an id, on that alarm only. An alarm's own next occurrence still takes over its
///   previous one (recorded superseded).
/// - Snooze length and auto-silence run on the monotonic clock; snooze deadlines and ringing starts are
///   also stored as wall instants so a fresh machine resumes them (R8, R9, R12).
/// - An occurrence rings at most once: `lastHandledOccurrence` only moves forward, and no occurrence at or
///   before it rings, whatever the wall clock does (R5). After a restart or a forward step the latest
///   occurrence due at most G ago rings, flagged late; older ones are recorded as missed (R6).
/// - A disabled alarm never rings; saving an alarm rings it at once only if it is due this minute (R11).
///
/// Not thread-safe by itself (a value type): the daemon owns one and feeds it events one at a time.
public struct AlarmScheduler: Sendable {
    /// A wall clock that drifts from the monotonic clock by more than this between two events has stepped.
    public static let stepTolerance: TimeInterval = 5
    /// The daemon ticks at least this often, so that a wall-clock step is noticed within a minute (R5).
    public static let stepCheckInterval: Duration = .seconds(60)
    /// How far back a catch-up looks for occurrences to report as missed.
    public static let lookBack: TimeInterval = 31 * 86_400
    /// An occurrence rung this much after its time or later is flagged late.
    public static let lateAfter: TimeInterval = 60

    /// The alarms the machine knows, by id (alarms without an id are ignored).
    public internal(set) var alarms: [Int64: Alarm]
    /// The run-time state of each alarm that has one.
    public internal(set) var states: [Int64: AlarmRunState]
    public internal(set) var settings: AppSettings
    /// The zone of alarms that name none.
    public internal(set) var defaultZone: TimeZone
    /// The days off: a repeating alarm that skips them passes over their occurrences (recorded skipped, with
    /// the day's name).
    public internal(set) var daysOff: DaysOff

    /// Per alarm: occurrences at or before this instant are never rung (handled, or older than an edit).
    var floors: [Int64: Date] = [:]
    /// Per ringing alarm: when its current ringing began (monotonic).
    var ringStarts: [Int64: MonotonicInstant] = [:]
    /// Per ringing alarm: when its sound starts (monotonic) — later than its ring's start while it vibrates first
    /// (`Alarm.soundAfter`). Its ladder and its duration count from here.
    var soundStarts: [Int64: MonotonicInstant] = [:]
    /// The outputs the clock holds (a bed shaker, a lamp): an alarm vibrates first only when one of them comes on
    /// before its sound (`Alarm.vibratesFirst`), else its sound starts with the ring.
    public internal(set) var outputs: [OutputName]
    /// The ringing alarms, in the order their current ringing began (the last one started most recently).
    var ringOrder: [Int64] = []
    /// Per snoozed alarm: when its snooze ends (monotonic).
    var snoozeEnds: [Int64: MonotonicInstant] = [:]
    /// The previous event's time, to notice wall-clock steps; nil until `start`.
    var last: SchedulerTime?
    /// When each alarm was last changed while no engine ran (see `init`).
    var updatedAt: [Int64: Date]
    /// How an unanswered alarm climbs unless it has a plan of its own (`[alarm] ladder`; `Alarm.ladder`); `.off`: it
    /// auto-silences after its duration (R12).
    public internal(set) var ladder: LadderPlan
    /// Per ringing or resting alarm with a ladder: where its climb is (kept in memory: a restart climbs again).
    var ladders: [Int64: WakeLadder] = [:]

    /// Per alarm stopped with a wake-up check: the check, and the occurrence it rings again if nobody answers (kept in
    /// memory: a restart asks no more).
    var wakeChecks: [Int64: PendingCheck] = [:]

    struct PendingCheck: Hashable, Sendable {
        var check: WakeCheck
        let occurrence: Date
    }

    /// The alarms whose wake-up check asks "Are you up?" now, waiting for an answer.
    public var askingWakeChecks: [Int64] {
        wakeChecks.filter { if case .asking = $0.value.check.phase { true } else { false } }.keys.sorted()
    }

    /// Whether a Stop with nothing ringing still ends something: a ladder's rest, or a wake-up check's question.
    public var stopEndsSomething: Bool { !resting.isEmpty || !askingWakeChecks.isEmpty }

    /// Where alarm `id`'s climb is, while it rings or rests with a ladder.
    public func climb(of id: Int64) -> WakeLadder? { ladders[id] }
    /// Whether any alarm climbs a ladder now.
    public var climbing: Bool { !ladders.isEmpty }

    /// A machine over stored data. Call `start(at:)` first; any other event starts it implicitly.
    /// - Parameters:
    ///   - states: as saved by earlier `.persist` actions; states of unknown alarms are dropped.
    ///   - alarmsUpdatedAt: optional last-change instants of alarms; an occurrence more than a minute
    ///     before an alarm's last change is never caught up (R11), even if no engine saw the change.
    ///   - daysOff: the days off (`setDaysOff` replaces them).
    public init(
        alarms: [Alarm], states: [AlarmRunState], settings: AppSettings, defaultZone: TimeZone,
        alarmsUpdatedAt: [Int64: Date] = [:], daysOff: DaysOff = .none, ladder: LadderPlan = .off,
        outputs: [OutputName] = []
    ) {
        self.ladder = ladder
        self.outputs = outputs
        var byID: [Int64: Alarm] = [:]
        for alarm in alarms {
            if let id = alarm.id { byID[id] = alarm }
        }
        self.alarms = byID
        self.states = Dictionary(
            states.filter { byID[$0.alarmID] != nil }.map { ($0.alarmID, $0) },
            uniquingKeysWith: { _, newer in newer })
        self.settings = settings
        self.defaultZone = defaultZone
        self.updatedAt = alarmsUpdatedAt
        self.daysOff = daysOff
    }

    /// Replaces the days off (after an edit or an import). Nothing rings or is recorded now: the next event
    /// reads occurrences with the new days, and none already handled is acted on again.
    public mutating func setDaysOff(_ days: DaysOff) {
        daysOff = days
    }

    /// True once `start` ran.
    public var isStarted: Bool { last != nil }

    /// The alarms ringing now (the ringing group), in the order their current ringing began: the last one
    /// started most recently. Empty before `start`.
    public var ringingAlarmIDs: [Int64] { ringOrder }

    /// The ringing alarm the player's sound counts for: the member that started ringing most recently. Its
    /// `.ring` chose the sound that plays, unless that member stopped while others rang on, in which case
    /// the sound it chose plays on for the group (see `SchedulerAction`). Nil when nothing rings.
    public var soundingAlarmID: Int64? { ringOrder.last }

    /// When ringing alarm `id`'s sound starts (monotonic): its ring's start, or later while it vibrates first.
    public func soundStart(of id: Int64) -> MonotonicInstant? { soundStarts[id] ?? ringStarts[id] }

    /// How long ringing alarm `id`'s ring is silent before its sound starts (zero when it sounds at once).
    public func silentPart(of id: Int64) -> Duration {
        guard let ring = ringStarts[id], let sound = soundStarts[id] else { return .zero }
        return sound - ring
    }

    /// How long a ring of `alarm` that is due now and begins `late` seconds after its due time stays silent, its
    /// outputs alone waking the sleeper: its `soundAfter` less the lateness (the sound never starts later than due +
    /// `soundAfter`), zero without one or when none of the clock's outputs would come on before the sound.
    public func silence(of alarm: Alarm, late: TimeInterval) -> Duration {
        guard let wait = alarm.soundAfter, alarm.vibratesFirst(outputs) else { return .zero }
        return max(.zero, wait - .seconds(max(0, late)))
    }

    /// The run-time state of alarm `id` (idle when it has none).
    public func state(of id: Int64) -> AlarmRunState {
        states[id] ?? AlarmRunState(alarmID: id)
    }

    /// The instant at or before which alarm `id` acts on no occurrence (its last handled one; the moment it was
    /// set up, so a new alarm never rings for a time already past), if there is one.
    public func floor(of id: Int64) -> Date? { floors[id] }

    /// The next occurrence alarm `id` will act on (ring, or pass over when skipped) after `now`; nil when
    /// the alarm is unknown, disabled or has no later occurrence.
    public func nextOccurrence(of id: Int64, after now: Date) -> Occurrence? {
        guard let alarm = alarms[id], alarm.enabled else { return nil }
        let from = max(floors[id] ?? now, now)
        return AlarmSchedule.next(of: alarm, after: from, defaultZone: defaultZone)
    }

    /// The next occurrence of alarm `id` after `now` that will ring — one passed over (its skip-next date, a
    /// day off it skips) is not — or nil when the alarm is disabled or never rings again.
    public func nextRinging(of id: Int64, after now: Date) -> Occurrence? {
        guard let alarm = alarms[id], alarm.enabled else { return nil }
        let from = max(floors[id] ?? now, now)
        return AlarmSchedule.next(of: alarm, after: from, defaultZone: defaultZone, honouringSkip: true, daysOff: daysOff)
    }

    /// A batch for an event arriving now.
    func newBatch() -> ActionBatch {
        ActionBatch(soundingBefore: soundingAlarmID)
    }

    /// The batch's actions, ending with the next wake-up.
    func finish(_ batch: ActionBatch, _ now: SchedulerTime) -> [SchedulerAction] {
        batch.actions(wake: wakeUp(now), ringing: ringOrder)
    }

    /// The catch-up window G in seconds (R6), from the settings, at least 60 s.
    var catchUpWindow: TimeInterval { TimeInterval(max(60, settings.catchUpSeconds)) }
}
