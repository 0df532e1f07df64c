import AubadeAudio
import AubadeCore
import Foundation

/// The radio outside alarms: the sleep timer and programme reservations. Both give way to an alarm (R14).
final class RadioSession {
    enum Kind {
        case sleep(SleepTimer)
        case reservation(programmeID: Int64, name: String)
    }

    var kind: Kind
    var playback: Playback?
    let source: String
    /// When the fade volume was last pushed (sleep timer).
    var lastVolume: Int?

    init(kind: Kind, playback: Playback?, source: String) {
        self.kind = kind
        self.playback = playback
        self.source = source
    }

    /// When the clock should next look at this session: a fade step (once a second) or the end.
    func nextStep(now: MonotonicInstant) -> MonotonicInstant? {
        guard case .sleep(let timer) = kind else { return nil }
        let remaining = timer.remaining(at: now)
        if remaining <= timer.fade { return now + .seconds(1) }
        return now + (remaining - timer.fade)
    }

    func stop() {
        playback?.stop()
        playback = nil
    }
}

extension AlarmClock {
    /// What a sleep request plays: tone, a station name, or a URL; by default the first saved station.
    func sleepSource(_ text: String?) throws -> (SoundSource, String) {
        if let text, !text.isEmpty {
            let source = try SoundSource(userText: text) { name in stations.values.first { $0.name == name } }
            return (source, text)
        }
        guard let first = stations.values.min(by: { ($0.id ?? 0) < ($1.id ?? 0) }), let id = first.id else {
            throw ValidationError("There is no saved station to fall asleep to; give --source (a station name, a URL or tone).")
        }
        return (.station(id: id), first.name)
    }

    /// Starts (or restarts) the sleep timer. Refused while an alarm rings (R14).
    public func startSleep(duration: Duration?, source: String?) throws -> String {
        if case .refused(let reason) = SleepTimer.decide(alarmRinging: sounding != nil) {
            throw ValidationError(reason)
        }
        let (sound, label) = try sleepSource(source)
        let now = clock.now()
        let length = duration ?? .seconds(settings.sleepSeconds)
        let timer = SleepTimer(duration: length, fade: .seconds(settings.sleepFadeSeconds), volume: settings.sleepVolume,
                               startedAt: now.mono)
        radio?.stop()
        let playback = try radioPlayback(sound, volume: settings.sleepVolume)
        radio = RadioSession(kind: .sleep(timer), playback: playback, source: label)
        record(HistoryEvent(at: now.wall, alarmID: nil, kind: HistoryKind.sleepStarted.rawValue,
                            detail: "\(DurationText.format(Int(length.inSeconds))) of \(label)"))
        wakeLoop()
        return "Sleep timer: \(label) for \(DurationText.format(Int(length.inSeconds))), fading out over the last \(DurationText.format(settings.sleepFadeSeconds))."
    }

    /// Adds time to a running sleep timer, or starts one of that length (the sleep button).
    func extendSleep(minutes: Int) {
        let now = clock.now()
        if let radio, case .sleep(var timer) = radio.kind {
            timer.extend(by: .seconds(minutes * 60), at: now.mono)
            radio.kind = .sleep(timer)
            radio.playback?.setVolume(timer.volume(at: now.mono))
            output.emit("sleep-extended", ["remaining_s": Int(timer.remaining(at: now.mono).inSeconds)])
            wakeLoop()
        } else {
            _ = try? startSleep(duration: .seconds(minutes * 60), source: nil)
        }
    }

    /// Stops the radio (sleep timer or reservation); never touches an alarm.
    @discardableResult
    public func cancelRadio(reason: String) -> Bool {
        guard let radio else { return false }
        radio.stop()
        self.radio = nil
        record(HistoryEvent(at: clock.now().wall, alarmID: nil, kind: HistoryKind.sleepEnded.rawValue, detail: reason))
        return true
    }

