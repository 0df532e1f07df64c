import AubadeCore
import Foundation

extension RunningClock {
    /// The live state now, then every change of it (computed after each command, turn, sound event, input;
    /// published only when something besides the time changed). Each subscriber gets its own stream that keeps
    /// only the newest few states, so a slow reader never holds the clock back; it ends when the clock shuts
    /// down or the subscriber stops listening.
    func liveUpdates() -> AsyncStream<LiveState> {
        subscriptions.subscribe(current: liveState(deps.time.now())) { [weak self] id in
            Task { await self?.unsubscribe(id) }
        }
    }

    /// Ends the live or home stream `id` (its subscriber stopped listening).
    func unsubscribe(_ id: UUID) {
        subscriptions.unsubscribe(id)
    }

    /// How many streams follow the live state (for tests and the status).
    public var liveSubscriberCount: Int { subscriptions.liveCount }

    /// After every input: the kiosk's face follows the alarm's ringing, the coming sunrises, the settings and the
    /// night's schedule (a ringing alarm lights it in the same turn that starts it).
    func followDisplay(_ now: SchedulerTime) {
        display.follow(
            ringing: runner.isRinging || ringTest != nil, sunrises: runner.scheduler.sunrises(at: now.wall),
            settings: catalogue.settings.nightDimming, zone: runner.scheduler.defaultZone, now)
    }

    /// After every input: the live state, handed to every subscriber when it changed.
    func publishLive(_ now: SchedulerTime) {
        subscriptions.publish { liveState(now) }
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
                notAudible: deps.sound.device.isOpen ? nil : deps.sound.device.problem,
                since: test.startedAt)
        }
        let radio = self.radio.status(now).map { s in
            LiveState.Radio(
                kind: s.kind, source: s.source, state: s.state, problem: s.problem, title: s.title,
                endsAt: s.remainingSeconds.map { now.wall.addingTimeInterval($0).rounded }, volume: s.volume,
                stationId: self.radio.playingStationID)
        }
        let next = runner.next.map { LiveState.Next(id: $0.id, name: name($0.id), at: $0.instant) }
        let synchronised = deps.isClockSynchronised()
        return LiveState(
            now: now.wall, zone: scheduler.defaultZone.identifier, ringing: ringing, radio: radio, next: next,
            warnings: (synchronised ? [] : [DaemonStatus.notSynchronised]) + board.list,
            clockSynchronised: synchronised, dimmed: display.dimmed, face: display.face.rawValue,
            sunrise: display.sunrise.map { s in
                LiveState.Sunrise(
                    alarmId: s.alarmID, at: s.alarmAt, startedAt: s.startsAt, permille: s.permille, sky: s.sky, ink: s.ink,
                    backlight: display.backlightPercent)
            },
            pairing: pairing.valid(at: now.wall))
    }

    /// The saved station the radio plays: the radio is labelled with a station's name (names are unique, and none
    /// is a URL), so the station of that name; nil for a URL, the tone or a podcast.
}

extension Date {
    /// To the whole second (so a time computed from two clocks does not jitter between states).
    var rounded: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded()) }
}
