import AubadeCore
import Foundation

/// The second waker (R35) as the clock sees it, through its port (`WakerLink`): the plan of rings it is told,
/// the notes of what the daemon did with them, and what its report means for the alarms' states and the history.
enum WakerPlanning {
    /// The rings the daemon will make, soonest first: each enabled alarm's ring now (due when it began) or its
    /// snooze's end, and its next `occurrencesPerAlarm` occurrences after the last it handled (a skipped one
    /// left out). The waker sounds the tone at `settings.fallbackTone`, at least at `toneVolume` (R18). An alarm that
    /// vibrates first (`Alarm.soundAfter`) is due when its sound would start: the waker never rings a failed
    /// daemon's alarm later than its sound would have begun, and never during a silent part the daemon rings.
    static func entries(scheduler: AlarmScheduler, settings: AppSettings, now: Date) -> [WakerPlan.Entry] {
        var out: [WakerPlan.Entry] = []
        for (id, alarm) in scheduler.alarms where alarm.enabled {
            let state = scheduler.state(of: id)
            let plan = alarm.ladder.plan(clock: scheduler.ladder)
            func entry(_ occurrence: Date, round: Int, due: Date) -> WakerPlan.Entry {
                // A ring after its ladder's rests has only the rounds left to ring.
                var ladder = plan
                if round > 0 { ladder.rounds = max(0, plan.rounds - state.restCount) }
                return WakerPlan.Entry(
                    alarm: id, occurrence: occurrence, round: round, due: due,
                    volume: max(alarm.volume, settings.toneVolume), durationSeconds: alarm.durationSeconds,
                    // Its ladder's rests count among the rings (`AlarmRunState.ring`), not among the person's snoozes.
                    snoozeSeconds: alarm.snoozeMinutes * 60, maxSnoozes: alarm.maxSnoozes + state.restCount,
                    tone: settings.fallbackTone,
                    name: alarm.name, ladder: ladder)
            }
            let silence = scheduler.silence(of: alarm, late: 0).inSeconds
            switch state.phase {
            case .ringing:
                if let o = state.occurrence {
                    let since = state.ringingSince ?? o
                    out.append(entry(o, round: state.ring, due: since.addingTimeInterval(scheduler.silentPart(of: id).inSeconds)))
                }
            case .snoozed:
                // A snooze's end, or the next round after its ladder's rest: a ring of its own, which the waker
                // rings if the daemon has not made it heard (the round before it was, so the round must differ).
                // A person's snooze ends vibrating first; a ladder's round sounds at once.
                if let o = state.occurrence, let until = state.snoozedUntil {
                    let rest = scheduler.climb(of: id)?.resting ?? false
                    out.append(entry(o, round: state.ring, due: until.addingTimeInterval(rest ? 0 : silence)))
                }
            case .idle:
                break
            }
            var after = state.lastHandledOccurrence ?? now.addingTimeInterval(-60)
            for _ in 0..<WakerPlan.occurrencesPerAlarm {
                guard let o = AlarmSchedule.next(of: alarm, after: after, defaultZone: scheduler.defaultZone) else { break }
                after = o.instant
                if o.date != alarm.skipDate {
                    out.append(entry(o.instant, round: 0, due: o.instant.addingTimeInterval(silence)))
                }
            }
        }
        out.sort { ($0.due, $0.alarm) < ($1.due, $1.alarm) }
        return Array(out.prefix(WakerPlan.maxEntries))
    }

    /// What a history event the daemon records tells the waker: a snooze (of the round that rang), the end of
    /// an occurrence (dismissed, auto-silenced, cancelled by an edit), a skip. Read after the engine's batch was
    /// carried out, so the alarm's state is the one the event left.
    static func notes(for event: HistoryEvent, scheduler: AlarmScheduler) -> [WakerPlan.Note] {
        guard let id = event.alarmID, let kind = HistoryKind(rawValue: event.kind) else { return [] }
        let state = scheduler.state(of: id)
        let at = event.at
        switch kind {
        case .snoozed:
            guard let o = state.occurrence else { return [] }
            return [WakerPlan.Note(alarm: id, occurrence: o, round: max(0, state.ring - 1), state: .snoozed, at: at)]
        case .dismissed, .autoSilenced, .cancelled, .unanswered:
            guard let o = state.occurrence ?? state.lastHandledOccurrence else { return [] }
            return [WakerPlan.Note(alarm: id, occurrence: o, round: state.ring, state: .stopped, at: at)]
        case .skipped:
            guard let o = HistoryDetail.occurrence(in: event.detail) else { return [] }
            return [WakerPlan.Note(alarm: id, occurrence: o, round: 0, state: .skipped, at: at)]
        default:
            return []
        }
    }

    /// Every member of the ringing group is heard when its one sound is (R38).
    static func heard(scheduler: AlarmScheduler, at now: Date) -> [WakerPlan.Note] {
        scheduler.ringingAlarmIDs.compactMap { id in
            let state = scheduler.state(of: id)
            return state.occurrence.map {
                WakerPlan.Note(alarm: id, occurrence: $0, round: state.ring, state: .audible, at: now)
            }
        }
    }

