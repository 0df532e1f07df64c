import Foundation

extension AlarmScheduler {
    /// The user asked to snooze (button, web page, API). Applies to `alarmID` only, else to every ringing
    /// alarm. Only a ringing alarm snoozes; one that has used its `maxSnoozes` keeps ringing (so the sound
    /// goes on for it) and `.snoozeRefused` tells the user that only stop works. A press whose edge
    /// (`pressedAt`, monotonic) came before an alarm started ringing is ignored for that alarm: a button held
    /// down across its start does nothing to it (R15). `input`, when given, is passed on in `.stopRinging`.
    public mutating func snoozePressed(
        at now: SchedulerTime, alarmID: Int64? = nil,
        pressedAt: MonotonicInstant? = nil,
        by input: DismissInput? = nil
    ) -> [SchedulerAction] {
        var batch = newBatch()
        prepare(now, &batch)
        answerWakeChecks(by: input, now, &batch)
        for id in targets(alarmID, pressedAt) {
            guard let alarm = alarms[id] else { continue }
            if state(of: id).snoozeCount < alarm.maxSnoozes {
                snooze(id, by: input, now, &batch)
            } else {
                batch.record(
                    HistoryEvent(
                        at: now.wall, alarmID: id, kind: .snoozeRefused,
                        detail: "all \(alarm.maxSnoozes) snoozes used"))
                batch.refuseSnooze(id)
            }
        }
        return finish(batch, now)
    }

    /// The user asked to stop. Without `alarmID` it dismisses every ringing alarm (a stray press during a
    /// snooze does nothing, R15); with `alarmID` it dismisses that alarm only — the others ring on — and
    /// also its pending snooze. A press whose edge came before an alarm started ringing is ignored for that
    /// alarm (R15). `input`, when given, is named in the recorded detail ("by=button") for the morning report
    /// and passed on in `.stopRinging`.
    public mutating func stopPressed(
        at now: SchedulerTime, alarmID: Int64? = nil,
        pressedAt: MonotonicInstant? = nil,
        by input: DismissInput? = nil
    ) -> [SchedulerAction] {
        var batch = newBatch()
        prepare(now, &batch)
        answerWakeChecks(by: input, now, &batch)
        let by = input.map(HistoryDetail.dismissed(by:))
        for id in targets(alarmID, pressedAt) {
            armWakeCheck(id, now)
            end(id, kind: .dismissed, stop: .dismissed, by: input, now, &batch, detail: by ?? "")
        }
        if let id = alarmID, state(of: id).phase == .snoozed {
            armWakeCheck(id, now)
            end(id, kind: .dismissed, stop: nil, now, &batch, detail: "during its snooze" + (by.map { ", " + $0 } ?? ""))
        }
        // A Stop while nothing rings and an unanswered alarm rests between its ladder's rounds: the person is up.
        if alarmID == nil, ringOrder.isEmpty {
            for id in resting.sorted() {
                armWakeCheck(id, now)
                end(
                    id, kind: .dismissed, stop: nil, now, &batch,
                    detail: "during its ladder's rest" + (by.map { ", " + $0 } ?? ""))
            }
        }
        return finish(batch, now)
    }

    /// A person touched the kiosk, pressed a button that does not stop or snooze, or turned the volume down while
    /// alarms ring: each one's ladder goes back to its own sound (it never fights a person who is awake).
    public mutating func personActed(at now: SchedulerTime, by input: DismissInput? = nil) -> [SchedulerAction] {
        var batch = newBatch()
        prepare(now, &batch)
        answerWakeChecks(by: input, now, &batch)
        for id in ringOrder {
            // While it vibrates first its sound has not begun: there is no climb to take back yet.
            guard var running = ladders[id], soundStart(of: id).map({ $0 <= now.mono }) ?? true else { continue }
            let actions = running.personActed(at: now.mono)
            ladders[id] = running
            carryOut(actions, of: id, now, &batch)
        }
        return finish(batch, now)
    }

    /// The microphone did not hear alarm `id` in the room (`reason`: what it measured): the history says so, and
    /// its ladder, if it climbs and is not at its top, takes its next step at once. The clock never waits for the
    /// microphone to ring: this only makes it climb sooner.
    public mutating func notHeard(_ id: Int64, reason: String, at now: SchedulerTime) -> [SchedulerAction] {
        var batch = newBatch()
        prepare(now, &batch)
        guard ringingAlarmIDs.contains(id) else { return finish(batch, now) }
        batch.record(HistoryEvent(at: now.wall, alarmID: id, kind: .notHeard, detail: "not heard in the room: \(reason)"))
        if var running = ladders[id] {
            let actions = running.notHeard(at: now.mono)
            ladders[id] = running
            carryOut(actions, of: id, now, &batch)
        }
        return finish(batch, now)
    }

    /// The alarms resting between their ladder's rounds.
    var resting: [Int64] {
        ladders.filter(\.value.resting).map(\.key)
    }

