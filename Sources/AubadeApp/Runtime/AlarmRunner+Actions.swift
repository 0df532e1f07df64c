import AubadeCore
import Foundation

extension AlarmRunner {
    /// Turns the engine's actions into effects, in order: a state is committed before the sound it guards (R9,
    /// `EffectRunner`); a store failure is a warning, never a reason not to ring. `by` is the input behind this
    /// batch (a stop or snooze press), named in the output and the history.
    mutating func perform(
        _ actions: [SchedulerAction], _ now: SchedulerTime, by: DismissInput? = nil, _ c: inout ClockContext
    ) {
        for action in actions {
            switch action {
            case .persist(let state):
                c.effects.append(.save(state))
            case .saveAlarm(let alarm):
                c.effects.append(.update(alarm))
            case .record(let event):
                record(event, &c)
            case .ring(let request):
                ring(request, now, &c)
            case .stopRinging(let stop):
                stopRinging(stop, by: by, &c)
            case .snoozeRefused(let id):
                c.effects.emit("snooze-refused", ["alarm": id, "message": "All snoozes are used; only stop works."])
            case .climb(let id, let step):
                climb(id, to: step, now, &c)
            case .outputs(let id, let on):
                if on {
                    ladderTop = id
                } else if ladderTop == id {
                    ladderTop = nil
                }
            case .wakeCheck:
                wakeCheckAsks(&c)
            case .wakeMe(let next):
                wake = next
            }
        }
        outputsFollow(now, &c)
    }

    /// A person switched `name` by hand: it holds until an alarm starts or stops ringing. Off while an alarm rings
    /// silences that output for the rest of this ring only, never the next alarm's.
    mutating func switchByHand(_ name: OutputName, on: Bool, _ now: SchedulerTime, _ c: inout ClockContext) {
        outputsFollow(now, &c)  // a ring's start or end first clears what was set by hand before it
        outputsByHand[name] = on
        outputsFollow(now, &c)
    }

    /// Switches the outputs this clock holds to what the sounding alarm wants now (`Alarm.outputsOn`: each by its
    /// timing from the ring's start, and at its ladder's top every one it does not turn off), once per change; the
    /// `outputs` line says which are on. A level, not only an edge: whatever ended the ring (a person, a rest, an
    /// edit, a removal, the last round), nothing shakes once no alarm sounds.
    mutating func outputsFollow(_ now: SchedulerTime, _ c: inout ClockContext) {
        var want: Set<OutputName> = []
        if let r = ringing, let alarm = scheduler.alarms[r.alarmID] {
            want = alarm.outputsOn(c.caps.outputs, after: now.mono - r.startedAt, atTop: ladderTop != nil)
        }
        if ringing == nil { ladderTop = nil }
        if (ringing != nil) != outputsByHandWhileRinging {
            outputsByHand.removeAll()
            outputsByHandWhileRinging = ringing != nil
        }
        for (name, on) in outputsByHand where c.caps.outputs.contains(name) {
            if on { want.insert(name) } else { want.remove(name) }
        }
        guard want != outputsOn else { return }
        for name in c.caps.outputs where want.contains(name) != outputsOn.contains(name) {
            c.effects.append(.output(name, on: want.contains(name)))
        }
        outputsOn = want
        c.effects.emit(
            "outputs",
            [
                "alarm": ringing?.alarmID,
                "on": c.caps.outputs.filter { want.contains($0) }.map(\.rawValue).joined(separator: ","),
            ])
    }

    /// Appends to the history and prints it (a snooze with its end).
    private func record(_ event: HistoryEvent, _ c: inout ClockContext) {
        if event.kind == HistoryKind.snoozed.rawValue, let id = event.alarmID, let until = scheduler.state(of: id).snoozedUntil {
            c.effects.record(event, fields: ["alarm": id, "until": until.timeIntervalSince1970, "detail": event.detail])
        } else {
            c.effects.record(event)
        }
        tellWaker(WakerPlanning.notes(for: event, scheduler: scheduler), &c)
    }

