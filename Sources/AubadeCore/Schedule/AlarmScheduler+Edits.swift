import Foundation

extension AlarmScheduler {
    /// The stored alarms changed (added, edited, enabled, disabled, removed): `alarms` is the full new set.
    ///
    /// R10: a change of time, days, date, zone or enabled flag drops a pending ring or snooze; any other
    /// change (label, sound, volume, fade, snooze settings, skip date…) keeps it. R11: an alarm saved,
    /// enabled or re-timed rings at once only if its new occurrence is due this very minute; occurrences
    /// before that are never caught up. A disabled alarm never rings.
    public mutating func alarmsChanged(_ alarms: [Alarm], at now: SchedulerTime) -> [SchedulerAction] {
        var batch = newBatch()
        prepare(now, &batch)
        var incoming: [Int64: Alarm] = [:]
        for alarm in alarms {
            if let id = alarm.id { incoming[id] = alarm }
        }
        for id in self.alarms.keys.sorted() where incoming[id] == nil {
            remove(id, now, &batch)
        }
        for id in incoming.keys.sorted() {
            guard let new = incoming[id] else { continue }
            apply(new, id, now, &batch)
        }
        processDue(now, &batch)
        return finish(batch, now)
    }

    /// One alarm was added or saved; the others are unchanged. See `alarmsChanged`.
    public mutating func alarmSaved(_ alarm: Alarm, at now: SchedulerTime) -> [SchedulerAction] {
        guard let id = alarm.id else { return tick(at: now) }
        var all = self.alarms
        all[id] = alarm
        return alarmsChanged(Array(all.values), at: now)
    }

    /// One alarm was deleted. See `alarmsChanged`.
    public mutating func alarmRemoved(id: Int64, at now: SchedulerTime) -> [SchedulerAction] {
        var all = self.alarms
        all[id] = nil
        return alarmsChanged(Array(all.values), at: now)
    }

    /// The run-time settings changed (catch-up window G among them).
    public mutating func settingsChanged(_ settings: AppSettings, at now: SchedulerTime) -> [SchedulerAction] {
        var batch = newBatch()
        prepare(now, &batch)
        self.settings = settings
        return finish(batch, now)
    }

    /// Whether changing `old` into `new` drops a pending ring or snooze (R10).
    public static func changesTiming(from old: Alarm, to new: Alarm) -> Bool {
        old.time != new.time || old.recurrence != new.recurrence || old.timeZoneID != new.timeZoneID
            || old.enabled != new.enabled
    }

    private mutating func apply(_ new: Alarm, _ id: Int64, _ now: SchedulerTime, _ batch: inout ActionBatch) {
        guard let old = alarms[id] else {
            alarms[id] = new
            if new.enabled { arm(id, now, &batch) }
            return
        }
        guard old != new else { return }
        alarms[id] = new
        if AlarmScheduler.changesTiming(from: old, to: new) {
            cancel(id, reason: new.enabled ? .edited : .disabled, now, &batch)
            if new.enabled { arm(id, now, &batch) }
        }
    }

    private mutating func remove(_ id: Int64, _ now: SchedulerTime, _ batch: inout ActionBatch) {
        if state(of: id).phase != .idle {
            batch.record(HistoryEvent(at: now.wall, alarmID: id, kind: .cancelled, detail: StopReason.removed.rawValue))
        }
        if state(of: id).phase == .ringing { batch.stop(id, .removed) }
        wakeChecks[id] = nil
        alarms[id] = nil
        states[id] = nil
        floors[id] = nil
        ringStarts[id] = nil
        soundStarts[id] = nil
        ringOrder.removeAll { $0 == id }
        snoozeEnds[id] = nil
        batch.forget(id)
    }

    /// Arms alarm `id` from `now`: occurrences due before this minute count as handled (the latest is
    /// stored as `lastHandledOccurrence`, so a restart does not catch them up either); one due this minute
    /// still rings.
    mutating func arm(_ id: Int64, _ now: SchedulerTime, _ batch: inout ActionBatch, alsoHandled extra: Date? = nil) {
        guard let alarm = alarms[id] else { return }
        let minuteAgo = now.wall.addingTimeInterval(-AlarmScheduler.lateAfter)
        var state = state(of: id)
        let previous = AlarmSchedule.previous(of: alarm, atOrBefore: minuteAgo, defaultZone: defaultZone)?.instant
        let handled = [state.lastHandledOccurrence, previous, extra].compactMap { $0 }.max()
        if handled != state.lastHandledOccurrence {
            state.lastHandledOccurrence = handled
            commit(state, &batch)
        }
        floors[id] = max(handled ?? minuteAgo, minuteAgo)
    }
}
