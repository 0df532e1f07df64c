import AubadeCore
import Foundation

/// The microphone's daily self-test, run by the clock (`[verify] microphone`, `[verify] self_test_hour`): once a
/// day, when `SelfTestSchedule` says so, a short quiet chirp through the one sound engine, listened for by the same
/// room check as the rings — so a dead microphone or amplifier is known the day before, not at the alarm. A value,
/// part of `ClockState`: what is going on comes in as a `SelfTestSchedule.Situation`, effects go out.
///
/// A run: the microphone is armed and the chirp prepared at once, the chirp begins `lead` later (the room's noise is
/// measured in between), the verdict comes back as `ClockInput.selfTestHeard`. Anything else that starts meanwhile
/// (an alarm, the radio, a ring test) cancels it, and it runs again later that day. The day of the last run starts
/// as the day of the last verdict in the history, so a clock started again the same afternoon does not chirp twice
/// (a run cut short by the restart, with no verdict, runs again).
struct RoomSelfTest {
    /// A run under way: its chirp, and when it started (the name its verdict comes back under).
    struct Run: Equatable {
        var sound: SoundID
        var startedAt: Date
        var since: MonotonicInstant
        /// The day of the run before (put back if this one is cancelled).
        var previous: LocalDate?
    }

    /// The room's noise is measured before the chirp: the capture must hold 1.5 s of it.
    static let lead: Duration = .seconds(2)
    /// No verdict by then (the room check answers within seconds, 25 s at most): it is given up as not heard.
    static let giveUpAfter: Duration = .seconds(60)
    /// The status warning's key while the last self-test was not heard.
    static let warningKey = "microphone"
    /// The chirp of `aubade verify microphone`: the chime, quiet, cut short once the verdict is in.
    static let chirp = SoundRequest.roomChirp()

    /// Nil: no self-test (no microphone, or no hour).
    let schedule: SelfTestSchedule?
    private(set) var lastRun: LocalDate?
    private(set) var running: Run?
    /// When to look again, as the last turn decided.
    private(set) var nextLook: Date?

    /// `lastVerdict`: when the history's last self-test verdict was, read as a local day in `zone`.
    init(schedule: SelfTestSchedule?, lastVerdict: Date? = nil, zone: TimeZone) {
        self.schedule = schedule
        lastRun = lastVerdict.flatMap { ZoneCalendar(zone).localDate(of: $0) }
    }

    /// The clock's turn: runs the self-test if it is due and `situation` allows it, else notes when to look again.
    mutating func turn(_ situation: SelfTestSchedule.Situation, zone: TimeZone, _ now: SchedulerTime, _ c: inout ClockContext) {
        guard let schedule, running == nil else {
            nextLook = nil
            return
        }
        var situation = situation
        situation.lastRun = lastRun
        let calendar = ZoneCalendar(zone)
        switch schedule.decide(now: now.wall, calendar: calendar, situation: situation) {
        case .wait(let until):
            nextLook = until
        case .runNow:
            nextLook = nil
            start(day: calendar.localDate(of: now.wall), now, &c)
        }
    }

    private mutating func start(day: LocalDate?, _ now: SchedulerTime, _ c: inout ClockContext) {
        let since = now.mono
        c.effects.append(.room(.arm))
        let sound = c.effects.play(RoomSelfTest.chirp, paused: true)
        c.effects.begin(sound, at: since + RoomSelfTest.lead)
        c.effects.append(.room(.listenSelfTest(started: now.wall, since: since)))
        c.effects.emit("self-test", ["state": "started"])
        running = Run(sound: sound, startedAt: now.wall, since: since, previous: lastRun)
        lastRun = day ?? lastRun
    }

    /// When the clock must come back: the next look, or the run's deadline.
    func nextWake(_ now: SchedulerTime) -> MonotonicInstant? {
        if let running { return running.since + RoomSelfTest.giveUpAfter }
        return nextLook.map { now.mono(at: $0) }
    }

    /// Something else began to sound (an alarm, the radio, a ring test): the run is cancelled — its chirp stopped,
    /// its verdict dropped — and it runs again later (today's run is not counted). The microphone is closed, unless
    /// an alarm is near: then it is left as the alarm wants it.
    mutating func giveWay(to what: String, alarmNear: Bool, _ c: inout ClockContext) {
        guard let run = running else { return }
        running = nil
        lastRun = run.previous
        c.effects.stop(run.sound)
        if !alarmNear { c.effects.append(.room(.disarm)) }
        c.effects.emit("self-test", ["state": "cancelled", "reason": what])
    }

    /// The turn after the deadline with no verdict: given up.
    mutating func checkDeadline(_ now: SchedulerTime, alarmNear: Bool, _ c: inout ClockContext) {
        guard let run = running, now.mono >= run.since + RoomSelfTest.giveUpAfter else { return }
        finish(RoomReport(heard: nil, reason: "no answer from the microphone"), alarmNear: alarmNear, now, &c)
    }

    /// The room check's verdict on the run started at `started` (a verdict for another run is dropped). Heard: a
    /// `self-test-heard` line, the warning goes. Not heard, or no microphone: a `self-test-not-heard` line with the
    /// reason and a standing warning until a later self-test hears its chirp.
    mutating func heard(
        started: Date, _ found: RoomReport, alarmNear: Bool, _ now: SchedulerTime, _ c: inout ClockContext
    ) {
        guard running?.startedAt == started else { return }
        finish(found, alarmNear: alarmNear, now, &c)
    }

    private mutating func finish(_ found: RoomReport, alarmNear: Bool, _ now: SchedulerTime, _ c: inout ClockContext) {
        guard let run = running else { return }
        running = nil
        c.effects.stop(run.sound)
        // An alarm's pre-roll may have armed it meanwhile: then it stays armed for the ring.
        if !alarmNear { c.effects.append(.room(.disarm)) }
        switch found.heard {
        case true?:
            c.effects.record(.selfTestHeard, at: now.wall, "heard in the room: \(found.reason)")
            c.warn(RoomSelfTest.warningKey, nil)
        case let heard:
            // Not heard, or no microphone (the reason says which): a dead part either way.
            let detail = heard == false ? "not heard in the room: \(found.reason)" : found.reason
            c.effects.record(.selfTestNotHeard, at: now.wall, detail)
            c.warn(
                RoomSelfTest.warningKey,
                "The microphone's daily self-test failed (\(detail)); check the amplifier, the speaker and the "
                    + "microphone before the next alarm.")
        }
    }
}
