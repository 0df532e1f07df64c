import AubadeCore
import Foundation
import PropertyBased
import Testing

/// The wake-up check in the alarm engine (`Alarm.wakeCheckSeconds`, `WakeCheck`): a set time after a person's Stop
/// it asks "Are you up?"; any input of a person answers (`woke`); unanswered within a minute the alarm rings again
/// from its ladder's bottom (`fell-back-asleep`). A Snooze, an auto-silence or an alarm without a check asks nothing.
@Suite("Scheduler: the wake-up check after a Stop")
struct SchedulerWakeCheckTests {
    typealias Drive = SchedulerLadderTests.Drive

    static func stopped(after seconds: Int = 300, ladder: LadderPlan = .standard) -> Drive {
        var d = Drive(plan: ladder, alarm: SchedulerLadderTests.alarm(wakeCheck: seconds))
        d.advance(60)  // 07:00: it rings
        d.advance(30)
        d.take(d.scheduler.stopPressed(at: d.now, by: .button))
        return d
    }

    @Test func answeredByAButtonItSaysWokeAndRingsNoMore() {
        var d = Self.stopped()
        #expect(!d.sounding && !d.asking)
        d.advance(299)
        #expect(!d.asking && d.kinds(.wakeCheck).isEmpty, "not before its five minutes")
        d.advance(1)
        #expect(d.asking && d.kinds(.wakeCheck).count == 1 && !d.sounding, "a question, not a ring")
        #expect(d.scheduler.askingWakeChecks == [1])
        d.advance(30)
        d.take(d.scheduler.personActed(at: d.now, by: .button))
        #expect(!d.asking && d.kinds(.woke).map(\.detail) == ["by=button"])
        d.advance(3600)
        #expect(!d.sounding && d.rings.count == 1 && d.kinds(.fellBackAsleep).isEmpty)
    }

    @Test func unansweredItRingsTheSameOccurrenceAgainFromItsLaddersBottom() {
        var d = Self.stopped(after: 120)
        d.advance(120)
        #expect(d.asking)
        d.advance(59)
        #expect(!d.sounding)
        d.advance(1)
        #expect(d.sounding && !d.asking && d.kinds(.fellBackAsleep).count == 1)
        #expect(d.rings.count == 2 && d.rings[1].occurrence == d.rings[0].occurrence && d.rings[1].cause == .wakeCheck)
        let climbsBefore = d.climbs.count
        d.advance(180)
        #expect(d.climbs.dropFirst(climbsBefore) == [.louder], "it climbs again from its own sound")
        // Stopped again, it asks again; a Stop while it asks answers it.
        d.take(d.scheduler.stopPressed(at: d.now, by: .api))
        d.advance(120)
        #expect(d.asking)
        d.take(d.scheduler.stopPressed(at: d.now, by: .cli))
        #expect(!d.asking && d.kinds(.woke).count == 1)
        d.advance(600)
        #expect(!d.sounding && d.rings.count == 2)
    }

    @Test func aSnoozeAnAutoSilenceOrAnAlarmWithoutACheckAsksNothing() {
        var snoozed = Drive(plan: .standard, alarm: SchedulerLadderTests.alarm(wakeCheck: 60))
        snoozed.advance(60)
        snoozed.take(snoozed.scheduler.snoozePressed(at: snoozed.now, by: .button))
        snoozed.advance(120)
        #expect(snoozed.kinds(.wakeCheck).isEmpty)

        var silenced = Drive(plan: .off, alarm: SchedulerLadderTests.alarm(duration: 120, wakeCheck: 60))
        silenced.advance(60)
        silenced.advance(120)
        silenced.advance(600)
        #expect(silenced.kinds(.autoSilenced).count == 1 && silenced.kinds(.wakeCheck).isEmpty)

        var plain = Self.stopped(after: 0)
        plain.advance(3600)
        #expect(plain.kinds(.wakeCheck).isEmpty && plain.rings.count == 1)
    }