    /// The sleep timer's turn: pushes the fade volume, ends it when its time is up; a radio that failed ends.
    func stepRadio(now: SchedulerTime) {
        guard let radio else { return }
        if case .sleep(let timer) = radio.kind {
            if timer.isFinished(at: now.mono) {
                cancelRadio(reason: "timer ended")
                return
            }
            let volume = timer.volume(at: now.mono)
            if volume != radio.lastVolume {
                radio.lastVolume = volume
                radio.playback?.setVolume(volume)
            }
        }
    }

    /// A playback of `sound` on the radio path (not supervised: at bedtime, silence beats a beeping tone).
    func radioPlayback(_ sound: SoundSource, volume: Int) throws -> Playback {
        switch sound {
        case .tone:
            return TonePlayer.start(.chime, volume: volume, duration: nil, sink: options.sink, logger: logger)
        case .station(let id):
            guard let station = stations[id] else { throw ValidationError("Station \(id) does not exist.") }
            return try radioStream(station.url)
        case .stream(let url):
            return try radioStream(url)
        }
    }

    private func radioStream(_ url: StreamURL) throws -> Playback {
        if case .refuse(let reason) = NetworkPolicy.streaming(wifiOnly: settings.isWifi, network: currentNetwork()) {
            throw ValidationError(reason)
        }
        return StreamPlayer.start(url, options: StreamPlayer.Options(volume: settings.sleepVolume, allowLoopback: options.allowLoopback),
                                  sink: options.sink, logger: logger)
    }

    // MARK: Programme reservations

    /// The next reserved programme start after `now`, for the loop's wake-up.
    func nextReservationStart(now: SchedulerTime) -> Date? {
        ReservationSchedule.next(after: now.wall, programmes: programmes, zone: scheduler.defaultZone)?.start
    }

    /// Starts reserved programmes whose start came since the last turn: a chime, then the station — unless
    /// an alarm rings. Each start happens once (keyed by programme and instant).
    func startDueReservations(now: SchedulerTime) {
        let from = lastReservationCheck ?? now.wall
        lastReservationCheck = now.wall
        guard from < now.wall else { return }
        for start in ReservationSchedule.due(from: from, through: now.wall, programmes: programmes, zone: scheduler.defaultZone) {
            let key = "\(start.programmeID)@\(start.start.timeIntervalSince1970)"
            guard !reservationsDone.contains(key) else { continue }
            reservationsDone.insert(key)
            guard sounding == nil else {
                record(HistoryEvent(at: now.wall, alarmID: nil, kind: HistoryKind.reservationStarted.rawValue,
                                    detail: "\(start.name): not tuned, an alarm is ringing"))
                continue
            }
            radio?.stop()
            let chime = TonePlayer.start(.chime, volume: settings.sleepVolume, duration: .seconds(3), sink: options.sink, logger: logger)
            radio = RadioSession(kind: .reservation(programmeID: start.programmeID, name: start.name), playback: chime,
                                 source: stations[start.stationID]?.name ?? "station \(start.stationID)")
            record(HistoryEvent(at: now.wall, alarmID: nil, kind: HistoryKind.reservationStarted.rawValue,
                                detail: "\(start.name) on \(radio?.source ?? "")"))
            output.emit("reservation", ["programme": start.programmeID, "name": start.name, "station": start.stationID])
            let stationID = start.stationID
            Task { [weak self] in
                for await _ in chime.events {}
                await self?.tuneReservation(programmeID: start.programmeID, stationID: stationID)
            }
        }
    }

    /// After the chime: tunes to the programme's station if the session is still this reservation.
    func tuneReservation(programmeID: Int64, stationID: Int64) {
        guard let radio, case .reservation(let id, _) = radio.kind, id == programmeID else { return }
        do {
            radio.playback = try radioPlayback(.station(id: stationID), volume: settings.sleepVolume)
            output.emit("tuned", ["programme": programmeID, "station": stationID])
        } catch {
            setWarning("reservation", "The reserved programme's station could not be played: \(error).")
        }
    }
}
