import Foundation

/// The state changes every event is built from. Each one commits the new state into the batch before
/// queuing the side effects it guards (R9).
extension AlarmScheduler {
    /// Stores `state`; queues a `.persist` only when it differs from the stored one (no idle writes, R29).
    mutating func commit(_ state: AlarmRunState, _ batch: inout ActionBatch) {
        guard states[state.alarmID] != state else { return }
        states[state.alarmID] = state
        batch.persist(state)
    }

    /// Makes alarm `id` the sounding alarm for `occurrence`, its ringing begun at `startedAt` (monotonic).
    /// A different alarm that was sounding is superseded (R13); its sound is replaced, never stopped first.
    mutating func sound(_ id: Int64, occurrence: Date, startedAt: MonotonicInstant, cause: RingCause,
                        late: Bool, _ now: SchedulerTime, _ batch: inout ActionBatch) {
        guard let alarm = alarms[id] else { return }
        let replacing = ringingAlarmID.flatMap { $0 == id ? nil : $0 }
        if let other = replacing {
            end(other, kind: .superseded, stop: .superseded, now, &batch, detail: "alarm \(id) took over")
        }
        var state = state(of: id)
        if state.phase != .idle, let old = state.occurrence, old != occurrence {
            batch.record(HistoryEvent(at: now.wall, alarmID: id, kind: .superseded,
                                      detail: "its occurrence \(old.formatted(.iso8601)) gave way to the next"))
            state.snoozeCount = 0
        }
        if cause == .scheduled { state.snoozeCount = 0 }
        state.phase = .ringing
        state.occurrence = occurrence
        state.ringingSince = now.wall.addingTimeInterval(-(now.mono - startedAt).inSeconds)
        state.snoozedUntil = nil
        state.lastHandledOccurrence = max(state.lastHandledOccurrence ?? occurrence, occurrence)
        commit(state, &batch)
        ringStarts[id] = startedAt
        snoozeEnds[id] = nil
        floors[id] = max(floors[id] ?? occurrence, occurrence)
        batch.record(HistoryEvent(at: now.wall, alarmID: id, kind: historyKind(cause, late: late),
                                  detail: ringDetail(occurrence, now, late)))
        batch.ring(RingRequest(alarmID: id, occurrence: occurrence, sound: alarm.sound, volume: alarm.volume,
                               fadeInSeconds: alarm.fadeInSeconds, late: late, cause: cause, replacing: replacing))
    }

    /// Ends alarm `id`'s occurrence (dismissed, auto-silenced, superseded, missed): idle again, the end
    /// recorded, its sound stopped when `stop` is given. A one-shot alarm then disables itself.
    mutating func end(_ id: Int64, kind: HistoryKind, stop: StopReason?, _ now: SchedulerTime,
                      _ batch: inout ActionBatch, detail: String = "") {
        let wasRinging = returnToIdle(id, &batch)
        batch.record(HistoryEvent(at: now.wall, alarmID: id, kind: kind, detail: detail))
        if wasRinging, let stop { batch.stop(id, stop) }
        finishOneShot(id, &batch)
    }

    /// Makes alarm `id` idle (its last handled occurrence kept), commits that, and forgets its ring and snooze
    /// timers. Returns whether it was ringing.
    private mutating func returnToIdle(_ id: Int64, _ batch: inout ActionBatch) -> Bool {
        var state = state(of: id)
        let wasRinging = state.phase == .ringing
        state.phase = .idle
        state.occurrence = nil
        state.ringingSince = nil
        state.snoozedUntil = nil
        state.snoozeCount = 0
        commit(state, &batch)
        ringStarts[id] = nil
        snoozeEnds[id] = nil
        return wasRinging
    }

    /// Drops a pending ring or snooze of alarm `id` because the user changed it (R10); records the cancel.
    mutating func cancel(_ id: Int64, reason: StopReason, _ now: SchedulerTime, _ batch: inout ActionBatch) {
        guard state(of: id).phase != .idle else { return }
        let wasRinging = returnToIdle(id, &batch)
        batch.record(HistoryEvent(at: now.wall, alarmID: id, kind: .cancelled, detail: reason.rawValue))
        if wasRinging { batch.stop(id, reason) }
    }

    /// Puts alarm `id` into its snooze: silent until `snoozeMinutes` later on the monotonic clock, the
    /// deadline also stored as a wall instant (R8).
    mutating func snooze(_ id: Int64, _ now: SchedulerTime, _ batch: inout ActionBatch) {
        guard let alarm = alarms[id] else { return }
        let seconds = TimeInterval(alarm.snoozeMinutes * 60)
        var state = state(of: id)
        state.phase = .snoozed
        state.ringingSince = nil
        state.snoozedUntil = now.wall.addingTimeInterval(seconds)
        state.snoozeCount += 1
        commit(state, &batch)
        ringStarts[id] = nil
        snoozeEnds[id] = now.mono + .seconds(exactly: seconds)
        batch.record(HistoryEvent(at: now.wall, alarmID: id, kind: .snoozed,
                                  detail: "snooze \(state.snoozeCount) of \(alarm.maxSnoozes), \(alarm.snoozeMinutes) min"))
        batch.stop(id, .snoozed)
    }

    /// A one-shot alarm whose occurrence is over turns itself off (and the change is saved).
    mutating func finishOneShot(_ id: Int64, _ batch: inout ActionBatch) {
        guard var alarm = alarms[id], alarm.enabled, case .once = alarm.recurrence else { return }
        alarm.enabled = false
        alarms[id] = alarm
        batch.saveAlarm(alarm)
    }

    private func historyKind(_ cause: RingCause, late: Bool) -> HistoryKind {
        switch cause {
        case .scheduled: late ? .rangLate : .rang
        case .snoozeEnded: .snoozeEnded
        case .resumed: .resumed
        }
    }

    private func ringDetail(_ occurrence: Date, _ now: SchedulerTime, _ late: Bool) -> String {
        let due = "due \(occurrence.formatted(.iso8601))"
        guard late else { return due }
        return due + ", \(Int(now.wall.timeIntervalSince(occurrence) / 60)) min late"
    }
}