    /// Rings an alarm now. Its sound starts at once — or, for a ring that vibrates first (`RingRequest.silentFor`),
    /// the ring begins silent, its outputs on (`outputsFollow`), and `vibrateFirstTurn` starts its sound later. A
    /// silent ring of another alarm it replaces gives up its pre-roll (the engine must not begin it by itself).
    private mutating func ring(_ request: RingRequest, _ now: SchedulerTime, _ c: inout ClockContext) {
        if let r = ringing, r.sound == nil, r.alarmID != request.alarmID || request.silentFor > .zero { dropPreroll(of: r, &c) }
        if request.soundAfterWithoutOutputs {
            c.warn(AlarmRunner.soundAfterKey, RingRequest.withoutOutputsNote(scheduler.alarms[request.alarmID]?.soundAfter))
        }
        guard request.silentFor > .zero else {
            startSound(request, ringStartedAt: now.mono, announce: true, now, &c)
            return
        }
        if let playing = ringing?.sound { c.effects.stop(playing) }
        let seconds = Int(request.silentFor.inSeconds.rounded())
        ringing = Ringing(
            alarmID: request.alarmID, occurrence: request.occurrence, sound: nil,
            source: "vibrate first, the sound in \(DurationText.format(seconds))", startedAt: now.mono,
            soundAt: now.mono + request.silentFor, pending: request)
        announce(request, source: ringing?.source ?? "", &c)
        c.effects.emit("vibrate-first", ["alarm": request.alarmID, "sound_in_s": seconds])
    }

    /// A ring begins: the live state says ringing, and its `rang` note (history, events) names `source`.
    private func announce(_ request: RingRequest, source: String, _ c: inout ClockContext) {
        c.effects.append(.ringingChanged(true))
        c.effects.append(
            .rang(
                RingNote(
                    alarmID: request.alarmID, occurrence: request.occurrence, source: source,
                    cause: request.cause.rawValue, late: request.late,
                    due: request.cause == .scheduled ? request.occurrence : nil)))
    }

    /// Starts an alarm's sound: the sound pre-rolled for this occurrence when there is one, else a new one. A
    /// sounding alarm is replaced by the engine without a silent moment (R13); the radio gives way (R14). `announce`:
    /// the ring begins with it (false: it ends a ring's vibrate-first part, already announced at `ringStartedAt`).
    mutating func startSound(
        _ request: RingRequest, ringStartedAt: MonotonicInstant, announce: Bool, _ now: SchedulerTime,
        _ c: inout ClockContext
    ) {
        let plan: AlarmPlanning.Plan
        let sound: SoundID
        var early: [SoundEvent] = []
        if let ready = prepared.removeValue(forKey: request.alarmID), ready.occurrence == request.occurrence {
            (plan, sound, early) = (ready.plan, ready.sound, ready.early)
            // The engine began it on its second if it could; if it could not (a step of the wall clock, a device
            // that cannot say what it holds), this begins it now.
            c.effects.begin(sound)
        } else {
            if let stale = prepared.removeValue(forKey: request.alarmID) { c.effects.stop(stale.sound) }
            plan = self.plan(
                sound: request.sound, volume: request.volume, fadeInSeconds: request.fadeInSeconds,
                alarmID: request.alarmID, occurrence: request.occurrence, c)
            sound = c.effects.play(plan.request)
        }
        let device = c.world.device
        ringing = Ringing(
            alarmID: request.alarmID, occurrence: request.occurrence, sound: sound, source: plan.description,
            startedAt: ringStartedAt, soundAt: now.mono,
            // A device that failed and has not taken audio since (the pre-roll's priming writes fail too) is not heard.
            silentBecause: device.problem ?? (device.isOpen ? nil : "The sound device is not open."))
        if announce {
            self.announce(request, source: plan.description, &c)
        } else {
            c.effects.emit("sound-after", ["alarm": request.alarmID, "source": plan.description])
        }
        if let silent = ringing?.silentBecause { notAudible(request.alarmID, silent, now, &c) }
        listenInTheRoom(now, &c)
        noteAlternate(device.name, alarm: request.alarmID, now, &c)
        // Its own sound cannot play at all (a station removed, an episode that could not be downloaded): the tone
        // is its fallback from the first frame, in the history like any fallback.
        if case .tone = plan.request.content, request.sound != .tone, let reason = plan.request.fallback?.preselected {
            ringing?.fallbacks.append(reason)
            ringing?.fellBackTo = "tone"
            c.effects.record(
                HistoryEvent(
                    at: now.wall, alarmID: request.alarmID, kind: HistoryKind.fallback.rawValue,
                    detail: HistoryDetail.fallback(to: .tone, reason: reason)))
        }
        // What the engine said of the sound between its second and this turn (its onset, a fallback chosen at once).
        for event in early { soundEvent(event, now, &c) }
    }

