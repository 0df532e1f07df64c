import AubadeCore
import Foundation

/// "Vibrate first, sound after" (`Alarm.soundAfter`, `RingRequest.silentFor`): the ring begins at the alarm's time,
/// silent, with its outputs on; its sound is pre-rolled 15 s before the second it starts, so its first frame still
/// reaches the card on that second, and the engine's supervision, the ladder and the microphone begin with it.
extension AlarmRunner {
    static let soundAfterKey = "sound-after"

    /// The second alarm `id`'s sound would begin for `occurrence` if it rang then: the occurrence, or later by its
    /// `soundAfter` when one of the clock's outputs comes on first (`AlarmScheduler.silence`).
    func soundInstant(of id: Int64, occurrence: Date) -> Date {
        guard let alarm = scheduler.alarms[id] else { return occurrence }
        return occurrence.addingTimeInterval(scheduler.silence(of: alarm, late: 0).inSeconds)
    }

    /// A turn while a ring vibrates first: 15 s before its sound starts, the pre-roll; at that instant, the sound.
    mutating func vibrateFirstTurn(_ now: SchedulerTime, _ c: inout ClockContext) {
        guard let r = ringing, r.sound == nil, let request = r.pending else { return }
        if now.mono >= r.soundAt {
            startSound(request, ringStartedAt: r.startedAt, announce: false, now, &c)
        } else if r.soundAt - now.mono <= .seconds(AlarmRunner.prerollLead), prepared[r.alarmID]?.occurrence != r.occurrence,
            let alarm = scheduler.alarms[r.alarmID]
        {
            preroll(
                alarm, id: r.alarmID, occurrence: r.occurrence,
                soundAt: now.wall.addingTimeInterval((r.soundAt - now.mono).inSeconds), now, &c)
            // The microphone measures the room's noise (the outputs' too) before the sound.
            if c.caps.room { c.effects.append(.room(.arm)) }
        }
    }

    /// Whether `p` is the pre-roll of the ring that vibrates first now (kept while its ring is silent).
    func isSilentRingsPreroll(_ id: Int64, _ p: Prepared) -> Bool {
        guard let r = ringing, r.sound == nil else { return false }
        return r.alarmID == id && r.occurrence == p.occurrence
    }

    /// A ring that vibrated first ends, or gives way, before its sound: its pre-rolled sound, if made, is stopped.
    mutating func dropPreroll(of r: Ringing, _ c: inout ClockContext) {
        guard let p = prepared[r.alarmID], p.occurrence == r.occurrence else { return }
        c.effects.stop(p.sound)
        prepared[r.alarmID] = nil
    }
}