    /// The stored alarm states as a daemon starting now must take them: an occurrence the waker rang and a
    /// person stopped there (or its duration ran out) is over — no catch-up rings it again (R6) — and one a
    /// person snoozed there is snoozed until the waker's snooze ends, so the daemon rings the next round itself.
    static func settle(_ states: [AlarmRunState], by report: WakerReport?) -> [AlarmRunState] {
        guard let waker = report else { return states }
        var byID = Dictionary(states.map { ($0.alarmID, $0) }, uniquingKeysWith: { _, newer in newer })
        var latest: [Int64: WakerReport.Ring] = [:]
        for ring in waker.rang where [.stop, .snooze, .duration, .unanswered].contains(ring.end) {
            if let seen = latest[ring.alarm], seen.ended > ring.ended { continue }
            latest[ring.alarm] = ring
        }
        for (id, ring) in latest {
            let o = ring.occurrence
            var state = byID[id] ?? AlarmRunState(alarmID: id)
            if let handled = state.lastHandledOccurrence, handled > o { continue }
            if state.phase != .idle, let current = state.occurrence, current > o { continue }
            state.ringingSince = nil
            state.lastHandledOccurrence = max(state.lastHandledOccurrence ?? o, o)
            if ring.end == .snooze, let next = waker.snoozed, next.alarm == id, next.occurrence == ring.occurrence {
                state.phase = .snoozed
                state.occurrence = o
                state.snoozedUntil = next.ringsAt
                state.snoozeCount = max(0, next.round - state.restCount)  // the waker's round counts the rests too
            } else {
                state.phase = .idle
                state.occurrence = nil
                state.snoozedUntil = nil
                state.snoozeCount = 0
                state.restCount = 0
            }
            byID[id] = state
        }
        return byID.values.sorted { $0.alarmID < $1.alarmID }
    }

    /// "due <ISO>, round 0, rang 08:01:00Z-08:03:10Z on default, end=stop by=button, waker_ring=1/<ms>".
    static func detail(_ ring: WakerReport.Ring) -> String {
        var parts = [
            HistoryDetail.due(ring.occurrence), "round \(ring.round)",
            "rang \(ring.started.formatted(.iso8601)) to \(ring.ended.formatted(.iso8601))",
        ]
        if !ring.device.isEmpty { parts.append("on \(ring.device)") }
        parts.append("end=\(ring.end.rawValue) by=\(ring.by.rawValue)")
        if ring.killedDaemon > 0 { parts.append("stopped the unresponsive daemon (pid \(ring.killedDaemon))") }
        parts.append("waker_ring=\(ring.key)")
        return parts.joined(separator: ", ")
    }
}

extension AlarmRunner {
    /// Rewrites the next-alarm file when what will ring changed (from `refresh`, after every turn and input).
    func publishToWaker(_ now: SchedulerTime, _ c: inout ClockContext) {
        guard c.caps.waker else { return }
        c.effects.append(
            .waker(
                .publish(
                    WakerPlanning.entries(scheduler: scheduler, settings: c.catalogue.settings, now: now.wall),
                    now: now.wall)))
    }

    /// Tells the waker what the daemon just did with its rings.
    func tellWaker(_ notes: [WakerPlan.Note], _ c: inout ClockContext) {
        guard c.caps.waker, !notes.isEmpty else { return }
        c.effects.append(.waker(.note(notes)))
    }

    /// The rings the waker made since the last look (`WorldReading.wakerChanged`): each one into the history (R35's
    /// morning-report line); when `act`, a ring a person stopped or snoozed on the waker also stops or snoozes the
    /// daemon's ring of that occurrence (a daemon that came back while the waker rang). At start `act` is false:
    /// `settle` already gave the states their due before the engine began. The history's waker rings are read once
    /// (`wakerHistory`), so the rings absorbed before a restart are not recorded twice.
    mutating func absorbWakerRings(_ now: SchedulerTime, act: Bool, _ c: inout ClockContext) {
        guard c.caps.waker, let waker = c.world.wakerChanged else { return }
        if wakerRingsAbsorbed == nil {
            guard let events = c.world.wakerHistory else { return }
            wakerRingsAbsorbed = Set(
                events.filter { $0.kind == HistoryKind.secondWaker.rawValue }.compactMap { event in
                    event.detail.split(separator: " ").first { $0.hasPrefix("waker_ring=") }.map { String($0.dropFirst(11)) }
                })
        }
        for ring in waker.rang where ring.end != .shutdown && !(wakerRingsAbsorbed?.contains(ring.key) ?? false) {
            wakerRingsAbsorbed?.insert(ring.key)
            c.effects.record(
                HistoryEvent(at: now.wall, alarmID: ring.alarm, kind: .secondWaker, detail: WakerPlanning.detail(ring)),
                fields: [
                    "alarm": ring.alarm, "end": ring.end.rawValue, "detail": WakerPlanning.detail(ring),
                    "occurrence": ring.occurrence.timeIntervalSince1970,
                ])
            guard act, ring.end.byPerson else { continue }
            let state = scheduler.state(of: ring.alarm)
            guard state.phase != .idle, let current = state.occurrence, current <= ring.occurrence else {
                continue
            }
            let input: DismissInput = ring.by == .button ? .button : .cli
            if ring.end == .stop {
                stop(by: input, alarmID: ring.alarm, now, &c)
            } else if state.phase == .ringing {
                snooze(by: input, alarmID: ring.alarm, now, &c)
            }
        }
    }
}
