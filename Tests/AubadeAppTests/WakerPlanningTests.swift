import AubadeAppTesting
import AubadeCore
import Foundation
import Testing

@testable import AubadeApp

/// What the second waker is told while an unanswered alarm climbs its ladder (R35): each round after a rest is a
/// ring of its own, with a round the waker has not seen heard, so a daemon that freezes during a rest is covered by
/// the waker when the next round is due.
@Suite("Second waker: the plan while a ladder rests")
struct WakerPlanningTests {
    static let utc = TimeZone(identifier: "UTC") ?? .gmt

    @Test func eachRoundAfterARestIsARingTheWakerHasNotSeenHeard() throws {
        let start = ClockRig.at(6, 59)
        var wall = start
        var mono = MonotonicInstant(seconds: 1000)
        var scheduler = AlarmScheduler(
            alarms: [ClockRig.alarm(1, 7, 0)], states: [], settings: AppSettings(), defaultZone: Self.utc,
            ladder: LadderPlan(stepSeconds: 60, rounds: 2, gapSeconds: 300))
        func now() -> SchedulerTime { SchedulerTime(wall: wall, mono: mono) }
        func advance(_ seconds: Int) {
            wall = wall.addingTimeInterval(TimeInterval(seconds))
            mono = mono + .seconds(seconds)
            _ = scheduler.tick(at: now())
        }
        _ = scheduler.start(at: now())
        advance(60)  // 07:00: it rings, and is heard
        let heard0 = WakerPlanning.heard(scheduler: scheduler, at: wall)
        #expect(heard0.map(\.round) == [0])
        advance(4 * 60)  // own, louder, tone, everything: unanswered, then the rest
        #expect(scheduler.state(of: 1).phase == .snoozed && scheduler.state(of: 1).restCount == 1)
        let resting = WakerPlanning.entries(scheduler: scheduler, settings: AppSettings(), now: wall)
        let next = try #require(resting.first { $0.alarm == 1 && $0.occurrence == heard0[0].occurrence })
        #expect(next.round == 1, "the round after the rest is not the round that was heard: \(resting)")
        #expect(next.due == wall.addingTimeInterval(300))
        #expect(next.maxSnoozes == 3 + 1, "the rest is not one of the person's snoozes")
        #expect(
            next.ladder.enabled && next.ladder.stepSeconds == 60 && next.ladder.rounds == 1, "the rounds left: \(next.ladder)")
        let tomorrow = try #require(resting.first { $0.alarm == 1 && $0.round == 0 })
        #expect(tomorrow.ladder == LadderPlan(stepSeconds: 60, rounds: 2, gapSeconds: 300), "a new occurrence climbs it all")
        advance(300)  // round 1 rings at the top
        #expect(WakerPlanning.heard(scheduler: scheduler, at: wall).map(\.round) == [1])
        advance(60)  // its step: the second rest
        let second = WakerPlanning.entries(scheduler: scheduler, settings: AppSettings(), now: wall)
        let last = try #require(second.first { $0.alarm == 1 && $0.occurrence == heard0[0].occurrence })
        #expect(last.round == 2 && last.ladder.rounds == 0, "the last round rings no more rounds after it")
        advance(300)  // round 2, the last
        advance(60)  // unanswered: over
        #expect(scheduler.state(of: 1).phase == .idle && scheduler.state(of: 1).restCount == 0)
    }

    /// An alarm whose ladder is off gives the waker none: its ring lasts the alarm's duration.
    @Test func anAlarmWithItsLadderOffGivesTheWakerNone() {
        let scheduler = AlarmScheduler(
            alarms: [ClockRig.alarm(1, 7, 0, ladder: .own(.off)), ClockRig.alarm(2, 7, 0)], states: [],
            settings: AppSettings(), defaultZone: Self.utc, ladder: .standard)
        let entries = WakerPlanning.entries(scheduler: scheduler, settings: AppSettings(), now: ClockRig.at(6, 0))
        #expect(entries.filter { $0.alarm == 1 }.allSatisfy { !$0.ladder.enabled })
        #expect(entries.filter { $0.alarm == 2 }.allSatisfy { $0.ladder == .standard })
    }

    /// "Vibrate first, sound after": the waker's due time is the sound's start (the occurrence + N, a person's snooze's
    /// end + N, a ring's start + its silent part), so it never rings a failed daemon's alarm later than its sound would
    /// have begun; without an output the clock sounds at once, and so is the waker due at the occurrence.
    @Test func anAlarmThatVibratesFirstIsDueToTheWakerWhenItsSoundStarts() {
        var alarm = ClockRig.alarm(1, 7, 0)
        alarm.soundAfter = .seconds(120)
        var scheduler = AlarmScheduler(
            alarms: [alarm], states: [], settings: AppSettings(), defaultZone: Self.utc, ladder: .standard,
            outputs: [.shaker])
        let first = WakerPlanning.entries(scheduler: scheduler, settings: AppSettings(), now: ClockRig.at(6, 0))
        #expect(first.first?.occurrence == ClockRig.at(7, 0) && first.first?.due == ClockRig.at(7, 2))
        let mono = MonotonicInstant(seconds: 1000)
        func at(_ wall: Date) -> SchedulerTime {
            SchedulerTime(wall: wall, mono: mono + .seconds(wall.timeIntervalSince(ClockRig.at(6, 0))))
        }
        _ = scheduler.start(at: at(ClockRig.at(6, 0)))
        _ = scheduler.tick(at: at(ClockRig.at(7, 0)))
        let ringing = WakerPlanning.entries(scheduler: scheduler, settings: AppSettings(), now: ClockRig.at(7, 0))
        #expect(ringing.first?.due == ClockRig.at(7, 2), "ringing silent: due at its sound")
        _ = scheduler.snoozePressed(at: at(ClockRig.at(7, 3)))
        let snoozed = WakerPlanning.entries(scheduler: scheduler, settings: AppSettings(), now: ClockRig.at(7, 3))
        #expect(snoozed.first?.due == ClockRig.at(7, 14), "the snooze's end (07:12) + 2 min")

        let bare = AlarmScheduler(
            alarms: [alarm], states: [], settings: AppSettings(), defaultZone: Self.utc, ladder: .standard)
        let none = WakerPlanning.entries(scheduler: bare, settings: AppSettings(), now: ClockRig.at(6, 0))
        #expect(none.first?.due == ClockRig.at(7, 0), "no output: the sound at once")
    }
}
