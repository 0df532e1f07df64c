import AubadeCore
import Foundation
import PropertyBased
import Testing

/// The alarm engine with a ladder (`AlarmScheduler(ladder:)`): an unanswered alarm climbs, rests and rings again
/// instead of auto-silencing, and ends `unanswered` after its last round; a person's Stop ends it, ringing or
/// resting; a touch brings it back to its own sound; a Snooze is the person's and climbs again from the bottom.
/// Checked as properties over random mornings, and step by step on one.
@Suite("Scheduler: the ladder of an unanswered alarm")
struct SchedulerLadderTests {
    static let utc = TimeZone(identifier: "UTC") ?? .gmt
    /// 2026-11-24 06:59:00 UTC.
    static let start = Date(timeIntervalSince1970: 1_795_503_540)

    static func alarm(duration: Int = 900, ladder: AlarmLadder = .clock, wakeCheck: Int = 0) -> Alarm {
        Alarm(
            id: 1, name: "Wake", time: try! LocalTime(hour: 7, minute: 0), recurrence: .weekly(.all),
            durationSeconds: duration, shakeToStop: false, sound: .tone, maxSnoozes: 3, ladder: ladder,
            wakeCheckSeconds: wakeCheck)
    }

    /// Drives one scheduler on one clock and keeps what it did.
    struct Drive {
        var scheduler: AlarmScheduler
        var wall: Date
        var mono: MonotonicInstant
        var history: [HistoryEvent] = []
        var climbs: [LadderStep] = []
        var outputs: Bool = false
        var sounding = false
        var rings: [RingRequest] = []
        /// The alarm states as the engine's `.persist` actions left them (what a restart reads).
        var stored: [Int64: AlarmRunState] = [:]
        /// Whether a wake-up check asks now.
        var asking: Bool { !scheduler.askingWakeChecks.isEmpty }

        init(plan: LadderPlan, alarm: Alarm = SchedulerLadderTests.alarm()) {
            scheduler = AlarmScheduler(
                alarms: [alarm], states: [], settings: AppSettings(),
                defaultZone: SchedulerLadderTests.utc, ladder: plan)
            wall = SchedulerLadderTests.start
            mono = MonotonicInstant(seconds: 1000)
            take(scheduler.start(at: now))
        }

        var now: SchedulerTime { SchedulerTime(wall: wall, mono: mono) }

        mutating func advance(_ seconds: Int) {
            wall = wall.addingTimeInterval(TimeInterval(seconds))
            mono = mono + .seconds(seconds)
            take(scheduler.tick(at: now))
        }

        mutating func take(_ actions: [SchedulerAction]) {
            for action in actions {
                switch action {
                case .record(let e): history.append(e)
                case .ring(let r):
                    sounding = true
                    rings.append(r)
                case .stopRinging(let s): if s.silencesPlayer { sounding = false }
                case .climb(_, let step): climbs.append(step)
                case .outputs(_, let on): outputs = on
                case .persist(let state): stored[state.alarmID] = state
                case .saveAlarm, .snoozeRefused, .wakeMe, .wakeCheck: break
                }
            }
        }

        func kinds(_ kind: HistoryKind) -> [HistoryEvent] { history.filter { $0.kind == kind.rawValue } }
    }

    @Test func anUnansweredAlarmClimbsRestsRingsAgainAndEndsUnansweredNotAutoSilenced() {
        let plan = LadderPlan(stepSeconds: 180, rounds: 2, gapSeconds: 300)
        var d = Drive(plan: plan)
        d.advance(60)  // 07:00
        #expect(d.sounding && d.kinds(.rang).count == 1)
        d.advance(180)
        #expect(d.climbs == [.louder])
        d.advance(180)
        d.advance(180)
        #expect(d.climbs == [.louder, .tone, .everything] && d.outputs)
        #expect(d.kinds(.escalated).map(\.detail) == ["round=0"])
        d.advance(180)  // the top rang its step: a rest
        #expect(!d.sounding && !d.outputs)
        #expect(d.scheduler.state(of: 1).phase == .snoozed && d.scheduler.state(of: 1).snoozeCount == 0)
        #expect(d.kinds(.rested).map(\.detail) == ["round 1 in 5m"])
        d.advance(300)  // round 1 at the top
        #expect(d.sounding && d.outputs && d.climbs.last == .everything)
        d.advance(180)
        d.advance(300)  // round 2
        d.advance(180)  // the last round rang unanswered
        #expect(!d.sounding && !d.outputs)
        #expect(d.kinds(.unanswered).map(\.detail) == ["after 3 round(s) of its ladder"])
        #expect(d.kinds(.autoSilenced).isEmpty, "an alarm with a ladder is never auto-silenced")
        #expect(d.scheduler.state(of: 1).phase == .idle)
        let report = MorningReport.build(
            events: d.history, alarmNames: [1: "Wake"], since: SchedulerLadderTests.start, zone: SchedulerLadderTests.utc
        ).lines
        #expect(report.first?.contains("unanswered") == true, "\(report)")
    }