    /// A sustained shake was detected (see `ShakeDetector`): each ringing alarm does what `response` says
    /// for it — by default the alarms that allow shake-to-stop are dismissed and the others ring on. A
    /// snooze refused for want of snoozes leaves the alarm ringing, as for `snoozePressed`.
    public mutating func shakeDetected(
        at now: SchedulerTime,
        response: ShakeResponse = ShakeResponse(whenShakeToStop: .stop, otherwise: .none)
    )
        -> [SchedulerAction]
    {
        var batch = newBatch()
        prepare(now, &batch)
        answerWakeChecks(by: .shake, now, &batch)
        for id in ringOrder {
            guard let alarm = alarms[id] else { continue }
            switch response.action(for: alarm) {
            case .stop:
                armWakeCheck(id, now)
                end(id, kind: .dismissed, stop: .dismissed, by: .shake, now, &batch, detail: DismissInput.shake.rawValue)
            case .snooze where state(of: id).snoozeCount < alarm.maxSnoozes:
                snooze(id, by: .shake, now, &batch)
            case .snooze:
                batch.record(
                    HistoryEvent(
                        at: now.wall, alarmID: id, kind: .snoozeRefused,
                        detail: "all \(alarm.maxSnoozes) snoozes used"))
                batch.refuseSnooze(id)
            case .none:
                break
            }
        }
        return finish(batch, now)
    }

    /// The ringing alarms a press applies to: `alarmID` alone (if it rings), else the whole ringing group in
    /// the order it began; without those whose ringing began after the press's edge (R15).
    private func targets(_ alarmID: Int64?, _ pressedAt: MonotonicInstant?) -> [Int64] {
        let candidates = alarmID.map { id in ringOrder.filter { $0 == id } } ?? ringOrder
        return candidates.filter { id in
            guard let pressedAt, let start = ringStarts[id] else { return true }
            return pressedAt >= start
        }
    }

    // MARK: The wake-up check

    /// A person's Stop of alarm `id` (ringing, snoozed, or resting between its ladder's rounds): with a wake-up check
    /// it asks "Are you up?" `wakeCheckSeconds` later. A Snooze arms none (it is not a Stop), nor does an end the
    /// person did not make (auto-silence, unanswered, an edit). The question's wall time goes into the alarm's state,
    /// which the end that always follows commits, so that a restart before it asks still asks (R8).
    mutating func armWakeCheck(_ id: Int64, _ now: SchedulerTime) {
        guard let alarm = alarms[id], alarm.wakeCheckSeconds > 0, let occurrence = state(of: id).occurrence else { return }
        wakeChecks[id] = PendingCheck(
            check: WakeCheck(alarmID: id, after: .seconds(alarm.wakeCheckSeconds), stoppedAt: now.mono),
            occurrence: occurrence)
        states[id]?.wakeCheckAt = now.wall.addingTimeInterval(TimeInterval(alarm.wakeCheckSeconds))
    }

    /// Forgets alarm `id`'s stored wake-up check once it is answered or rung again.
    private mutating func settleWakeCheck(_ id: Int64, _ batch: inout ActionBatch) {
        wakeChecks[id] = nil
        guard states[id]?.wakeCheckAt != nil, var state = states[id] else { return }
        state.wakeCheckAt = nil
        commit(state, &batch)
    }

    /// Any input of a person answers every question asked now: the day's history says `woke`. One not asked yet is
    /// not answered by it (a Stop's own press must not answer the check it arms).
    mutating func answerWakeChecks(by input: DismissInput?, _ now: SchedulerTime, _ batch: inout ActionBatch) {
        for id in wakeChecks.keys.sorted() {
            guard var pending = wakeChecks[id] else { continue }
            let actions = pending.check.answered(at: now.mono)
            wakeChecks[id] = pending
            carryOut(actions, check: pending, of: id, by: input, now, &batch)
        }
    }

    /// What a wake-up check decided, carried out: the question, the answer, or the alarm ringing again from its
    /// ladder's bottom (its occurrence again). The second waker does not cover that ring: the Stop told it the
    /// occurrence is over.
    mutating func carryOut(
        _ actions: [WakeCheck.Action], check pending: PendingCheck, of id: Int64, by input: DismissInput?,
        _ now: SchedulerTime, _ batch: inout ActionBatch
    ) {
        for action in actions {
            switch action {
            case .ask:
                batch.record(HistoryEvent(at: now.wall, alarmID: id, kind: .wakeCheck, detail: "are you up?"))
                batch.afterRing(.wakeCheck(alarmID: id))
            case .woke:
                settleWakeCheck(id, &batch)
                batch.record(
                    HistoryEvent(
                        at: now.wall, alarmID: id, kind: .woke, detail: input.map(HistoryDetail.dismissed(by:)) ?? ""))
            case .ringAgain:
                settleWakeCheck(id, &batch)
                // Its ring is recorded `fell-back-asleep` (with its occurrence, "due …") as it begins.
                // (A one-shot alarm disabled itself at the Stop: it still rings again. A removed one does not.)
                guard alarms[id] != nil else { continue }
                sound(id, occurrence: pending.occurrence, startedAt: now.mono, cause: .wakeCheck, late: false, now, &batch)
            }
        }
    }
}
