import Foundation

extension AlarmScheduler {
    /// Everything that came due up to `now`: auto-silence and snooze deadlines, then occurrences.
    mutating func advance(_ now: SchedulerTime, _ batch: inout ActionBatch) {
        expireDeadlines(now, &batch)
        processDue(now, &batch)
    }

    /// Auto-silence of each ringing alarm after its own duration (R12, counted from its latest sound's start, so a
    /// snooze extends it and a vibrate-first part does not eat it; the others ring on, R38) and the end of snoozes (the alarm joins whatever rings,
    /// R13), both on the monotonic clock (R8).
    mutating func expireDeadlines(_ now: SchedulerTime, _ batch: inout ActionBatch) {
        for (id, start) in ringStarts.sorted(by: { $0.key < $1.key }) {
            guard let alarm = alarms[id] else { continue }
            // With a ladder, the climb decides (it rests and rings again instead of falling silent).
            if var climb = ladders[id] {
                let actions = climb.tick(at: now.mono, throughRests: false)
                ladders[id] = climb
                carryOut(actions, of: id, now, &batch)
                continue
            }
            if now.mono >= (soundStarts[id] ?? start) + .seconds(alarm.durationSeconds) {
                end(
                    id, kind: .autoSilenced, stop: .autoSilenced, now, &batch,
                    detail: "after \(DurationText.format(alarm.durationSeconds))")
            }
        }
        for id in wakeChecks.keys.sorted() {
            guard var pending = wakeChecks[id] else { continue }
            let actions = pending.check.tick(at: now.mono)
            wakeChecks[id] = pending
            carryOut(actions, check: pending, of: id, by: nil, now, &batch)
        }
        let ended = snoozeEnds.filter { now.mono >= $0.value }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
        for (id, deadline) in ended {
            let overdue = (now.mono - deadline).inSeconds
            guard overdue <= catchUpWindow, let occurrence = states[id]?.occurrence else {
                end(id, kind: .missed, stop: nil, now, &batch, detail: "its snooze ended \(Int(overdue / 60)) min ago")
                continue
            }
            // A person's snooze ends vibrating first again; the next round after its ladder's rest sounds at once.
            let rest = ladders[id]?.resting ?? false
            sound(
                id, occurrence: occurrence, startedAt: now.mono, cause: .snoozeEnded,
                late: overdue >= AlarmScheduler.lateAfter, vibrateFirst: rest ? nil : overdue, now, &batch)
        }
    }

    /// Acts on every occurrence in (floor, now] of each enabled alarm: the latest rings if it is due at
    /// most G ago (late when a minute or more), the rest are recorded missed (R6) — or skipped when their
    /// date is the alarm's `skipDate`, or a day off and the alarm skips days off (recorded with its name). Alarms due together ring in order of occurrence, then id, and all
    /// ring on together; the last one's sound is the one that plays (R13, R38).
    mutating func processDue(_ now: SchedulerTime, _ batch: inout ActionBatch) {
        var toRing: [(occurrence: Occurrence, id: Int64)] = []
        for id in alarms.keys.sorted() {
            guard let alarm = alarms[id], alarm.enabled else { continue }
            let lowest = now.wall.addingTimeInterval(-AlarmScheduler.lookBack)
            let floor = max(floors[id] ?? now.wall.addingTimeInterval(-AlarmScheduler.lateAfter), lowest)
            let due = AlarmSchedule.occurrences(of: alarm, after: floor, through: now.wall, defaultZone: defaultZone)
            if let latest = due.last {
                floors[id] = latest.instant
                var state = state(of: id)
                state.lastHandledOccurrence = max(state.lastHandledOccurrence ?? latest.instant, latest.instant)
                commit(state, &batch)
                for o in due.dropLast() { passOver(o, of: alarm, id, now, &batch) }
                if skipReason(latest, of: alarm) == nil, now.wall.timeIntervalSince(latest.instant) <= catchUpWindow {
                    toRing.append((latest, id))
                } else {
                    passOver(latest, of: alarm, id, now, &batch)
                    finishOneShot(id, &batch)
                }
            }
            clearSpentSkip(id, through: due.last?.date, now, &batch)
        }
        for (o, id) in toRing.sorted(by: { ($0.occurrence, $0.id) < ($1.occurrence, $1.id) }) {
            let late = now.wall.timeIntervalSince(o.instant)
            sound(
                id, occurrence: o.instant, startedAt: now.mono, cause: .scheduled,
                late: late >= AlarmScheduler.lateAfter, vibrateFirst: late, now, &batch)
        }
    }

    /// Why occurrence `o` of `alarm` passes over (skip-next, a day off), or nil when it rings.
    func skipReason(_ o: Occurrence, of alarm: Alarm) -> SkipReason? {
        AlarmSchedule.skipReason(of: alarm, on: o.date, daysOff: daysOff)
    }

    /// Records an occurrence that will not ring: skipped (skip-next, a day off: "due …, day off: <name>") or
    /// missed (older than G).
    private func passOver(
        _ o: Occurrence, of alarm: Alarm, _ id: Int64, _ now: SchedulerTime,
        _ batch: inout ActionBatch
    ) {
        var detail = HistoryDetail.due(o.instant)
        guard let skip = skipReason(o, of: alarm) else {
            batch.record(HistoryEvent(at: now.wall, alarmID: id, kind: .missed, detail: detail))
            return
        }
        if !skip.historyDetail.isEmpty { detail += ", " + skip.historyDetail }
        batch.record(HistoryEvent(at: now.wall, alarmID: id, kind: .skipped, detail: detail))
    }

    /// Clears `skipDate` once it is spent: its occurrence was acted on, or its local date is over.
    private mutating func clearSpentSkip(
        _ id: Int64, through handled: LocalDate?, _ now: SchedulerTime,
        _ batch: inout ActionBatch
    ) {
        guard var alarm = alarms[id], let skip = alarm.skipDate else { return }
        let zone = AlarmSchedule.zone(of: alarm, defaultZone: defaultZone)
        let today = ZoneCalendar(zone).localDate(of: now.wall)
        let spent = (handled.map { $0 >= skip } ?? false) || (today.map { skip < $0 } ?? false)
        guard spent else { return }
        alarm.skipDate = nil
        alarms[id] = alarm
        batch.saveAlarm(alarm)
    }
}