    @Test func aStopDuringARestEndsItAndATouchBringsBackItsOwnSound() {
        var d = Drive(plan: LadderPlan(stepSeconds: 60, rounds: 3))
        d.advance(60)
        d.advance(60)
        #expect(d.climbs == [.louder])
        d.take(d.scheduler.personActed(at: d.now))
        #expect(d.climbs == [.louder, .own], "a touch brings back its own sound")
        d.advance(59)
        #expect(d.climbs.count == 2, "the climb starts again from the touch")
        d.advance(1 + 60 + 60 + 60)  // louder, tone, everything, then the rest
        #expect(!d.sounding && d.scheduler.state(of: 1).phase == .snoozed)
        d.take(d.scheduler.stopPressed(at: d.now, by: .button))
        #expect(d.scheduler.state(of: 1).phase == .idle)
        #expect(d.kinds(.dismissed).last?.detail.contains("during its ladder's rest") == true)
        d.advance(600)
        #expect(!d.sounding, "a rest that was stopped rings no more")
    }

    /// "Not heard in the room" takes the next step at once, each time, up to the top and no further; the climb then
    /// goes on from there; a verdict while nothing rings is nothing; with the ladder off it is only said.
    @Test func notHeardInTheRoomTakesTheNextStepAtOnceUpToTheTop() {
        var d = Drive(plan: LadderPlan(stepSeconds: 180, rounds: 1))
        d.take(d.scheduler.notHeard(1, reason: "early", at: d.now))
        #expect(d.kinds(.notHeard).isEmpty, "nothing rings yet")
        d.advance(60)  // 07:00, its own sound
        d.advance(3)
        d.take(d.scheduler.notHeard(1, reason: "no tone", at: d.now))
        #expect(d.climbs == [.louder] && d.kinds(.notHeard).map(\.detail) == ["not heard in the room: no tone"])
        d.take(d.scheduler.notHeard(1, reason: "no tone", at: d.now))
        d.take(d.scheduler.notHeard(1, reason: "no tone", at: d.now))
        #expect(d.climbs == [.louder, .tone, .everything] && d.outputs, "the top within seconds")
        #expect(d.kinds(.escalated).count == 1)
        d.take(d.scheduler.notHeard(1, reason: "no tone", at: d.now))
        #expect(d.climbs.count == 3, "the top has nothing more")
        d.advance(179)
        #expect(d.sounding, "the top rings its step from where it was reached")
        d.advance(1)
        #expect(!d.sounding && d.scheduler.state(of: 1).phase == .snoozed, "then its rest, as before")

        var off = Drive(plan: .off)
        off.advance(63)
        off.take(off.scheduler.notHeard(1, reason: "no tone", at: off.now))
        #expect(off.kinds(.notHeard).count == 1 && off.climbs.isEmpty && off.sounding)
    }

    @Test func withTheLadderOffTheAlarmAutoSilencesAfterItsDurationAsBefore() {
        var d = Drive(plan: .off)
        d.advance(60)
        d.advance(900)
        #expect(d.kinds(.autoSilenced).count == 1 && d.climbs.isEmpty && d.kinds(.unanswered).isEmpty)
    }

    @Test func anAlarmsOwnLadderOverridesTheClocksEitherWay() {
        // The clock climbs; this alarm's ladder is off: it rings its duration and falls silent.
        var off = Drive(plan: .standard, alarm: Self.alarm(duration: 120, ladder: .own(.off)))
        off.advance(60)
        off.advance(120)
        #expect(off.kinds(.autoSilenced).count == 1 && off.climbs.isEmpty && !off.sounding)
        // The clock's ladder is off; this alarm has its own, a minute a step: it climbs by its own.
        var own = Drive(plan: .off, alarm: Self.alarm(ladder: .own(LadderPlan(stepSeconds: 60, rounds: 0))))
        own.advance(60)
        own.advance(60)
        #expect(own.climbs == [.louder])
        #expect(own.scheduler.climb(of: 1)?.plan.stepSeconds == 60)
        own.advance(60 * 3)
        #expect(own.kinds(.unanswered).count == 1 && own.kinds(.autoSilenced).isEmpty && !own.sounding)
    }

