import AubadeCore
import Foundation
import Logging

/// Runs the alarms: owns the alarm engine (`AlarmScheduler`) and carries out its actions — commit first, then
/// record, then sound (R9) — and the work around an occurrence: the pre-alarm check 5 minutes before (R20),
/// the pre-roll 15 s before (the device is the engine's; the station connects and buffers, so the sound
/// starts at the alarm second), and what the engine reports while it rings (audible, fallbacks, a failing
/// device). A value, part of `ClockState`: its methods decide with the clock's `ClockContext`.
struct AlarmRunner {
    /// The sound of the ringing alarm(s): one sound for the whole ringing group (R38), counted for the
    /// member that started last (`AlarmScheduler.soundingAlarmID`).
    struct Ringing {
        var alarmID: Int64
        var occurrence: Date
        /// Its sound; nil while it vibrates first (`RingRequest.silentFor`), until `soundAt`.
        var sound: SoundID?
        var source: String
        /// When the ring began (the outputs' timings count from here).
        var startedAt: MonotonicInstant
        /// When its sound starts: `startedAt`, or later while it vibrates first.
        var soundAt: MonotonicInstant
        /// While it vibrates first: the ring whose sound starts at `soundAt`.
        var pending: RingRequest?
        var audibleAfter: Duration?
        /// When its first frame reached the card against its second (positive: late), once the engine measured it.
        var onsetLate: Duration?
        /// Why nothing is heard now (the device failed), or nil.
        var silentBecause: String?
        var fallbacks: [String] = []
        /// What it fell back to ("tone", or the alternate station's address) until it recovers; nil while on its
        /// own source.
        var fellBackTo: String?
        /// Where its ladder is (`LadderStep.own` without one).
        var step: LadderStep = .own
    }

    /// A sound pre-rolled for an occurrence that has not come yet.
    struct Prepared {
        var occurrence: Date
        var plan: AlarmPlanning.Plan
        var sound: SoundID
        /// The second its sound begins: the occurrence, or later for an alarm that vibrates first (`soundInstant`).
        var soundAt: Date
        /// The alarm's sound it was made for (an edit of the sound makes it again).
        var source: SoundSource
        /// The monotonic instant the engine was told to begin it at (the occurrence, as the clocks read now).
        var startAt: MonotonicInstant
        /// What the engine said of it before it rang (it begins by itself on its second, a moment before the
        /// scheduler's turn): told to `soundEvent` once it rings.
        var early: [SoundEvent] = []
    }

    /// The pre-alarm check of an occurrence: running (`done` false) or done with its failure, if any.
    struct Precheck {
        var occurrence: Date
        /// The alarm's sound it checks (an edit of the sound starts it again).
        var source: SoundSource
        var done = false
        var failure: String?
        /// For a `podcast:` alarm: the episode it downloaded, which the alarm plays.
        var episode: EpisodeAudio?
    }

    /// A look-ahead check of an occurrence's station, hours before the pre-check: running, or done at `at`
    /// (monotonic) with its failure, if any.
    struct Lookahead {
        var occurrence: Date
        var running = true
        var checkedAt: MonotonicInstant
        var failure: String?
    }

    static let precheckLead: TimeInterval = 300
    static let prerollLead: TimeInterval = 15
    /// A turn this long before a pre-rolled alarm's second notices a wall-clock step in time to move the engine's
    /// instant (the engine also refuses to begin by itself across a step, `EngineLoop`).
    static let stepRecheckLead: TimeInterval = 1

    var scheduler: AlarmScheduler
    var ringing: Ringing?
    var prepared: [Int64: Prepared] = [:]
    var prechecks: [Int64: Precheck] = [:]
    var lookaheads: [Int64: Lookahead] = [:]
    /// The next occurrence each enabled alarm acts on, computed once per turn (`refresh`).
    private(set) var upcoming: [(id: Int64, occurrence: Occurrence)] = []
    var wake = WakeUp(wall: nil, mono: nil)
    /// The alarm whose ladder is at its top step (every output it does not turn off is on), while it is.
    var ladderTop: Int64?
    /// The outputs (the bed shaker, the lamp) switched on now.
    var outputsOn: Set<OutputName> = []
    /// What a person switched by hand (the kiosk, the phone page, Home Assistant) since an alarm last started or
    /// stopped ringing, and whether one rang then: a ring's start or end decides again.
    var outputsByHand: [OutputName: Bool] = [:]
    var outputsByHandWhileRinging = false
    /// The waker's rings already in the history (their keys), once read from it.
    var wakerRingsAbsorbed: Set<String>?

    init(scheduler: AlarmScheduler) {
        self.scheduler = scheduler
    }