    /// An alarm stopped ringing. The sound goes silent only when no other alarm of the group still rings
    /// (R38); otherwise it plays on, counted for the member that started last.
    private mutating func stopRinging(_ stop: StopRinging, by: DismissInput?, _ c: inout ClockContext) {
        let who =
            switch stop.reason {
            case .autoSilenced, .unanswered, .rested: "auto"
            case .dismissed, .snoozed: (stop.by ?? by ?? .cli).rawValue
            case .edited, .disabled, .removed: "edit"
            }
        guard stop.silencesPlayer else {
            if ringing?.alarmID == stop.alarmID, let next = scheduler.soundingAlarmID { ringing?.alarmID = next }
            c.effects.emit(
                "stopped",
                [
                    "alarm": stop.alarmID, "reason": stop.reason.rawValue, "by": who,
                    "ringing_on": stop.othersStillRinging.map(String.init).joined(separator: ","),
                ])
            return
        }
        if let ringing {
            // While it vibrates first there is no sound yet, only its pre-roll, which must not begin by itself.
            if let sound = ringing.sound { c.effects.stop(sound) } else { dropPreroll(of: ringing, &c) }
            self.ringing = nil
            c.effects.append(.ringingChanged(false))
            if c.caps.room { c.effects.append(.room(.disarm)) }
            c.warn(AlarmRunner.notHeardKey, nil)
            c.warn(AlarmRunner.soundAfterKey, nil)
        }
        c.effects.emit("stopped", ["alarm": stop.alarmID, "reason": stop.reason.rawValue, "by": who])
    }

    /// An unanswered alarm's ladder reached `step` (only the sounding member of a ringing group changes the sound,
    /// R38): its own sound at its volume, the same `louderDB` louder, or the fallback tone at full volume — a new
    /// sound at alarm priority replaces the one playing without a silent moment (R13).
    private mutating func climb(_ id: Int64, to step: LadderStep, _ now: SchedulerTime, _ c: inout ClockContext) {
        guard let current = ringing, current.alarmID == id, let alarm = scheduler.alarms[id] else { return }
        let was = current.step
        ringing?.step = step
        let plan = scheduler.climb(of: id)?.plan ?? alarm.ladder.plan(clock: scheduler.ladder)
        let volume = step == .louder ? plan.louder(alarm.volume) : alarm.volume
        // The two steps of its own sound differ only in level; the two of the tone only in the outputs (their own action).
        switch (was >= .tone, step >= .tone) {
        case (true, true):
            break
        case (false, false):
            if was != step, let sound = current.sound { c.effects.setVolume(sound, volume) }
        case (false, true):
            ringing?.sound = c.effects.play(.tone(c.catalogue.settings.fallbackTone, priority: .alarm, volume: 100))
            ringing?.source = "tone (unanswered)"
        case (true, false):
            let plan = self.plan(
                sound: alarm.sound, volume: volume, fadeInSeconds: 0, alarmID: id, occurrence: current.occurrence, c)
            ringing?.sound = c.effects.play(plan.request)
            ringing?.source = plan.description
        }
        // Each step that sounds different is listened to again: not heard, the next comes at once.
        if was != step, step != .everything { listenInTheRoom(now, &c) }
    }

    static let notHeardKey = "room"

    /// Asks the microphone, if there is one, whether the room hears the sound that begins now.
    private func listenInTheRoom(_ now: SchedulerTime, _ c: inout ClockContext) {
        guard c.caps.room, let r = ringing else { return }
        c.effects.append(.room(.listen(alarmID: r.alarmID, occurrence: r.occurrence, since: now.mono)))
    }

    /// What the microphone found of the ring it listened to (a verdict for an occurrence no longer sounding is
    /// dropped). Not heard: the history says so with the reason, the status warns, and the ladder takes its next
    /// step at once; heard: the warning goes; could not tell: a line, nothing else.
    mutating func roomHeard(
        _ id: Int64, occurrence: Date, _ found: RoomReport, _ now: SchedulerTime, _ c: inout ClockContext
    ) {
        guard let r = ringing, r.alarmID == id, r.occurrence == occurrence else { return }
        c.effects.emit("room-check", ["alarm": id, "heard": found.heard, "reason": found.reason])
        switch found.heard {
        case false?:
            c.warn(AlarmRunner.notHeardKey, "The alarm is not heard in the room: \(found.reason)")
            perform(scheduler.notHeard(id, reason: found.reason, at: now), now, &c)
        case true?:
            c.warn(AlarmRunner.notHeardKey, nil)
        case nil:
            break
        }
    }

