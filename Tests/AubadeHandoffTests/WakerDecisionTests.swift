import AubadeHandoff
import Testing

/// The second waker's decision over file states × heartbeat × instant (R35): what it arms, when it rings, and
/// every way a ring counts as handled — by the daemon (heard, snoozed, stopped, skipped, a later occurrence) or
/// by the waker itself (a person's stop or snooze, the duration, a shutdown that leaves it open).
@Suite("Second waker: the decision (R35)")
struct WakerDecisionTests {
    static let grace: Int64 = 60_000
    /// 08:00 on some morning, Unix ms.
    static let t0: Int64 = 1_764_057_600_000
    static let work = HandoffEntry(alarm: 1, occurrence: t0, due: t0, volume: 90, durationSeconds: 600)

    static func file(_ entries: [HandoffEntry]) -> NextAlarmFile {
        var f = NextAlarmFile()
        f.entries = entries
        return f
    }

    static func beat(_ records: [HeartbeatRecord]) -> HeartbeatFile {
        var h = HeartbeatFile()
        h.records = records
        return h
    }

    static func decide(
        _ entries: [HandoffEntry], _ records: [HeartbeatRecord] = [], state: WakerStateFile = WakerStateFile(),
        at now: Int64
    ) -> WakerDecision.Verdict {
        WakerDecision.decide(next: file(entries), heartbeat: beat(records), state: state, now: now, grace: grace)
    }

    static func record(_ state: HeartbeatState, alarm: Int64 = 1, occurrence: Int64 = t0, round: Int = 0) -> HeartbeatRecord {
        HeartbeatRecord(alarm: alarm, occurrence: occurrence, round: round, state: state, at: occurrence + 2_000)
    }

    // MARK: File states × instants, no heartbeat

