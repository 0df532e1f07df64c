import AubadeCore
import Foundation

extension AlarmRunner {
    /// Whether `id` is a sound this runner holds (ringing or pre-rolled).
    func owns(_ id: SoundID) -> Bool {
        ringing?.sound == id || prepared.values.contains { $0.sound == id }
    }

    /// What the engine reported about an alarm's sound: recorded in the history (audible, fallbacks) and printed.
    mutating func soundEvent(_ event: SoundEvent, _ now: SchedulerTime, _ c: inout ClockContext) {
        if let id = prepared.first(where: { $0.value.sound == event.sound })?.key {
            if case .ready = event { return }
            prepared[id]?.early.append(event)
            return
        }
        guard let ringing, event.sound == ringing.sound else { return }
        let id = ringing.alarmID
        switch event {
        case .audible(_, let source, let after):
            if self.ringing?.audibleAfter == nil { self.ringing?.audibleAfter = after }
            self.ringing?.silentBecause = nil
            c.effects.record(
                HistoryEvent(
                    at: now.wall, alarmID: id, kind: HistoryKind.audible.rawValue,
                    detail: "source=\(source) \(HistoryDetail.audible(after: after))"))
            tellWaker(WakerPlanning.heard(scheduler: scheduler, at: now.wall), &c)
        case .fallback(_, _, let to, let reason):
            self.ringing?.fallbacks.append(reason)
            self.ringing?.fellBackTo = to
            let target: HistoryDetail.FallbackTarget = to == "tone" ? .tone : .alternate
            c.effects.record(
                HistoryEvent(
                    at: now.wall, alarmID: id, kind: HistoryKind.fallback.rawValue,
                    detail: HistoryDetail.fallback(to: target, reason: reason)))
        case .recovered(_, let to):
            self.ringing?.fellBackTo = nil
            c.effects.record(HistoryEvent(at: now.wall, alarmID: id, kind: HistoryKind.recovered.rawValue, detail: "to=\(to)"))
        case .onset(_, let late, let timing):
            if self.ringing?.onsetLate == nil { self.ringing?.onsetLate = late }
            c.effects.record(
                HistoryEvent(
                    at: now.wall, alarmID: id, kind: HistoryKind.onset.rawValue,
                    detail: HistoryDetail.onset(late: late, timing: timing)),
                fields: ["alarm": id, "late_ms": Double(late / .microseconds(1)) / 1000, "by": timing.rawValue])
        case .title(_, let title):
            c.effects.emit("title", ["alarm": id, "title": title])
        case .mixer(_, let note):
            c.effects.record(HistoryEvent(at: now.wall, alarmID: id, kind: HistoryKind.warning.rawValue, detail: note))
        case .stream(_, let note):
            if let text = note.noteText { c.effects.emit("stream", ["alarm": id, "message": text]) }
        case .stopped(_, let end):
            // The engine ended the sound while the alarm still rings (only a refusal can do that): say so.
            if case .failed(let reason) = end { notAudible(id, reason, now, &c) }
            self.ringing?.silentBecause = "The alarm's sound ended (\(end))."
        case .ready, .deviceOpened, .deviceFailed, .position:
            break
        }
    }

    /// The sound device failed or came back (R19, issue: a failing card must not read as "ringing").
    mutating func deviceEvent(_ event: SoundEvent, _ now: SchedulerTime, _ c: inout ClockContext) {
        guard let ringing else { return }
        switch event {
        case .deviceFailed(let problem):
            self.ringing?.silentBecause = problem
            notAudible(ringing.alarmID, problem, now, &c)
        case .deviceOpened(let name):
            if ringing.silentBecause != nil {
                c.effects.record(
                    HistoryEvent(
                        at: now.wall, alarmID: ringing.alarmID, kind: HistoryKind.warning.rawValue,
                        detail: "The sound device \(name) opened again; the alarm sounds."))
            }
            noteAlternate(name, alarm: ringing.alarmID, now, &c)
        default:
            break
        }
    }

    /// An alarm sounds on the alternate device because the configured one failed (R19): in its history.
    func noteAlternate(_ device: String?, alarm id: Int64, _ now: SchedulerTime, _ c: inout ClockContext) {
        guard let device, let primary = c.options.primaryDevice, device != primary else { return }
        c.effects.record(
            HistoryEvent(
                at: now.wall, alarmID: id, kind: HistoryKind.warning.rawValue,
                detail: "The sound device \(primary) failed; the alternate \(device) is used."))
    }

