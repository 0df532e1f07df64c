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

    /// Makes alarm `id` ring for `occurrence`, its ringing begun at `startedAt` (monotonic): it joins the
    /// ringing group (R38) — the others ring on, and the history says which ones it rang with — and its sound
    /// replaces the one playing, never stopped first (R13). Its own previous occurrence, if still ringing or
    /// snoozed, is superseded.
    ///
    /// `vibrateFirst`: for a ring a person has not yet answered (its time, the end of a person's snooze), how late it
    /// begins after its due time — it then stays silent for its `soundAfter` less that (`silence(of:late:)`), its
    /// outputs alone, and its sound, ladder and duration start after. Nil: the sound starts at once (a ladder's later
    /// round, a wake-up check's ring, a resumed ring); so does a ring that joins a group already sounding (R13).
    mutating func sound(
        _ id: Int64, occurrence: Date, startedAt: MonotonicInstant, cause: RingCause,
        late: Bool, vibrateFirst: TimeInterval? = nil, _ now: SchedulerTime, _ batch: inout ActionBatch
    ) {
        guard let alarm = alarms[id] else { return }
        let others = ringOrder.filter { $0 != id }
        let groupSounds = others.contains { other in soundStart(of: other).map { $0 <= now.mono } ?? false }
        var silent = Duration.zero
        var withoutOutputs = false
        if let lateBy = vibrateFirst, alarm.soundAfter != nil, !groupSounds {
            silent = silence(of: alarm, late: lateBy)
            withoutOutputs = !alarm.vibratesFirst(outputs)
        }
        var state = state(of: id)
        if state.phase != .idle, let old = state.occurrence, old != occurrence {
            batch.record(
                HistoryEvent(
                    at: now.wall, alarmID: id, kind: .superseded,
                    detail: "its occurrence \(old.formatted(.iso8601)) gave way to the next"))
            state.snoozeCount = 0
            state.restCount = 0
        }
        if cause == .scheduled {
            state.snoozeCount = 0
            state.restCount = 0
        }
        state.phase = .ringing
        state.occurrence = occurrence
        state.ringingSince = now.wall.addingTimeInterval(-(now.mono - startedAt).inSeconds)
        state.snoozedUntil = nil
        state.lastHandledOccurrence = max(state.lastHandledOccurrence ?? occurrence, occurrence)
        commit(state, &batch)
        ringStarts[id] = startedAt
        soundStarts[id] = startedAt + silent
        ringOrder = others + [id]
        snoozeEnds[id] = nil
        floors[id] = max(floors[id] ?? occurrence, occurrence)
        batch.record(
            HistoryEvent(
                at: now.wall, alarmID: id, kind: historyKind(cause, late: late),
                detail: ringDetail(occurrence, now, late, with: others)))
        if withoutOutputs {
            batch.record(
                HistoryEvent(
                    at: now.wall, alarmID: id, kind: .warning, detail: RingRequest.withoutOutputsNote(alarm.soundAfter)))
        }
        // `replacing` is filled in when the batch is handed out: only then is it known what played before.
        batch.ring(
            RingRequest(
                alarmID: id, occurrence: occurrence, sound: alarm.sound, volume: alarm.volume,
                fadeInSeconds: alarm.fadeInSeconds, late: late, cause: cause, replacing: nil, silentFor: silent,
                soundAfterWithoutOutputs: withoutOutputs))
        climb(id, startedAt: startedAt + silent, now, &batch)
    }

    /// A ring starts its alarm's climb at its own sound — unless it ends the ladder's own rest: then the next round
    /// rings at the top.
    private mutating func climb(_ id: Int64, startedAt: MonotonicInstant, _ now: SchedulerTime, _ batch: inout ActionBatch) {
        let plan = alarms[id]?.ladder.plan(clock: ladder) ?? ladder
        guard plan.enabled else {
            ladders[id] = nil
            return
        }
        guard var running = ladders[id], running.resting, let until = running.nextChange else {
            ladders[id] = WakeLadder(plan: plan, start: startedAt)
            return
        }
        let actions = running.tick(at: until, throughRests: true)
        ladders[id] = running
        carryOut(actions, of: id, now, &batch)
    }

    /// What the ladder of alarm `id` decided, carried out: each step in the history and for the clock, the top's
    /// notice, a rest (the clock's own snooze, not the person's: no snooze is counted) and the end, `unanswered`.
    mutating func carryOut(_ actions: [LadderAction], of id: Int64, _ now: SchedulerTime, _ batch: inout ActionBatch) {
        for action in actions {
            switch action {
            case .sound(let step):
                batch.record(
                    HistoryEvent(
                        at: now.wall, alarmID: id, kind: .climbed,
                        detail: HistoryDetail.climbed(to: step, round: ladders[id]?.round ?? 0)))
                batch.afterRing(.climb(alarmID: id, step: step))
            case .outputs(let on):
                batch.afterRing(.outputs(alarmID: id, on: on))
            case .unanswered(let round):
                batch.record(
                    HistoryEvent(at: now.wall, alarmID: id, kind: .escalated, detail: HistoryDetail.escalated(round: round)))
            case .rest(let until, let round):
                rest(id, until: until, round: round, now, &batch)
            case .ringAgain:
                break  // the ring that ends the rest was recorded as it began (snooze-ended)
            case .gaveUp:
                let rounds = (ladders[id]?.round ?? 0) + 1
                end(id, kind: .unanswered, stop: .unanswered, now, &batch, detail: "after \(rounds) round(s) of its ladder")
            }
        }
    }

    /// Alarm `id` rests between its ladder's rounds until `until`: out of the ringing group, as in a snooze, but no
    /// snooze of the person's is counted; the end of the rest rings the next round.
    private mutating func rest(
        _ id: Int64, until: MonotonicInstant, round: Int, _ now: SchedulerTime, _ batch: inout ActionBatch
    ) {
        var state = state(of: id)
        state.phase = .snoozed
        state.ringingSince = nil
        state.snoozedUntil = now.wall.addingTimeInterval((until - now.mono).inSeconds)
        state.restCount += 1
        commit(state, &batch)
        ringStarts[id] = nil
        soundStarts[id] = nil
        ringOrder.removeAll { $0 == id }
        snoozeEnds[id] = until
        batch.record(
            HistoryEvent(
                at: now.wall, alarmID: id, kind: .rested,
                detail: "round \(round) in \(DurationText.format(max(0, Int((until - now.mono).inSeconds.rounded()))))"))
        batch.stop(id, .rested)
    }

    /// Ends alarm `id`'s occurrence (dismissed, auto-silenced, missed): idle again, the end recorded, and
    /// when it was ringing and `reason` is given it leaves the ringing group (`.stopRinging` with `reason`
    /// and `input`). A one-shot alarm then disables itself.
    mutating func end(
        _ id: Int64, kind: HistoryKind, stop reason: StopReason?, by input: DismissInput? = nil,
        _ now: SchedulerTime, _ batch: inout ActionBatch, detail: String = ""
    ) {
        let wasRinging = returnToIdle(id, &batch)
        batch.record(HistoryEvent(at: now.wall, alarmID: id, kind: kind, detail: detail))
        if wasRinging, let reason { batch.stop(id, reason, by: input) }
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
        state.restCount = 0
        commit(state, &batch)
        ringStarts[id] = nil
        soundStarts[id] = nil
        ringOrder.removeAll { $0 == id }
        snoozeEnds[id] = nil
        dropLadder(id, &batch)
        return wasRinging
    }

    /// Drops a pending ring or snooze of alarm `id` because the user changed it (R10); records the cancel.
    mutating func cancel(_ id: Int64, reason: StopReason, _ now: SchedulerTime, _ batch: inout ActionBatch) {
        guard state(of: id).phase != .idle else { return }
        let wasRinging = returnToIdle(id, &batch)
        batch.record(HistoryEvent(at: now.wall, alarmID: id, kind: .cancelled, detail: reason.rawValue))
        if wasRinging { batch.stop(id, reason) }
    }

    /// Puts alarm `id` into its snooze: out of the ringing group until `snoozeMinutes` later on the monotonic
    /// clock, the deadline also stored as a wall instant (R8). `input` is who snoozed it.
    mutating func snooze(_ id: Int64, by input: DismissInput?, _ now: SchedulerTime, _ batch: inout ActionBatch) {
        guard let alarm = alarms[id] else { return }
        let seconds = TimeInterval(alarm.snoozeMinutes * 60)
        var state = state(of: id)
        state.phase = .snoozed
        state.ringingSince = nil
        state.snoozedUntil = now.wall.addingTimeInterval(seconds)
        state.snoozeCount += 1
        commit(state, &batch)
        ringStarts[id] = nil
        soundStarts[id] = nil
        ringOrder.removeAll { $0 == id }
        snoozeEnds[id] = now.mono + .seconds(exactly: seconds)
        dropLadder(id, &batch)  // a person snoozed it: awake, so the next ring climbs from its own sound again
        batch.record(
            HistoryEvent(
                at: now.wall, alarmID: id, kind: .snoozed,
                detail: "snooze \(state.snoozeCount) of \(alarm.maxSnoozes), \(alarm.snoozeMinutes) min"))
        batch.stop(id, .snoozed, by: input)
    }

    /// Forgets alarm `id`'s climb; the outputs go off if its top had them on.
    private mutating func dropLadder(_ id: Int64, _ batch: inout ActionBatch) {
        if case .ringing(.everything, _)? = ladders[id]?.phase { batch.afterRing(.outputs(alarmID: id, on: false)) }
        ladders[id] = nil
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
        case .wakeCheck: .fellBackAsleep
        }
    }

    /// "due <ISO>[, N min late][, with alarms 1, 3]" (see `HistoryDetail`).
    private func ringDetail(_ occurrence: Date, _ now: SchedulerTime, _ late: Bool, with others: [Int64]) -> String {
        var parts = [HistoryDetail.due(occurrence)]
        if late { parts.append("\(Int(now.wall.timeIntervalSince(occurrence) / 60)) min late") }
        if !others.isEmpty { parts.append(HistoryDetail.ringing(with: others)) }
        return parts.joined(separator: ", ")
    }
}
