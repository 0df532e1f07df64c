import AubadeAudio
import AubadeCore
import Foundation

extension AlarmClock {
    /// For each alarm due soon: the pre-alarm check from 5 minutes before (R20), and the pre-roll from 15 s
    /// before — the device opened and the station buffered, so the sound starts at the alarm second.
    func prepareUpcoming(now: SchedulerTime) {
        let soon = upcoming(now: now, within: AlarmClock.precheckLead)
        for (id, occurrence) in soon {
            guard let alarm = scheduler.alarms[id], scheduler.state(of: id).phase == .idle else { continue }
            let lead = occurrence.timeIntervalSince(now.wall)
            if prechecks[id]?.occurrence != occurrence {
                // The device is only probed when nothing holds it now or soon: an exclusive card (hw:) opened
                // by our own pre-roll would read as busy and wrongly send the alarm to the tone.
                let deviceFree = sounding == nil && radio == nil && prepared.isEmpty
                    && lead > AlarmClock.prerollLead + 20
                startPrecheck(alarm, id: id, occurrence: occurrence, checkDevice: deviceFree)
            }
            if lead <= AlarmClock.prerollLead, prepared[id]?.occurrence != occurrence {
                prepared.removeValue(forKey: id)?.sound.stop()
                let plan = alarmPlan(sound: alarm.sound, volume: alarm.volume, fadeInSeconds: alarm.fadeInSeconds,
                                     alarmID: id, occurrence: occurrence).plan
                prepared[id] = Prepared(occurrence: occurrence, plan: plan,
                                        sound: AlarmSound.prepare(plan, sink: options.sink, logger: logger))
            }
        }
        // Pre-rolled sounds whose occurrence passed without ringing (disabled, skipped, superseded).
        for (id, p) in prepared where p.occurrence < now.wall.addingTimeInterval(-5) {
            p.sound.stop()
            prepared[id] = nil
        }
    }

    /// Runs the check in the background; its result pre-selects the tone for that occurrence on failure.
    func startPrecheck(_ alarm: Alarm, id: Int64, occurrence: Date, checkDevice: Bool) {
        prechecks[id] = Precheck(occurrence: occurrence, failure: .none)
        let plan = alarmPlan(sound: alarm.sound, volume: alarm.volume, fadeInSeconds: alarm.fadeInSeconds,
                             alarmID: nil, occurrence: nil).plan
        let sink = options.sink
        Task { [weak self] in
            var failure = plan.preselectedFallback
            if failure == nil {
                let result = await PreAlarmCheck.run(stations: plan.stations, allowLoopback: plan.allowLoopback,
                                                     sink: sink, checkDevice: checkDevice)
                failure = result.failure
            }
            await self?.precheckDone(id: id, occurrence: occurrence, failure: failure)
        }
    }

    func precheckDone(id: Int64, occurrence: Date, failure: String?) {
        guard prechecks[id]?.occurrence == occurrence else { return }
        prechecks[id] = Precheck(occurrence: occurrence, failure: .some(failure))
        let wall = clock.now().wall
        let unsynced = ClockSync.isSynchronised() ? nil : "The system clock is not synchronised; the alarm rings by the best time known."
        if let failure {
            record(HistoryEvent(at: wall, alarmID: id, kind: HistoryKind.precheckFailed.rawValue,
                                detail: "\(failure) The alarm will start on the tone."))
            setWarning("precheck-\(id)", "Alarm \(id): \(failure) It will start on the tone.")
        } else {
            record(HistoryEvent(at: wall, alarmID: id, kind: HistoryKind.precheckPassed.rawValue,
                                detail: occurrence.formatted(.iso8601)))
            setWarning("precheck-\(id)", nil)
        }
        if let unsynced { record(HistoryEvent(at: wall, alarmID: id, kind: HistoryKind.warning.rawValue, detail: unsynced)) }
        // A pre-roll made before the result must carry it.
        if let p = prepared[id], p.occurrence == occurrence, failure != nil, p.plan.preselectedFallback == nil {
            p.sound.stop()
            prepared[id] = nil
            prepareUpcoming(now: clock.now())
        }
    }
}