    /// The alarm rings but nothing is heard: in the history, the output and (through `ringing`) the status.
    func notAudible(_ id: Int64, _ reason: String, _ now: SchedulerTime, _ c: inout ClockContext) {
        c.effects.record(
            HistoryEvent(
                at: now.wall, alarmID: id, kind: HistoryKind.warning.rawValue,
                detail: "Not audible: \(reason) The clock keeps trying."),
            fields: ["alarm": id, "message": reason])
        c.effects.emit("not-audible", ["alarm": id, "reason": reason])
    }

    // MARK: Before the alarm

    /// For each alarm due soon: the pre-alarm check from 5 minutes before (R20), and the pre-roll from 15 s
    /// before — the station connected and buffered, so the sound starts at the alarm second. `afterTick`: the
    /// scheduler has just had its turn at `now`, so a pre-rolled second that has come and did not ring will not.
    mutating func prepareUpcoming(_ now: SchedulerTime, afterTick: Bool = false, _ c: inout ClockContext) {
        vibrateFirstTurn(now, &c)  // a ring that vibrates first: its pre-roll made again after a reload
        let soon = ringingSoon(now, within: AlarmRunner.precheckLead).filter { scheduler.state(of: $0.id).phase == .idle }
        for (id, occurrence) in soon {
            guard let alarm = scheduler.alarms[id] else { continue }
            if prechecks[id]?.occurrence != occurrence || prechecks[id]?.source != alarm.sound {
                startPrecheck(alarm, id: id, occurrence: occurrence, &c)
            }
            // Alarms due at the same second ring as one group with one sound, the last one's (R38: the scheduler
            // rings them in the order of their ids and sounds the last): only that one is pre-rolled, so the engine,
            // which begins a pre-rolled sound by itself, never begins one the clock will not ring.
            if soon.contains(where: { $0.instant == occurrence && $0.id > id }) {
                if let p = prepared.removeValue(forKey: id) { c.effects.stop(p.sound) }
                continue
            }
            // An alarm that vibrates first is pre-rolled for the second its sound starts.
            let soundAt = soundInstant(of: id, occurrence: occurrence)
            if soundAt.timeIntervalSince(now.wall) <= AlarmRunner.prerollLead, prepared[id]?.occurrence != occurrence {
                preroll(alarm, id: id, occurrence: occurrence, soundAt: soundAt, now, &c)
                // The microphone measures the room's noise before the ring.
                if c.caps.room { c.effects.append(.room(.arm)) }
            }
        }
        for (id, p) in prepared where !isSilentRingsPreroll(id, p) {
            let passed = afterTick ? p.soundAt <= now.wall : p.soundAt < now.wall.addingTimeInterval(-5)
            let moved = now.mono(at: p.soundAt) - p.startAt
            if passed || p.soundAt.timeIntervalSince(now.wall) > AlarmRunner.prerollLead + 5 {
                // Its second passed and the scheduler's turn did not ring it (disabled, skipped, superseded), or a
                // step of the wall clock put it back beyond the pre-roll: the engine must not sound it.
                c.effects.stop(p.sound)
                prepared[id] = nil
            } else if moved > AlarmRunner.startTolerance || moved < .zero - AlarmRunner.startTolerance {
                // The wall clock stepped since the engine was told: the same second is another monotonic instant.
                prepared[id]?.startAt = now.mono(at: p.soundAt)
                c.effects.begin(p.sound, at: now.mono(at: p.soundAt))
            }
        }
    }

    /// How far the wall clock may move against the monotonic clock (NTP's slewing, the reading itself) before the
    /// engine's instant for a pre-rolled alarm is moved.
    static let startTolerance: Duration = .milliseconds(5)

    /// Prepares the alarm's sound 15 s before its second (`soundAt`: the occurrence, or later when it vibrates first)
    /// and tells the engine to begin it on that second by itself (the scheduler's `ring`, or the end of the
    /// vibrate-first part, then only confirms it), so its first frame reaches the card on the second.
    mutating func preroll(
        _ alarm: Alarm, id: Int64, occurrence: Date, soundAt: Date, _ now: SchedulerTime, _ c: inout ClockContext
    ) {
        if let old = prepared.removeValue(forKey: id) { c.effects.stop(old.sound) }
        let plan = plan(
            sound: alarm.sound, volume: alarm.volume, fadeInSeconds: alarm.fadeInSeconds, alarmID: id,
            occurrence: occurrence, c)
        let sound = c.effects.play(plan.request, paused: true)
        let startAt = now.mono(at: soundAt)
        c.effects.begin(sound, at: startAt)
        prepared[id] = Prepared(
            occurrence: occurrence, plan: plan, sound: sound, soundAt: soundAt, source: alarm.sound, startAt: startAt)
    }

