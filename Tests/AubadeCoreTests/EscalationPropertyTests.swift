import AubadeCore
import PropertyBased
import Testing

/// The ladder and the wake-up check as properties: random plans, random turns (early, late, several steps late) and
/// random touches of a person, checked after every event against what the ladder promises — never silent before
/// the last round except in a rest that ends in a ring, a person's touch always brings it back to its own sound,
/// each step rings its full length unless touched, every round is announced once, the rests are at least five
/// minutes, and it gives up exactly once, after its last round.
@Suite("Escalation: the ladder and the wake-up check as properties")
struct EscalationPropertyTests {
    struct Run: Sendable, CustomStringConvertible {
        var plan: LadderPlan
        /// Seconds after the previous event, and whether a person touched then (else the clock's turn).
        var events: [(seconds: Int, touch: Bool)]
        var description: String { "\(plan) \(events.count) events: \(events.prefix(30))…" }
    }

    static let generator = Generator<Run, Shrink.None<Run>> { rng in
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        let plan = LadderPlan(
            stepSeconds: [30, 60, 180, 600][int(0...3)], louderDB: int(0...20), rounds: int(0...4),
            gapSeconds: [300, 420, 900][int(0...2)])
        let touchy = int(0...3) == 0
        let events = (0..<int(20...200)).map { _ in
            (seconds: [1, 7, 29, 61, 180, 400, 1200][int(0...6)], touch: touchy && int(0...5) == 0)
        }
        return Run(plan: plan, events: events)
    }

    @Test("a random morning's turns and touches keep every promise of the ladder")
    func theLadderKeepsItsPromises() async {
        var seen: [String: Int] = [:]
        await propertyCheck(count: 300, input: Self.generator) { run in
            let start = MonotonicInstant(seconds: 10_000)
            var ladder = WakeLadder(plan: run.plan, start: start)
            var now = start
            var current = LadderStep.own
            var outputs = false
            var rangAgain: [Int] = []
            var gaveUp = 0
            var announced = 0
            for event in run.events {
                now = now + .seconds(event.seconds)
                // What the ladder is at `now` before the touch: its due changes first.
                var probe = ladder
                _ = probe.tick(at: now)
                let before = probe.phase
                let actions = event.touch ? ladder.personActed(at: now) : ladder.tick(at: now)
                for action in actions {
                    switch action {
                    case .sound(let step):
                        #expect(
                            step == .everything || step == .own || step.rawValue == current.rawValue + 1,
                            "a climb goes one step at a time")
                        current = step
                    case .outputs(let on):
                        outputs = on
                    case .unanswered:
                        announced += 1
                        seen["unanswered"] = (seen["unanswered"] ?? 0) + 1
                    case .rest(_, let round):
                        #expect(round == rangAgain.count + 1, "a rest comes before the next round")
                        seen["rest"] = (seen["rest"] ?? 0) + 1
                    case .ringAgain(let round):
                        rangAgain.append(round)
                        seen["ring again"] = (seen["ring again"] ?? 0) + 1
                    case .gaveUp:
                        gaveUp += 1
                        seen["gave up"] = (seen["gave up"] ?? 0) + 1
                    }
                }
                if event.touch {
                    if case .ringing = before {
                        #expect(ladder.phase == .ringing(.own, since: now), "a touch while it rings brings back its own sound")
                        #expect(!outputs, "and turns the outputs off")
                        current = .own
                        seen["touch reset"] = (seen["touch reset"] ?? 0) + 1
                    } else {
                        #expect(ladder.phase == before, "a touch while it rests or after it gave up changes nothing")
                    }
                }
                switch ladder.phase {
                case .ringing(let step, let since):
                    #expect(step == .everything || step == current)
                    #expect(since <= now && now - since < .seconds(run.plan.stepSeconds), "no step outlasts its length")
                    #expect(outputs == (step == .everything))
                case .resting(let until, let round):
                    #expect(until > now, "a rest always ends in a ring")
                    #expect(round <= run.plan.rounds)
                    #expect(!outputs)
                case .over:
                    #expect(ladder.round == run.plan.rounds, "it gives up only after its last round")
                    #expect(!outputs)
                }
            }
            #expect(gaveUp <= 1)
            #expect(rangAgain == Array(1..<(rangAgain.count + 1)), "rounds ring in order, each once")
            if gaveUp == 1 { #expect(rangAgain.count == run.plan.rounds) }
            #expect(announced >= min(1, gaveUp), "a ladder that gave up had announced it was unanswered")
        }
        for key in ["unanswered", "rest", "ring again", "gave up", "touch reset"] {
            #expect((seen[key] ?? 0) >= 3, "\(key) happened \(seen[key] ?? 0) times")
        }
    }