    @Test func anAnswerBeforeTheQuestionDoesNotAnswerIt() {
        var d = Self.stopped(after: 300)
        d.advance(100)
        d.take(d.scheduler.personActed(at: d.now, by: .api))
        d.advance(200)
        #expect(d.asking, "the check still asks")
        d.advance(60)
        #expect(d.sounding && d.kinds(.fellBackAsleep).count == 1)
    }

    @Test("random checks: answered within the minute, never rung again; unanswered, rung again exactly once")
    func randomChecksKeepTheirPromise() async {
        let gen = Generator<(after: Int, answer: Int), Shrink.None<(after: Int, answer: Int)>> { rng in
            (Int.random(in: 60...3600, using: &rng), Int.random(in: 0...200, using: &rng))
        }
        await propertyCheck(count: 200, input: gen) { run in
            let (after, answer) = (run.after, run.answer)
            var d = Self.stopped(after: after, ladder: .off)
            d.advance(after)
            #expect(d.asking)
            if answer < 60 {
                d.advance(answer)
                d.take(d.scheduler.personActed(at: d.now, by: .mqtt))
                d.advance(7200)
                #expect(d.rings.count == 1 && d.kinds(.woke).count == 1 && d.kinds(.fellBackAsleep).isEmpty)
            } else {
                d.advance(answer)
                #expect(d.rings.count == 2 && d.kinds(.fellBackAsleep).count == 1 && d.kinds(.woke).isEmpty)
            }
        }
    }

    // MARK: Across a restart (R8)

    @Test func aCheckDueWhileTheClockWasDownIsAskedAtOnceWithItsWholeMinute() {
        var d = Self.stopped(after: 300)
        d.restart(after: 330, alarm: SchedulerLadderTests.alarm(wakeCheck: 300))
        #expect(d.asking && d.kinds(.wakeCheck).count == 1, "its time passed while no engine ran: asked now")
        d.advance(59)
        #expect(!d.sounding)
        d.advance(1)
        #expect(d.sounding && d.kinds(.fellBackAsleep).count == 1 && d.rings.last?.cause == .wakeCheck)
        #expect(d.stored[1]?.wakeCheckAt == nil)
    }

    @Test func aCheckLongOverdueAtARestartIsNotAskedAndTheHistorySaysSo() {
        var d = Self.stopped(after: 300)
        d.restart(after: 7200, alarm: SchedulerLadderTests.alarm(wakeCheck: 300))
        d.advance(600)
        #expect(!d.asking && !d.sounding && d.kinds(.wakeCheck).isEmpty)
        #expect(d.kinds(.warning).map(\.detail).contains { $0.contains("wake-up check") && $0.contains("not asked") })
        #expect(d.stored[1]?.wakeCheckAt == nil)
    }

    @Test func anAnsweredCheckIsForgottenSoARestartAsksNothing() {
        var d = Self.stopped(after: 120)
        #expect(d.stored[1]?.wakeCheckAt == SchedulerLadderTests.start.addingTimeInterval(90 + 120))
        d.advance(120)
        d.take(d.scheduler.personActed(at: d.now, by: .button))
        #expect(d.stored[1]?.wakeCheckAt == nil)
        d.restart(after: 10, alarm: SchedulerLadderTests.alarm(wakeCheck: 120))
        d.advance(3600)
        #expect(d.kinds(.wakeCheck).count == 1 && d.rings.count == 1)
    }
}

extension SchedulerLadderTests.Drive {
    /// A restart (a `kill -9`, a reboot) `down` seconds later on the wall clock: a new engine from the stored states,
    /// on a new monotonic clock.
    mutating func restart(after down: Int, plan: LadderPlan = .standard, alarm: Alarm) {
        wall = wall.addingTimeInterval(TimeInterval(down))
        mono = MonotonicInstant(seconds: 50)
        scheduler = AlarmScheduler(
            alarms: [alarm], states: Array(stored.values), settings: AppSettings(),
            defaultZone: SchedulerLadderTests.utc, ladder: plan)
        take(scheduler.start(at: now))
    }
}
