import AubadeCore
import Foundation

extension ClockState {
    /// After every input: the kiosk's face follows the alarm's ringing, the coming sunrises, the settings and the
    /// night's schedule (a ringing alarm lights it in the same turn that starts it).
    mutating func followDisplay() {
        display.follow(
            ringing: runner.isRinging || ringTest != nil, sunrises: runner.scheduler.sunrises(at: now.wall),
            settings: context.catalogue.settings.nightDimming, zone: runner.scheduler.defaultZone, now, &context)
    }

    /// The live state at `now`.
    func liveState(_ now: SchedulerTime) -> LiveState {
        let scheduler = runner.scheduler
        let name = { (id: Int64) in scheduler.alarms[id]?.name ?? "" }
        var ringing: LiveState.Ringing?
        var ids = scheduler.ringingAlarmIDs
        if let r = runner.ringing, !ids.contains(r.alarmID) { ids.append(r.alarmID) }
        if let first = ids.first {
            let r = runner.ringing
            let since =
                scheduler.states[first]?.ringingSince
                ?? r.map { now.wall.addingTimeInterval(-(now.mono - $0.startedAt).inSeconds).rounded } ?? now.wall.rounded
            ringing = LiveState.Ringing(
                alarms: ids.map { LiveState.AlarmRef(id: $0, name: name($0)) }, test: false,
                source: r?.source ?? "",
                audible: r.map { $0.audibleAfter != nil && $0.silentBecause == nil } ?? false,
                notAudible: r?.silentBecause, since: since)
        } else if let test = ringTest {
            ringing = LiveState.Ringing(
                alarms: test.alarm.map { [LiveState.AlarmRef(id: $0, name: name($0))] } ?? [],
                test: true, source: test.source, audible: test.audible,
                notAudible: context.world.device.isOpen ? nil : context.world.device.problem,
                since: test.startedAt)
        }
        let radio = self.radio.status(now).map { s in
            LiveState.Radio(
                kind: s.kind, source: s.source, state: s.state, problem: s.problem, title: s.title,
                endsAt: s.remainingSeconds.map { now.wall.addingTimeInterval($0).rounded }, volume: s.volume,
                stationId: self.radio.playingStationID)
        }
        let next = runner.next.map { LiveState.Next(id: $0.id, name: name($0.id), at: $0.instant) }
        let synchronised = context.world.synchronised
        return LiveState(
            now: now.wall, zone: scheduler.defaultZone.identifier, ringing: ringing, radio: radio, next: next,
            warnings: (synchronised ? [] : [DaemonStatus.notSynchronised]) + context.board.list,
            clockSynchronised: synchronised, dimmed: display.dimmed, face: display.face.rawValue,
            sunrise: display.sunrise.map { s in
                LiveState.Sunrise(
                    alarmId: s.alarmID, at: s.alarmAt, startedAt: s.startsAt, permille: s.permille, sky: s.sky, ink: s.ink,
                    backlight: display.backlightPercent)
            },
            pairing: pairing.valid(at: now.wall),
            wakeCheck: scheduler.askingWakeChecks.first.map { LiveState.AlarmRef(id: $0, name: name($0)) },
            outputs: context.caps.outputs.map { LiveState.Output(name: $0.rawValue, on: runner.outputsOn.contains($0)) })
    }

    /// The saved station the radio plays: the radio is labelled with a station's name (names are unique, and none
    /// is a URL), so the station of that name; nil for a URL, the tone or a podcast.
}

extension Date {
    /// To the whole second (so a time computed from two clocks does not jitter between states).
    var rounded: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded()) }
}
