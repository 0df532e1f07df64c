import Foundation

extension AlarmScheduler {
    /// Starts (or restarts) the machine from the stored states (R9): every alarm that was ringing rings on
    /// for the rest of its own duration (together again, R38), or ends auto-silenced; a snooze resumes at its stored deadline, or rings
    /// at once (late) if the deadline passed at most G ago, else is recorded missed. Then occurrences due
    /// while no engine ran are caught up (R6). Calling it again re-plans from scratch.
    public mutating func start(at now: SchedulerTime) -> [SchedulerAction] {
        var batch = newBatch()
        begin(now, &batch)
        advance(now, &batch)
        anchorHistory(&batch)
        return finish(batch, now)
    }

    /// An alarm that never acted has no `lastHandledOccurrence`, so a later restart could not tell a missed
    /// occurrence from one before its history. Stores the latest occurrence the engine now treats as
    /// handled (at or before its floor), giving every restart a baseline (R6). Written once, at start.
    mutating func anchorHistory(_ batch: inout ActionBatch) {
        for id in alarms.keys.sorted() {
            guard let alarm = alarms[id], alarm.enabled, state(of: id).lastHandledOccurrence == nil,
                let floor = floors[id],
                let handled = AlarmSchedule.previous(of: alarm, atOrBefore: floor, defaultZone: defaultZone)
            else { continue }
            var state = state(of: id)
            state.lastHandledOccurrence = handled.instant
            commit(state, &batch)
        }
    }

    /// `start` without the final processing, for events that arrive before `start`.
    mutating func begin(_ now: SchedulerTime, _ batch: inout ActionBatch) {
        last = now
        ringStarts = [:]
        ringOrder = []
        snoozeEnds = [:]
        ladders = [:]
        wakeChecks = [:]
        // Every member of a ringing group resumes, in the order they began (ties by id), so that the latest
        // started is the one left sounding (R9, R38).
        let order = states.values.sorted {
            ($0.ringingSince ?? .distantPast, $0.alarmID) < ($1.ringingSince ?? .distantPast, $1.alarmID)
        }
        for state in order {
            resume(state, now, &batch)
        }
        for state in states.values.sorted(by: { $0.alarmID < $1.alarmID }) where state.wakeCheckAt != nil {
            resumeWakeCheck(state, now, &batch)
        }
        floors = [:]
        for (id, alarm) in alarms {
            floors[id] = initialFloor(alarm, id, now)
        }
    }

    private func initialFloor(_ alarm: Alarm, _ id: Int64, _ now: SchedulerTime) -> Date {
        // Never handled: anything due within G may still be caught up.
        var floor = states[id]?.lastHandledOccurrence ?? now.wall.addingTimeInterval(-catchUpWindow - 1)
        if let changed = updatedAt[id] {
            floor = max(floor, changed.addingTimeInterval(-AlarmScheduler.lateAfter))
        }
        return max(floor, now.wall.addingTimeInterval(-AlarmScheduler.lookBack))
    }

    /// A wake-up check stored by a Stop before the restart: it asks at its time, or at once if that passed while no
    /// engine ran (the person was not asked, so the question's minute starts now), at most the catch-up window late;
    /// older, it is dropped and the history warns that it was not asked.
    private mutating func resumeWakeCheck(_ saved: AlarmRunState, _ now: SchedulerTime, _ batch: inout ActionBatch) {
        let id = saved.alarmID
        guard let at = saved.wakeCheckAt, let alarm = alarms[id] else { return }
        let remaining = at.timeIntervalSince(now.wall)
        if saved.phase == .idle, let occurrence = saved.lastHandledOccurrence, alarm.wakeCheckSeconds > 0,
            -remaining <= catchUpWindow
        {
            wakeChecks[id] = PendingCheck(
                check: WakeCheck(alarmID: id, asksAt: now.mono + .seconds(exactly: max(0, remaining))),
                occurrence: occurrence)
            return
        }
        var state = saved
        state.wakeCheckAt = nil
        commit(state, &batch)
        if saved.phase == .idle {
            batch.record(
                HistoryEvent(
                    at: now.wall, alarmID: id, kind: .warning,
                    detail: "its wake-up check, due \(at.formatted(.iso8601)) while the clock was not running, was not asked"))
        }
    }

    private mutating func resume(_ saved: AlarmRunState, _ now: SchedulerTime, _ batch: inout ActionBatch) {
        let id = saved.alarmID
        guard saved.phase != .idle, let alarm = alarms[id] else { return }
        guard alarm.enabled else {
            cancel(id, reason: .disabled, now, &batch)
            return
        }
        switch saved.phase {
        case .idle:
            return
        case .ringing:
            let since = saved.ringingSince ?? now.wall
            let elapsed = max(0, now.wall.timeIntervalSince(since))
            if elapsed < TimeInterval(alarm.durationSeconds) {
                sound(
                    id, occurrence: saved.occurrence ?? since, startedAt: now.mono - .seconds(exactly: elapsed),
                    cause: .resumed, late: false, now, &batch)
            } else {
                end(id, kind: .autoSilenced, stop: .autoSilenced, now, &batch)
            }
        case .snoozed:
            let until = saved.snoozedUntil ?? now.wall
            let remaining = until.timeIntervalSince(now.wall)
            if remaining > 0 {
                snoozeEnds[id] = now.mono + .seconds(exactly: remaining)
            } else if -remaining <= catchUpWindow {
                // Its snooze ended while no engine ran: ring now (handled with the other deadlines).
                snoozeEnds[id] = now.mono + .seconds(exactly: remaining)
            } else {
                end(id, kind: .missed, stop: nil, now, &batch, detail: "snooze ended \(until.formatted(.iso8601))")
            }
        }
    }
}