    @Test func anAlarmsLadderReadsBackWhatItWrites() throws {
        #expect(try AlarmLadder(parsing: "default") == .clock)
        #expect(try AlarmLadder(parsing: "") == .clock)
        #expect(try AlarmLadder(parsing: " OFF ") == .own(.off))
        #expect(try AlarmLadder(parsing: "step=2m,rounds=5") == .own(LadderPlan(stepSeconds: 120, rounds: 5)))
        // Its own plan equal to the standard one is written so that it stays its own.
        #expect(AlarmLadder.own(.standard).description == "step=3m")
        for ladder in [AlarmLadder.clock, .own(.off), .own(.standard), .own(LadderPlan(louderDB: 9, gapSeconds: 600))] {
            #expect(try AlarmLadder(parsing: ladder.description) == ladder, "\(ladder)")
            let json = try JSONEncoder().encode(ladder)
            #expect(try JSONDecoder().decode(AlarmLadder.self, from: json) == ladder)
        }
        #expect(throws: ValidationError.self) { try AlarmLadder(parsing: "step=10s") }
        #expect(throws: ValidationError.self) { try AlarmLadder(parsing: "loudest") }
    }

    @Test("random mornings: never silent before the last round unless stopped, snoozed or resting; ends unanswered once")
    func randomMorningsKeepTheLadder() async {
        let gen = Generator<(LadderPlan, [(Int, Int)]), Shrink.None<(LadderPlan, [(Int, Int)])>> { rng in
            func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
            let plan = LadderPlan(
                stepSeconds: [30, 60, 180][int(0...2)], rounds: int(0...3), gapSeconds: [300, 600][int(0...1)])
            // (seconds to wait, what a person does then: 0 nothing, 1 touch, 2 stop, 3 snooze). So that each path is
            // walked often rather than by chance, one morning in four the sleeper never stirs (the whole ladder to
            // its unanswered end), one in four only stirs (touches that reset a climb), the others do anything.
            let sleeper = int(0...3)
            let events = (0..<int(10...120)).map { _ -> (Int, Int) in
                switch sleeper {
                case 0: (int(1...240), 0)
                case 1: (int(1...240), int(0...7) == 0 ? 1 : 0)
                default: (int(1...240), int(0...20) == 0 ? int(1...3) : 0)
                }
            }
            return (plan, events)
        }
        var seen: [String: Int] = [:]
        await propertyCheck(count: 200, input: gen) { input in
            let (plan, events) = input
            var d = Drive(plan: plan)
            var personActed = false
            for (wait, act) in events {
                d.advance(wait)
                switch act {
                case 1: d.take(d.scheduler.personActed(at: d.now))
                case 2:
                    personActed = true
                    d.take(d.scheduler.stopPressed(at: d.now))
                case 3:
                    if d.sounding { personActed = true }
                    d.take(d.scheduler.snoozePressed(at: d.now))
                default: break
                }
                let phase = d.scheduler.state(of: 1).phase
                #expect(d.sounding == (phase == .ringing), "the player sounds exactly while it rings")
                #expect(!d.outputs || d.sounding, "the outputs are never on while it is silent")
                #expect(d.kinds(.autoSilenced).isEmpty)
            }
            let ends = d.kinds(.unanswered)
            #expect(ends.count <= 1 || personActed, "one unanswered end per occurrence")
            if let end = ends.first, !personActed {
                #expect(d.kinds(.rested).count == plan.rounds, "it rested before each round: \(end.detail)")
                #expect(end.detail == "after \(plan.rounds + 1) round(s) of its ladder")
                seen["gave up", default: 0] += 1
            }
            if !d.kinds(.rested).isEmpty { seen["rested", default: 0] += 1 }
            if d.climbs.contains(.own) { seen["touch", default: 0] += 1 }
        }
        for key in ["gave up", "rested", "touch"] { #expect(seen[key, default: 0] >= 3, "\(key): \(seen)") }
    }
}