    @Test func anUntouchedLadderClimbsStepByStepRestsAndGivesUpAfterItsLastRound() {
        let plan = LadderPlan(stepSeconds: 180, rounds: 2, gapSeconds: 300)
        let t0 = MonotonicInstant(seconds: 0)
        var ladder = WakeLadder(plan: plan, start: t0)
        #expect(ladder.tick(at: t0 + .seconds(179)).isEmpty)
        #expect(ladder.tick(at: t0 + .seconds(180)) == [.sound(.louder)])
        #expect(ladder.tick(at: t0 + .seconds(360)) == [.sound(.tone)])
        #expect(ladder.tick(at: t0 + .seconds(540)) == [.sound(.everything), .outputs(on: true), .unanswered(round: 0)])
        #expect(ladder.tick(at: t0 + .seconds(720)) == [.outputs(on: false), .rest(until: t0 + .seconds(1020), round: 1)])
        #expect(!ladder.sounding)
        #expect(ladder.tick(at: t0 + .seconds(1020)) == [.ringAgain(round: 1), .sound(.everything), .outputs(on: true)])
        // A turn two steps late still passes through each change, in order.
        #expect(
            ladder.tick(at: t0 + .seconds(1600))
                == [
                    .outputs(on: false), .rest(until: t0 + .seconds(1500), round: 2), .ringAgain(round: 2), .sound(.everything),
                    .outputs(on: true),
                ])
        #expect(ladder.tick(at: t0 + .seconds(1680)) == [.outputs(on: false), .gaveUp])
        #expect(ladder.phase == .over && ladder.nextChange == nil)
    }

    @Test func aLadderThatIsOffNeverClimbs() {
        var ladder = WakeLadder(plan: .off, start: MonotonicInstant(seconds: 0))
        #expect(ladder.tick(at: MonotonicInstant(seconds: 100_000)).isEmpty)
        #expect(ladder.personActed(at: MonotonicInstant(seconds: 5)).isEmpty)
        #expect(ladder.nextChange == nil)
    }

    @Test(arguments: [
        ("default", LadderPlan.standard), ("off", LadderPlan.off), ("2m", LadderPlan(stepSeconds: 120)),
        ("step=2m,rounds=5,gap=10m,louder=9dB", LadderPlan(stepSeconds: 120, louderDB: 9, rounds: 5, gapSeconds: 600)),
    ])
    func aPlanIsReadAndWrittenBack(text: String, plan: LadderPlan) throws {
        let read = try LadderPlan(parsing: text)
        #expect(read == plan)
        #expect(try LadderPlan(parsing: read.description) == plan)
    }

    @Test(arguments: ["gap=1m", "rounds=11", "louder=30dB", "step=10s", "wobble=3"])
    func aPlanOutOfRangeIsOneSentence(text: String) {
        #expect(throws: ValidationError.self) { try LadderPlan(parsing: text) }
    }

    @Test func theLouderStepIsSixDecibelsOnTheVolumeScaleUpToFull() {
        #expect(LadderPlan.standard.louder(60) == 75)
        #expect(LadderPlan.standard.louder(95) == 100)
    }

    @Test("a wake-up check asks after its delay and rings again only when nobody answers within a minute")
    func theWakeCheckKeepsItsPromises() async {
        let gen = Generator<(after: Int, answer: Int?, turns: [Int]), Shrink.None<(after: Int, answer: Int?, turns: [Int])>> {
            rng in
            func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
            let after = [60, 300, 900][int(0...2)]
            let answer: Int? = int(0...2) == 0 ? nil : int(0...(after + 120))
            return (after, answer, (0..<int(3...40)).map { _ in int(1...90) })
        }
        await propertyCheck(count: 300, input: gen) { run in
            let stop = MonotonicInstant(seconds: 500)
            var check = WakeCheck(alarmID: 1, after: .seconds(run.after), stoppedAt: stop)
            var now = stop
            var outcome: [WakeCheck.Action] = []
            var answered = false
            for step in run.turns {
                let next = now + .seconds(step)
                // An answer that falls before this turn is taken at its own time.
                if let answer = run.answer, !answered, stop + .seconds(answer) <= next {
                    answered = true
                    outcome += check.answered(at: stop + .seconds(answer))
                }
                now = next
                outcome += check.tick(at: now)
            }
            let asks = outcome.filter { $0 == .ask }.count
            let ends = outcome.filter { $0 == .woke || $0 == .ringAgain }
            #expect(asks <= 1 && ends.count <= 1, "one question, one outcome: \(outcome)")
            if let end = ends.first, let ask = outcome.firstIndex(of: .ask) { #expect(ask < outcome.firstIndex(of: end)!) }
            if !ends.isEmpty { #expect(asks == 1, "nothing ends a check that never asked") }
            if asks == 1 { #expect(now >= stop + .seconds(run.after) || answered, "never asked before its delay") }
            let inTime = run.answer.map { answered && $0 >= run.after && $0 < run.after + 60 } ?? false
            if inTime { #expect(ends == [.woke], "an answer within the minute is a person who woke") }
            if ends == [.woke] { #expect(inTime, "woke only on an answer within the minute") }
            if ends == [.ringAgain] { #expect(!inTime, "rang again only when nobody answered in time") }
        }
    }
}