    var isRinging: Bool { ringing != nil || !scheduler.ringingAlarmIDs.isEmpty }
    /// Whether a wake-up check asks "Are you up?" now.
    var asking: Bool { !scheduler.askingWakeChecks.isEmpty }

    /// Resumes a ringing alarm or a snooze (R9), catches up a recent missed one (R6).
    mutating func start(_ now: SchedulerTime, _ c: inout ClockContext) {
        perform(scheduler.start(at: now), now, &c)
        refresh(now, &c)
    }

    /// The scheduler's turn: follows the system zone, lets the engine act, then checks and pre-rolls what
    /// comes soon.
    mutating func advance(_ now: SchedulerTime, _ c: inout ClockContext) {
        if c.options.followsSystemZone {
            let zone = c.world.systemZone
            if zone.identifier != scheduler.defaultZone.identifier {
                perform(scheduler.timeZoneChanged(to: zone, at: now), now, &c)
            }
        }
        perform(scheduler.tick(at: now), now, &c)
        vibrateFirstTurn(now, &c)
        refresh(now, &c)
        prepareUpcoming(now, afterTick: true, &c)
        lookAhead(now, &c)
    }

    /// Recomputes the next occurrence that will ring of every enabled alarm (after a turn, an edit, an input):
    /// occurrences passed over — skip-next, a day off — are not prepared, pre-checked or announced.
    mutating func refresh(_ now: SchedulerTime, _ c: inout ClockContext) {
        let scheduler = self.scheduler
        upcoming = scheduler.alarms.keys.sorted().compactMap { id in
            scheduler.nextRinging(of: id, after: now.wall).map { (id, $0) }
        }
        publishToWaker(now, &c)
    }

    /// Alarms that will ring within `seconds`.
    func ringingSoon(_ now: SchedulerTime, within seconds: TimeInterval) -> [(id: Int64, instant: Date)] {
        upcoming.compactMap { entry in
            guard entry.occurrence.instant.timeIntervalSince(now.wall) <= seconds else { return nil }
            return (entry.id, entry.occurrence.instant)
        }
    }

    /// The next alarm that will ring, for the status and READY's line.
    var next: (id: Int64, instant: Date)? {
        upcoming.min { $0.occurrence.instant < $1.occurrence.instant }.map { ($0.id, $0.occurrence.instant) }
    }

    /// When the runner next needs a turn: the engine's wake-up, the next pre-check or pre-roll, the next of
    /// `outputNames` whose time comes while an alarm rings.
    func nextWake(_ now: SchedulerTime, outputs outputNames: [OutputName] = []) -> [MonotonicInstant] {
        var times: [MonotonicInstant] = []
        if let wall = wake.wall { times.append(now.mono(at: wall)) }
        if let mono = wake.mono { times.append(mono) }
        for (id, instant) in ringingSoon(now, within: AlarmRunner.precheckLead + 60) {
            for lead in [AlarmRunner.precheckLead, AlarmRunner.prerollLead] {
                let base = lead == AlarmRunner.prerollLead ? soundInstant(of: id, occurrence: instant) : instant
                let at = base.addingTimeInterval(-lead)
                guard at > now.wall else { continue }
                if lead == AlarmRunner.prerollLead && prepared[id]?.occurrence == instant { continue }
                if lead == AlarmRunner.precheckLead && prechecks[id]?.occurrence == instant { continue }
                times.append(now.mono(at: at))
            }
        }
        // An output whose time comes while the alarm rings (`--shaker after:2m`).
        if let r = ringing, let alarm = scheduler.alarms[r.alarmID],
            let next = alarm.nextOutputTime(outputNames, after: now.mono - r.startedAt)
        {
            times.append(r.startedAt + next)
        }
        // A ring that vibrates first: its sound's pre-roll and its start.
        if let r = ringing, r.sound == nil {
            for at in [r.soundAt - .seconds(AlarmRunner.prerollLead), r.soundAt] where at > now.mono { times.append(at) }
        }
        for p in prepared.values where p.soundAt.addingTimeInterval(-AlarmRunner.stepRecheckLead) > now.wall {
            times.append(now.mono(at: p.soundAt.addingTimeInterval(-AlarmRunner.stepRecheckLead)))
        }
        return times
    }

    /// Stops every sound it holds (shutdown).
    mutating func shutdown(_ c: inout ClockContext) {
        if let sound = ringing?.sound { c.effects.stop(sound) }
        for p in prepared.values { c.effects.stop(p.sound) }
        prepared = [:]
        ringing = nil
    }
}

extension SchedulerTime {
    /// The monotonic reading at which the wall clock will read `wall` (if it does not step).
    func mono(at wall: Date) -> MonotonicInstant {
        mono + .seconds(exactly: wall.timeIntervalSince(self.wall))
    }
}
