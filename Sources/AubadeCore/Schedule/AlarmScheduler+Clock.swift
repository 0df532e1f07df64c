import Foundation

extension AlarmScheduler {
    /// A timer fired (or the periodic check of `stepCheckInterval` ran): acts on whatever came due.
    /// Also notices a wall-clock step by comparing both clocks with the previous event (R5).
    public mutating func tick(at now: SchedulerTime) -> [SchedulerAction] {
        var batch = newBatch()
        prepare(now, &batch)
        return finish(batch, now)
    }

    /// The daemon learnt that the wall clock was set (timerfd `TFD_TIMER_CANCEL_ON_SET`, NTP): re-plans
    /// from the rules. Snooze and auto-silence keep their monotonic deadlines; their stored wall instants
    /// are rewritten. A forward step catches up as after a restart (R6); no step rings an occurrence twice.
    public mutating func wallClockStepped(at now: SchedulerTime) -> [SchedulerAction] {
        var batch = newBatch()
        prepare(now, &batch, forceStep: true)
        return finish(batch, now)
    }

    /// Brings the machine up to `now` before an event is applied: starts it if needed, handles a step,
    /// and acts on everything due.
    mutating func prepare(_ now: SchedulerTime, _ batch: inout ActionBatch, forceStep: Bool = false) {
        guard let previous = last else {
            begin(now, &batch)
            advance(now, &batch)
            anchorHistory(&batch)
            return
        }
        let drift = now.wall.timeIntervalSince(previous.wall) - (now.mono - previous.mono).inSeconds
        if forceStep || abs(drift) > AlarmScheduler.stepTolerance {
            reanchor(now, drift: drift, &batch)
        }
        last = now
        advance(now, &batch)
    }

    /// After a step: the wall instants stored for ringing and snoozes are recomputed from the monotonic
    /// deadlines, so a restart after the step still resumes them correctly (R8, R9).
    private mutating func reanchor(_ now: SchedulerTime, drift: TimeInterval, _ batch: inout ActionBatch) {
        let sign = drift >= 0 ? "+" : "-"
        batch.record(
            HistoryEvent(
                at: now.wall, alarmID: nil, kind: .clockStep,
                detail: "\(sign)\(DurationText.format(Int(abs(drift).rounded())))"))
        for (id, start) in ringStarts.sorted(by: { $0.key < $1.key }) {
            var state = state(of: id)
            state.ringingSince = now.wall.addingTimeInterval(-(now.mono - start).inSeconds)
            commit(state, &batch)
        }
        for (id, deadline) in snoozeEnds.sorted(by: { $0.key < $1.key }) {
            var state = state(of: id)
            state.snoozedUntil = now.wall.addingTimeInterval((deadline - now.mono).inSeconds)
            commit(state, &batch)
        }
    }

    /// The earliest moment the machine must act again: the next occurrence of an enabled alarm (wall) and
    /// the next auto-silence or snooze end (monotonic).
    func wakeUp(_ now: SchedulerTime) -> WakeUp {
        var wall: Date?
        for id in alarms.keys {
            if let o = nextOccurrence(of: id, after: now.wall) {
                wall = min(wall ?? o.instant, o.instant)
            }
        }
        var mono: MonotonicInstant?
        for (id, start) in ringStarts {
            guard let alarm = alarms[id] else { continue }
            let deadline = ladders[id]?.nextChange ?? (soundStarts[id] ?? start) + .seconds(alarm.durationSeconds)
            mono = min(mono ?? deadline, deadline)
        }
        for deadline in snoozeEnds.values {
            mono = min(mono ?? deadline, deadline)
        }
        for deadline in wakeChecks.values.compactMap(\.check.nextChange) {
            mono = min(mono ?? deadline, deadline)
        }
        return WakeUp(wall: wall, mono: mono)
    }
}
