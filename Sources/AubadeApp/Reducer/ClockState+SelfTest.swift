import AubadeCore
import Foundation

/// The clock's side of the microphone's daily self-test (`RoomSelfTest`): what it is told of what else sounds and
/// which alarms are near, on each turn and after every arrival.
extension ClockState {
    /// What sounds besides the self-test's chirp, if anything: an alarm (pre-rolled, ringing, or its wake-up check),
    /// the radio, a ring test.
    var soundingBesidesSelfTest: String? {
        // An alarm pre-rolled is due within seconds: its room check measures the room's noise now.
        if runner.isRinging || runner.asking || !runner.prepared.isEmpty { return "an alarm" }
        if radio.isSleepTimer { return "the sleep timer" }
        if radio.session != nil || radio.chime != nil { return "the radio" }
        if ringTest != nil { return "a ring test" }
        return nil
    }

    /// Whether an alarm is pre-rolled or rings: the microphone stays armed for it.
    var alarmNear: Bool { runner.isRinging || !runner.prepared.isEmpty }

    /// The self-test's turn: given up past its deadline, or started when due and nothing else sounds or comes near.
    mutating func selfTestTurn() {
        selfTest.checkDeadline(now, alarmNear: alarmNear, &context)
        let scheduler = runner.scheduler
        var alarms = runner.upcoming.map(\.occurrence.instant)
        for id in scheduler.alarms.keys {
            let state = scheduler.state(of: id)
            alarms += [state.snoozedUntil, state.lastHandledOccurrence].compactMap { $0 }
        }
        let situation = SelfTestSchedule.Situation(
            alarmRinging: runner.isRinging || runner.asking, sleepTimerRunning: radio.isSleepTimer,
            playing: soundingBesidesSelfTest != nil, alarms: alarms)
        selfTest.turn(situation, zone: scheduler.defaultZone, now, &context)
    }
}