    /// Starts the check as a background job; its result pre-selects the tone for that occurrence on failure.
    private mutating func startPrecheck(_ alarm: Alarm, id: Int64, occurrence: Date, _ c: inout ClockContext) {
        prechecks[id] = Precheck(occurrence: occurrence, source: alarm.sound)
        checkStation(alarm, id: id, occurrence: occurrence, as: .precheck, &c)
    }

    /// Checks `alarm`'s station as a background job and hands `report` the failure, nil when it plays: a failure
    /// the plan already knows (Wi-Fi-only refusing the stream) without connecting, else the pre-alarm check's.
    /// Shared by the pre-check at T−5 min and the look-ahead hours before.
    func checkStation(_ alarm: Alarm, id: Int64, occurrence: Date, as check: StationCheck, _ c: inout ClockContext) {
        if case .podcast(let choice) = alarm.sound { return checkEpisode(choice, id: id, occurrence: occurrence, as: check, &c) }
        let plan = plan(
            sound: alarm.sound, volume: alarm.volume, fadeInSeconds: alarm.fadeInSeconds, alarmID: nil,
            occurrence: nil, c)
        c.effects.append(
            .check(
                .station(
                    StationCheckRequest(
                        check: check, alarm: id, occurrence: occurrence, source: alarm.sound, stations: plan.stations,
                        known: plan.request.fallback?.preselected, allowLoopback: c.options.allowLoopback,
                        device: c.world.device))))
    }

    /// A pre-check finished: recorded, warned about, and carried into the pre-roll (with the episode a `podcast:`
    /// alarm downloaded, which it plays).
    mutating func precheckDone(
        id: Int64, occurrence: Date, source: SoundSource, failure: String?, episode: EpisodeAudio? = nil,
        _ now: SchedulerTime, _ c: inout ClockContext
    ) {
        // A result for another occurrence, or for the sound the alarm had before an edit, is not this check's.
        guard prechecks[id]?.occurrence == occurrence, prechecks[id]?.source == source else { return }
        prechecks[id] = Precheck(occurrence: occurrence, source: source, done: true, failure: failure, episode: episode)
        if let failure {
            c.effects.record(
                HistoryEvent(
                    at: now.wall, alarmID: id, kind: HistoryKind.precheckFailed.rawValue,
                    detail: "\(failure) The alarm will start on the tone."))
            c.warn("precheck-\(id)", "Alarm \(id): \(failure) It will start on the tone.")
        } else {
            c.effects.record(
                HistoryEvent(
                    at: now.wall, alarmID: id, kind: HistoryKind.precheckPassed.rawValue,
                    detail: occurrence.formatted(.iso8601)))
            c.warn("precheck-\(id)", nil)
        }
        if !c.world.synchronised {
            c.effects.record(
                HistoryEvent(
                    at: now.wall, alarmID: id, kind: HistoryKind.warning.rawValue,
                    detail: "The system clock is not synchronised; the alarm rings by the best time known."))
        }
        // A pre-roll made before the result must carry it (a failure, or the episode now on disk).
        if let p = prepared[id], p.occurrence == occurrence,
            (failure != nil && p.plan.request.fallback?.preselected == nil) || episode != nil
        {
            c.effects.stop(p.sound)
            prepared[id] = nil
            prepareUpcoming(now, &c)
        }
    }

    /// The alarms, stations or settings changed: the engine learns what changed, and pre-rolled sounds whose
    /// plan no longer holds are dropped (they are made again at their next turn).
    mutating func reload(
        alarms: [Alarm], settingsChanged: AppSettings?, stationsChanged: Bool, _ now: SchedulerTime, _ c: inout ClockContext
    ) {
        if alarms != scheduler.alarms.values.sorted(by: { ($0.id ?? 0) < ($1.id ?? 0) }) {
            perform(scheduler.alarmsChanged(alarms, at: now), now, &c)
        }
        if let settingsChanged { perform(scheduler.settingsChanged(settingsChanged, at: now), now, &c) }
        refresh(now, &c)
        for (id, p) in prepared {
            let next = upcoming.first { $0.id == id }?.occurrence.instant
            let soundEdited: Bool = scheduler.alarms[id]?.sound != p.source
            // The pre-roll of a ring that vibrates first now is its ring's; an edit of its sound-after moves another's.
            let silentRing = isSilentRingsPreroll(id, p)
            let moved = !silentRing && next.map { soundInstant(of: id, occurrence: $0) } != p.soundAt
            if (!silentRing && next != p.occurrence) || moved || stationsChanged || settingsChanged != nil || soundEdited {
                c.effects.stop(p.sound)
                prepared[id] = nil
            }
        }
        prepareUpcoming(now, &c)
    }
}
