import AubadeAudio
import AubadeCore
import AubadeHardware
import AubadeStore
import Foundation

extension AlarmClock {
    /// Carries out the engine's actions in order. A state is committed before the sound it guards (R9); a
    /// store failure is a warning, never a reason not to ring.
    func perform(_ actions: [SchedulerAction]) {
        for action in actions {
            switch action {
            case .persist(let state):
                do throws(StoreError) { try store?.save(state) } catch {
                    // An alarm deleted a moment ago by another process has no row left to update.
                    if scheduler.alarms[state.alarmID] != nil {
                        setWarning("persist", "The alarm state could not be saved (\(error.description)).")
                    }
                }
            case .saveAlarm(let alarm):
                do throws(StoreError) { try store?.update(alarm) } catch {
                    setWarning("persist", "The alarm could not be saved (\(error.description)).")
                }
            case .record(let event):
                record(event)
            case .ring(let request):
                ring(request)
            case .stopRinging(let stop):
                stopRinging(stop)
            case .snoozeRefused(let id):
                output.emit("snooze-refused", ["alarm": id, "message": "All snoozes are used; only stop works."])
            case .wakeMe(let next):
                wake = next
            }
        }
    }

    /// Appends to the history and tells the output.
    func record(_ event: HistoryEvent) {
        do throws(StoreError) { _ = try store?.record(event) } catch {
            setWarning("history", "The event history could not be written (\(error.description)).")
        }
        var fields: KeyValuePairs<String, (any Sendable)?> = ["alarm": event.alarmID, "detail": event.detail.isEmpty ? nil : event.detail]
        if event.kind == HistoryKind.snoozed.rawValue, let id = event.alarmID, let until = scheduler.state(of: id).snoozedUntil {
            fields = ["alarm": id, "until": until.timeIntervalSince1970, "detail": event.detail]
        }
        output.emit(event.kind, fields)
    }

    /// Sounds an alarm now: the pre-rolled sound when there is one for this occurrence, else a new one. The
    /// radio (sleep timer, reservation) stops first (R14); a sounding alarm is replaced (R13).
    func ring(_ request: RingRequest) {
        let now = clock.now()
        let plan = alarmPlan(sound: request.sound, volume: request.volume, fadeInSeconds: request.fadeInSeconds,
                             alarmID: request.alarmID, occurrence: request.occurrence)
        var sound: AlarmSound
        if let ready = prepared.removeValue(forKey: request.alarmID), ready.occurrence == request.occurrence,
           ready.plan == plan.plan {
            sound = ready.sound
        } else {
            prepared.removeValue(forKey: request.alarmID)?.sound.stop()
            sound = AlarmSound.prepare(plan.plan, sink: options.sink, logger: logger)
        }
        if let radio {
            radio.stop()
            self.radio = nil
            record(HistoryEvent(at: now.wall, alarmID: nil, kind: HistoryKind.sleepEnded.rawValue,
                                detail: "stopped by alarm \(request.alarmID)"))
        }
        sounding?.sound.stop()
        sound.begin()
        sounding = Sounding(alarmID: request.alarmID, occurrence: request.occurrence, sound: sound,
                            source: plan.description, startedAt: now.mono)
        ringingObserver(true)
        output.emit("ringing", ["alarm": request.alarmID, "source": plan.description, "cause": request.cause.rawValue,
                                "late": request.late, "occurrence": request.occurrence.timeIntervalSince1970])
        let occurrence = request.occurrence
        let id = request.alarmID
        Task { [weak self] in
            for await event in sound.events {
                await self?.soundEvent(event, alarmID: id, occurrence: occurrence)
            }
        }
    }