    /// The wake-up check's question after a Stop: a soft chime (three seconds at the sleep volume, unless an alarm
    /// rings). The question itself is the history's `wake-check` line (its event for the CLI's followers, Home
    /// Assistant's `wake_check`) and the live state's `wakeCheck` for the kiosk; `woke` or `fell-back-asleep` ends it.
    private func wakeCheckAsks(_ c: inout ClockContext) {
        guard !isRinging else { return }
        _ = c.effects.play(.tone(.chime, priority: .chime, volume: c.catalogue.settings.sleepVolume, limit: .seconds(3)))
    }

    /// The plan of an alarm's sound, with a failed pre-check of this occurrence as its known failure, and the
    /// episode its pre-check downloaded (a `podcast:` alarm plays only that file).
    func plan(
        sound: SoundSource, volume: Int, fadeInSeconds: Int, alarmID: Int64?, occurrence: Date?, _ c: ClockContext
    ) -> AlarmPlanning.Plan {
        var knownFailure: String?
        var episode: EpisodeAudio?
        if let alarmID, let check = prechecks[alarmID], check.occurrence == occurrence, check.source == sound {
            knownFailure = check.failure
            episode = check.episode
        }
        return AlarmPlanning.plan(
            sound: sound, station: { c.catalogue.stations[$0] }, settings: c.catalogue.settings,
            network: { c.world.network }, volume: volume, fadeInSeconds: fadeInSeconds,
            allowLoopback: c.options.allowLoopback, knownFailure: knownFailure, episode: { _ in episode })
    }

    // MARK: Inputs

    /// Snoozes the sounding alarm (or `alarmID`). `pressedAt`: when the press began (R15). True when it snoozed.
    @discardableResult
    mutating func snooze(
        by input: DismissInput, alarmID: Int64? = nil, pressedAt: MonotonicInstant? = nil,
        _ now: SchedulerTime, _ c: inout ClockContext
    ) -> Bool {
        let actions = scheduler.snoozePressed(at: now, alarmID: alarmID, pressedAt: pressedAt, by: input)
        perform(actions, now, by: input, &c)
        refresh(now, &c)
        return actions.contains { if case .stopRinging = $0 { true } else { false } }
    }

    /// Dismisses the sounding alarm (or `alarmID`, including its pending snooze). True when it stopped one.
    @discardableResult
    mutating func stop(
        by input: DismissInput, alarmID: Int64? = nil, pressedAt: MonotonicInstant? = nil,
        _ now: SchedulerTime, _ c: inout ClockContext
    ) -> Bool {
        let actions = scheduler.stopPressed(at: now, alarmID: alarmID, pressedAt: pressedAt, by: input)
        perform(actions, now, by: input, &c)
        refresh(now, &c)
        // Whether it ended a ring, a snooze or a ladder's rest (each says `dismissed`); a wake-up check it only
        // answered is not a stop.
        return actions.contains { if case .record(let e) = $0 { e.kind == HistoryKind.dismissed.rawValue } else { false } }
    }

    /// A person touched the kiosk or pressed a button that does not stop or snooze: while an alarm rings, its ladder,
    /// if it climbs, goes back to its own sound; while a wake-up check asks "Are you up?", it is answered.
    mutating func personActed(_ now: SchedulerTime, by input: DismissInput? = nil, _ c: inout ClockContext) {
        guard (isRinging && scheduler.climbing) || asking else { return }
        perform(scheduler.personActed(at: now, by: input), now, &c)
        refresh(now, &c)
    }

    /// A sustained shake: each ringing alarm does what the configured response says for it (by default a
    /// shake-to-stop alarm stops, another snoozes).
    mutating func shake(_ now: SchedulerTime, _ c: inout ClockContext) {
        perform(scheduler.shakeDetected(at: now, response: c.options.shakeResponse), now, by: .shake, &c)
        refresh(now, &c)
    }
}