    @Test func withNoFileOrNoEntriesItGuardsNothing() {
        #expect(Self.decide([], at: Self.t0) == .idle)
        #expect(
            WakerDecision.decide(
                next: NextAlarmFile(), heartbeat: HeartbeatFile(), state: WakerStateFile(),
                now: Self.t0, grace: Self.grace) == .idle)
    }

    static let instants: [(offset: Int64, expected: String)] = [
        (-86_400_000, "wait"),  // a day before
        (-1, "wait"),  // a moment before the alarm
        (0, "wait"),  // at the alarm second: the daemon's turn
        (59_999, "wait"),  // inside the grace
        (60_000, "ring"),  // the grace is over and nothing says it was heard
        (300_000, "ring"),  // a waker started late still rings, for the rest of the duration
        (659_999, "ring"),  // the duration's last moment
        (660_000, "idle"),  // the duration is over: too late to ring
    ]

    @Test(arguments: instants)
    func anUnheardAlarmRingsAtItsGraceAndNotAfterItsDuration(offset: Int64, expected: String) {
        let verdict = Self.decide([Self.work], at: Self.t0 + offset)
        switch expected {
        case "wait": #expect(verdict == .wait(Self.work, at: Self.t0 + Self.grace))
        case "ring": #expect(verdict == .ring(Self.work))
        default: #expect(verdict == .idle)
        }
    }

    @Test func theEarliestRingIsArmedAndTiesGoToTheLowerAlarmID() {
        let later = HandoffEntry(
            alarm: 2, occurrence: Self.t0 + 3_600_000, due: Self.t0 + 3_600_000, volume: 90, durationSeconds: 60)
        let same = HandoffEntry(alarm: 3, occurrence: Self.t0, due: Self.t0, volume: 90, durationSeconds: 60)
        #expect(Self.decide([later, Self.work], at: Self.t0) == .wait(Self.work, at: Self.t0 + Self.grace))
        #expect(Self.decide([same, later, Self.work], at: Self.t0) == .wait(Self.work, at: Self.t0 + Self.grace))
        // Once the first is over (its duration passed), the next one is armed.
        #expect(Self.decide([same, later, Self.work], at: Self.t0 + 700_000) == .wait(later, at: later.due + Self.grace))
    }

    // MARK: The heartbeat

    static let heartbeats: [(name: String, record: HeartbeatRecord, handled: Bool)] = [
        ("heard", record(.audible), true),
        ("snoozed", record(.snoozed), true),
        ("stopped", record(.stopped), true),
        ("skipped", record(.skipped), true),
        ("a later occurrence heard", record(.audible, occurrence: t0 + 86_400_000), true),
        ("an earlier occurrence stopped", record(.stopped, occurrence: t0 - 86_400_000), false),
        ("another alarm heard", record(.audible, alarm: 2), false),
        ("an earlier round heard", record(.audible, round: 0), false),  // checked against round 1 below
    ]

    @Test(arguments: heartbeats)
    func theHeartbeatDecidesWhetherTheDaemonHandledIt(name: String, record: HeartbeatRecord, handled: Bool) {
        var entry = Self.work
        if name == "an earlier round heard" { entry.round = 1 }
        let verdict = Self.decide([entry], [record], at: Self.t0 + Self.grace)
        #expect(verdict == (handled ? .idle : .ring(entry)), "\(name)")
    }

    @Test func aSnoozedRoundIsGuardedAgainAtTheSnoozeEnd() {
        // Round 0 was heard, then snoozed; round 1 is due at the snooze's end and is nobody's yet.
        var round1 = Self.work
        round1.round = 1
        round1.due = Self.t0 + 9 * 60_000
        let records = [Self.record(.snoozed, round: 0)]
        #expect(Self.decide([round1], records, at: Self.t0 + 60_000) == .wait(round1, at: round1.due + Self.grace))
        #expect(Self.decide([round1], records, at: round1.due + Self.grace) == .ring(round1))
        #expect(Self.decide([round1], [Self.record(.audible, round: 1)], at: round1.due + Self.grace) == .idle)
    }

    // MARK: The waker's own rings

    static func state(_ rings: [WakerRing], quietThrough: Int64 = 0, snoozed: HandoffEntry? = nil) -> WakerStateFile {
        var s = WakerStateFile()
        for r in rings { s.remember(r) }
        s.quietThrough = quietThrough
        s.snoozed = snoozed
        return s
    }

    static let ownEnds: [(end: WakerEnd, round: Int, open: Bool)] = [
        (.stop, 0, false), (.duration, 0, false), (.unanswered, 0, false), (.snooze, 0, false), (.daemon, 0, false),
        (.shutdown, 0, true),  // a waker stopped mid-ring resumes it when it starts again
        (.snooze, 1, true),  // a later round of a snoozed ring (checked with a round-1 entry below)
    ]

    @Test(arguments: ownEnds)
    func aRingTheWakerEndedIsNotRungAgain(end: WakerEnd, round: Int, open: Bool) {
        let ring = WakerRing(
            alarm: 1, occurrence: Self.t0, round: 0, started: Self.t0 + Self.grace,
            ended: Self.t0 + 120_000, end: end)
        var entry = Self.work
        entry.round = round
        let now = Self.t0 + 130_000
        #expect(
            WakerDecision.isOpen(
                entry, heartbeat: HeartbeatFile(), state: Self.state([ring]), now: now,
                grace: Self.grace) == open)
    }

    /// With a ladder the ring is open until its last round is over, not its duration: 4 steps of 60 s, then 2
    /// rounds of a 300-s rest and a 60-s step — 960 s after it rings.
    @Test func aRingWithALadderIsOpenUntilItsLastRoundNotItsDuration() {
        var entry = Self.work
        entry.ladder = HandoffLadder(stepSeconds: 60, louderDB: 6, rounds: 2, gapSeconds: 300)
        let rings = entry.ringsAt(grace: Self.grace)
        #expect(entry.endsAt(grace: Self.grace) == rings + 960_000)
        for (at, open) in [(rings + 600_000, true), (rings + 959_999, true), (rings + 960_000, false)] {
            #expect(
                WakerDecision.isOpen(entry, heartbeat: HeartbeatFile(), state: WakerStateFile(), now: at, grace: Self.grace)
                    == open, "at +\(at - rings) ms")
        }
    }

    /// Where a ring is on its ladder, by the ms since it began.
    static let phases: [(Int64, HandoffLadder.Phase)] = [
        (-5, .ringing(round: 0, step: 0)), (0, .ringing(round: 0, step: 0)), (59_999, .ringing(round: 0, step: 0)),
        (60_000, .ringing(round: 0, step: 1)), (180_000, .ringing(round: 0, step: 3)), (239_999, .ringing(round: 0, step: 3)),
        (240_000, .resting(before: 1)), (539_999, .resting(before: 1)), (540_000, .ringing(round: 1, step: 3)),
        (600_000, .resting(before: 2)), (900_000, .ringing(round: 2, step: 3)), (959_999, .ringing(round: 2, step: 3)),
        (960_000, .over), (10_000_000, .over),
    ]

    @Test(arguments: phases)
    func theLaddersPhaseFollowsItsSteps(elapsed: Int64, phase: HandoffLadder.Phase) {
        let ladder = HandoffLadder(stepSeconds: 60, louderDB: 6, rounds: 2, gapSeconds: 300)
        #expect(ladder.phase(afterMilliseconds: elapsed) == phase)
        #expect(ladder.restEnds(before: 1) == 540_000 && ladder.restEnds(before: 2) == 900_000, "where each round rings")
        #expect(HandoffLadder.none.phase(afterMilliseconds: elapsed) == nil)
    }

    @Test func aPersonsStopCoversEveryRingDueByThen() {
        let other = HandoffEntry(alarm: 2, occurrence: Self.t0 + 30_000, due: Self.t0 + 30_000, volume: 90, durationSeconds: 600)
        let afterwards = HandoffEntry(
            alarm: 3, occurrence: Self.t0 + 600_000, due: Self.t0 + 600_000, volume: 90,
            durationSeconds: 600)
        let s = Self.state([], quietThrough: Self.t0 + 100_000)
        #expect(
            Self.decide([Self.work, other, afterwards], state: s, at: Self.t0 + 100_000)
                == .wait(afterwards, at: afterwards.due + Self.grace))
    }

    @Test func theWakersOwnSnoozeRingsASnoozeLengthAfterThePress() {
        let pressed = Self.t0 + 120_000
        let next = Self.work.snoozed(at: pressed, grace: Self.grace)
        #expect(next.round == 1 && next.ringsAt(grace: Self.grace) == pressed + 540_000)
        let snoozeRing = WakerRing(
            alarm: 1, occurrence: Self.t0, round: 0, started: Self.t0 + Self.grace, ended: pressed,
            end: .snooze, by: .button)
        let s = Self.state([snoozeRing], quietThrough: pressed, snoozed: next)
        // The daemon's file still lists round 0 (it is down): that one is over; the waker's round 1 is armed.
        #expect(Self.decide([Self.work], state: s, at: pressed + 1) == .wait(next, at: pressed + 540_000))
        #expect(Self.decide([], state: s, at: pressed + 540_000) == .ring(next))
        // A daemon back in the meantime that heard round 1 takes it over.
        #expect(Self.decide([], [Self.record(.audible, round: 1)], state: s, at: pressed + 540_000) == .idle)
        // One back before the snooze ends lists round 1 itself (it took the snooze over): its entry, with the
        // grace, is armed instead of the waker's own.
        var daemons = next
        daemons.due = pressed + 540_000
        #expect(Self.decide([daemons], state: s, at: pressed + 1) == .wait(daemons, at: daemons.due + Self.grace))
        // Snoozes run out as the alarm says.
        var last = Self.work
        last.round = last.maxSnoozes
        #expect(!last.maySnooze && Self.work.maySnooze)
    }
}