    /// An alarm left the ringing group. The sound stops only when no other alarm still rings (R38); otherwise
    /// it plays on for them, even when it was this alarm's own sound.
    func stopRinging(_ stop: StopRinging) {
        let by: String? = switch stop.reason {
        case .autoSilenced: "auto"
        case .dismissed, .snoozed: stop.by?.rawValue
        case .edited, .disabled, .removed: "edit"
        }
        guard stop.silencesPlayer else {
            output.emit("stopped", ["alarm": stop.alarmID, "reason": stop.reason.rawValue, "by": by,
                                    "ringing_on": stop.othersStillRinging.map(String.init).joined(separator: ",")])
            return
        }
        guard let sounding else { return }
        sounding.sound.stop()
        self.sounding = nil
        ringingObserver(false)
        output.emit("stopped", ["alarm": stop.alarmID, "reason": stop.reason.rawValue, "by": by])
    }

    /// What the alarm's sound reported: recorded in the history (audible, fallbacks) and printed.
    func soundEvent(_ event: AlarmSoundEvent, alarmID: Int64, occurrence: Date) {
        let current = sounding?.alarmID == alarmID && sounding?.occurrence == occurrence
        let wall = clock.now().wall
        switch event {
        case .audible(let source, let after):
            if current, sounding?.audibleAfter == nil { sounding?.audibleAfter = after }
            record(HistoryEvent(at: wall, alarmID: alarmID, kind: HistoryKind.audible.rawValue,
                                detail: "source=\(source) \(HistoryDetail.audible(after: after))"))
        case .fallback(_, let to, let reason):
            if current { sounding?.fallbacks.append(reason) }
            let target: HistoryDetail.FallbackTarget = to == "tone" ? .tone : .alternate
            record(HistoryEvent(at: wall, alarmID: alarmID, kind: HistoryKind.fallback.rawValue,
                                detail: HistoryDetail.fallback(to: target, reason: reason)))
        case .recovered(let to):
            record(HistoryEvent(at: wall, alarmID: alarmID, kind: HistoryKind.recovered.rawValue, detail: "to=\(to)"))
        case .deviceError(let message):
            record(HistoryEvent(at: wall, alarmID: alarmID, kind: HistoryKind.warning.rawValue, detail: message))
            output.emit("warning", ["alarm": alarmID, "message": message])
        case .deviceReady(let device):
            if device != options.sink.device {
                record(HistoryEvent(at: wall, alarmID: alarmID, kind: HistoryKind.warning.rawValue,
                                    detail: "The sound device \(options.sink.device) failed; the alternate \(device) is used."))
            }
        case .title(let title):
            lastTitle = title
            output.emit("title", ["alarm": alarmID, "title": title])
        case .mixer(let note):
            record(HistoryEvent(at: wall, alarmID: alarmID, kind: HistoryKind.warning.rawValue, detail: note))
        case .streamNote(let note):
            output.emit("stream", ["alarm": alarmID, "message": note])
        case .stopped:
            break
        }
    }

    /// The sound plan of an alarm: its station's addresses (or none for the tone), its levels, and the
    /// reason to start on the tone when the pre-check failed or Wi-Fi-only refuses streaming.
    func alarmPlan(sound: SoundSource, volume: Int, fadeInSeconds: Int, alarmID: Int64?, occurrence: Date?)
        -> (plan: AlarmSoundPlan, description: String) {
        var knownFailure: String?
        if let alarmID, let check = prechecks[alarmID], check.occurrence == occurrence,
           case .some(.some(let failure)) = check.failure {
            knownFailure = failure
        }
        return AlarmPlanning.plan(sound: sound, station: { stations[$0] }, settings: settings, network: currentNetwork,
                                  volume: volume, fadeInSeconds: fadeInSeconds, allowLoopback: options.allowLoopback,
                                  knownFailure: knownFailure)
    }

    /// The network now: read at the moment a stream would start (a few small files), so Wi-Fi-only never
    /// acts on a stale route and the daemon needs no frequent polling.
    func currentNetwork() -> NetworkSnapshot {
        let snapshot = options.network.current()
        network = snapshot
        return snapshot
    }
}
