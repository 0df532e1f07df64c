import AubadeCore
import Foundation

/// The radio outside alarms — the sleep timer, listening (`aubade play` through the clock), a reserved
/// programme's station — and the chime that announces a reservation. Everything plays through the one
/// engine at radio (or chime) priority, so an alarm pre-empts it without touching the device (R14); the
/// radio's state comes from what the engine reports, so a station that cannot play is shown as not playing,
/// never as playing. A value, part of `ClockState`: its methods decide with the clock's `ClockContext`.
struct RadioPlayer {
    enum Kind: Sendable {
        case sleep(SleepTimer)
        case listen
        case reservation(programmeID: Int64, name: String)
    }

    /// What the radio is doing, as the engine reported it.
    enum State: Sendable, Equatable {
        case connecting
        case playing
        case notPlaying(String)
    }

    struct Session {
        var kind: Kind
        var sound: SoundID
        var label: String
        var state: State = .connecting
        var title: String?
        var volume: Int
        /// The saved station it plays, if it plays one (the kiosk shows its logo).
        var stationID: Int64? = nil
    }

    /// A reserved programme's station to tune to (`tunes` false: a reminder, nothing to tune to yet).
    struct Tuning {
        var programmeID: Int64
        var name: String
        var stationID: Int64
        var tunes: Bool
    }

    /// A reservation's chime, and what follows when it has sounded.
    struct Chime {
        var sound: SoundID
        var then: Tuning
    }

    /// An episode on the radio: which podcast and episode a sound plays, where the card has got to, and when that
    /// was last written (so the next listening goes on from there).
    struct Listening {
        var podcast: String
        var episode: String
        var position: PodcastResume?
        var writtenAt: MonotonicInstant
    }

    private(set) var session: Session?
    private(set) var chime: Chime?
    /// The episodes playing (or just stopped, until their last position is in), by sound.
    private var listening: [SoundID: Listening] = [:]
    /// Positions to write (`takePositions`), newest per podcast.
    private var positionsToWrite: [String: PodcastResume?] = [:]
    /// How often a position is written while an episode plays (else only when it stops): a crash loses at most this.
    static let positionWriteEvery: Duration = .seconds(300)
    /// Counts the directory's click when a saved station starts playing.
    var clicks = DirectoryClicks()

    /// Why nothing of the radio may start now, in the words of `what` is refused: an alarm sounds (`alarmSounding`,
    /// the clock's answer, R14). The radio's one copy of the rule; the engine enforces it on the device as well.
    private func alarmRefusal(_ what: Refused, _ alarmSounding: Bool) -> String? {
        guard alarmSounding else { return nil }
        switch what {
        case .sleep: return SleepTimer.refusedWhileAlarmRings
        case .listen: return "An alarm is ringing; stop or snooze it first, the radio never plays over an alarm."
        }
    }

    private enum Refused { case sleep, listen }

    func owns(_ id: SoundID) -> Bool { session?.sound == id || chime?.sound == id || listening[id] != nil }

    // MARK: Starting

    /// Starts (or restarts) the sleep timer. Refused while an alarm rings (R14).
    mutating func startSleep(
        duration: Duration?, source: String?, alarmSounding: Bool, _ now: SchedulerTime, _ c: inout ClockContext
    ) throws(ValidationError) -> (sound: SoundID, message: String) {
        if let refusal = alarmRefusal(.sleep, alarmSounding) { throw ValidationError(refusal) }
        let (sound, label) = try c.catalogue.source(source, purpose: "fall asleep to")
        let settings = c.catalogue.settings
        let length = duration ?? .seconds(settings.sleepSeconds)
        let timer = SleepTimer(
            duration: length, fade: .seconds(settings.sleepFadeSeconds), volume: settings.sleepVolume,
            startedAt: now.mono)
        let id = try start(sound, volume: settings.sleepVolume, limit: nil, &c)
        clicks.played(sound.stationID.flatMap { c.catalogue.stations[$0] }, at: now.wall, &c)
        replace(
            with: Session(
                kind: .sleep(timer), sound: id, label: label, volume: settings.sleepVolume, stationID: sound.stationID),
            now, &c)
        c.effects.record(.sleepStarted, at: now.wall, "\(DurationText.format(Int(length.inSeconds))) of \(label)")
        let fade = DurationText.format(Int(timer.fade.inSeconds))
        return (id, "Sleep timer: \(label) for \(DurationText.format(Int(length.inSeconds))), fading out over its last \(fade).")
    }

    /// Plays `source` now for `limit` (or until stopped) — `aubade play` through the running clock.
    mutating func listen(
        source: String, limit: Duration?, volume: Int?, alarmSounding: Bool, _ now: SchedulerTime, _ c: inout ClockContext
    ) throws(ValidationError) -> (sound: SoundID, label: String) {
        if let refusal = alarmRefusal(.listen, alarmSounding) { throw ValidationError(refusal) }
        let listen: ListenSource
        let catalogue = c.catalogue
        do {
            listen = try ListenSource(
                userText: source, stationNamed: { name in catalogue.stations.values.first { $0.name == name } },
                podcastNamed: catalogue.podcast(named:))
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("\(error)")
        }
        let id: SoundID, label: String, level: Int
        var station: Int64?
        switch listen {
        case .tone(let tone):
            level = volume ?? c.catalogue.settings.toneVolume
            label = "tone:\(tone.rawValue)"
            id = c.effects.play(.tone(tone, priority: .radio, volume: level, limit: limit))
        case .sound(let sound):
            level = volume ?? c.catalogue.settings.defaultVolume
            label = c.catalogue.label(sound) ?? source
            id = try start(sound, volume: level, limit: limit, &c)
            station = sound.stationID
            clicks.played(station.flatMap { c.catalogue.stations[$0] }, at: now.wall, &c)
        }
        replace(with: Session(kind: .listen, sound: id, label: label, volume: level, stationID: station), now, &c)
        return (id, label)
    }

    /// A sound on the radio path (not supervised: at bedtime silence beats a beeping tone). Wi-Fi-only is
    /// read now, as the stream would start.
    private mutating func start(_ sound: SoundSource, volume: Int, limit: Duration?, _ c: inout ClockContext)
        throws(ValidationError)
        -> SoundID
    {
        let content: SoundRequest.Content
        var episode: Listening?
        switch sound {
        case .podcast(let choice):
            guard let podcast = c.catalogue.podcast(named: choice.name) else {
                throw ValidationError("No podcast is named '\(choice.name)'; see 'aubade podcast list'.")
            }
            guard let found = podcast.listening(choice) else {
                throw ValidationError("Podcast \(podcast.name) has no episode #\(choice.episode) with audio to play.")
            }
            content = .episode(found.audio)
            episode = Listening(podcast: podcast.name, episode: found.episode.id, writtenAt: c.now.mono)
        case .tone:
            content = .tone(.chime)
        case .station(let id):
            guard let station = c.catalogue.stations[id] else { throw ValidationError("Station \(id) does not exist.") }
            content = .stations(station.addresses)
        case .stream(let url):
            content = .stations([url])
        }
        if content.streams,
            case .refuse(let reason) = NetworkPolicy.streaming(
                wifiOnly: c.catalogue.settings.isWifi, network: c.world.network)
        {
            throw ValidationError(reason)
        }
        let id = c.effects.play(
            SoundRequest(
                priority: .radio, content: content, volume: volume, limit: limit,
                allowLoopback: c.options.allowLoopback))
        if let episode { listening[id] = episode }
        return id
    }

    private mutating func replace(with new: Session, _ now: SchedulerTime, _ c: inout ClockContext) {
        if let old = session {
            c.effects.stop(old.sound)
            ended(old, "replaced by \(new.label)", now, &c)
        }
        session = new
    }

    /// A reserved programme starts: a chime over whatever plays, then its station — unless an alarm rings. With a
    /// reminder lead the chime came earlier (`start.isReminder`: the chime alone) and the start only tunes in.
    mutating func reserve(_ start: ReservationStart, alarmSounding: Bool, _ now: SchedulerTime, _ c: inout ClockContext) {
        let station = c.catalogue.stations[start.stationID]?.name ?? "station \(start.stationID)"
        guard !alarmSounding else { return reservationPassed(start, now, &c) }
        let target = Tuning(
            programmeID: start.programmeID, name: start.name, stationID: start.stationID,
            tunes: !start.isReminder)
        if start.chimes {
            if let old = chime { c.effects.stop(old.sound) }
            let sound = c.effects.play(
                .tone(.chime, priority: .chime, volume: c.catalogue.settings.sleepVolume, limit: .seconds(3)))
            chime = Chime(sound: sound, then: target)
        } else {
            tune(target, now, &c)
        }
        if let at = start.reminderFor {
            let minutes = max(0, Int(at.timeIntervalSince(start.start) / 60))
            c.effects.record(.reservationStarted, at: now.wall, "reminder: \(start.name) on \(station) in \(minutes) min")
            c.effects.emit(
                "reminder",
                [
                    "programme": start.programmeID, "name": start.name, "station": start.stationID,
                    "minutes": minutes,
                ])
        } else {
            c.effects.record(.reservationStarted, at: now.wall, "\(start.name) on \(station)")
            c.effects.emit("reservation", ["programme": start.programmeID, "name": start.name, "station": start.stationID])
        }
    }

    /// A reserved programme started while an alarm rang: recorded, nothing chimed or tuned (R14).
    func reservationPassed(_ start: ReservationStart, _ now: SchedulerTime, _ c: inout ClockContext) {
        let what = start.isReminder ? "reminder not chimed" : "not tuned"
        c.effects.record(.reservationStarted, at: now.wall, "\(start.name): \(what), an alarm is ringing")
    }

    /// After the chime: the programme's station, on the radio.
    private mutating func tune(_ chime: Tuning, _ now: SchedulerTime, _ c: inout ClockContext) {
        guard chime.tunes else { return }
        do throws(ValidationError) {
            let id = try start(.station(id: chime.stationID), volume: c.catalogue.settings.sleepVolume, limit: nil, &c)
            let label = c.catalogue.stations[chime.stationID]?.name ?? "station \(chime.stationID)"
            replace(
                with: Session(
                    kind: .reservation(programmeID: chime.programmeID, name: chime.name), sound: id,
                    label: label, volume: c.catalogue.settings.sleepVolume, stationID: chime.stationID), now, &c)
            c.effects.emit("tuned", ["programme": chime.programmeID, "station": chime.stationID])
            c.warn("reservation", nil)
        } catch {
            c.warn("reservation", "The reserved programme's station could not be played: \(error.message)")
        }
    }

    // MARK: Changing

    /// Adds time to a running sleep timer, or starts one of that length (the sleep button).
    mutating func extendSleep(minutes: Int, _ now: SchedulerTime, _ c: inout ClockContext) {
        guard var s = session, case .sleep(var timer) = s.kind else {
            _ = try? startSleep(duration: .seconds(minutes * 60), source: nil, alarmSounding: false, now, &c)
            return
        }
        timer.extend(by: .seconds(minutes * 60), at: now.mono)
        s.kind = .sleep(timer)
        s.volume = timer.volume(at: now.mono)
        session = s
        c.effects.setVolume(s.sound, s.volume)
        c.effects.emit("sleep-extended", ["remaining_s": Int(timer.remaining(at: now.mono).inSeconds)])
    }

    /// Stops the radio (sleep timer, listening, reservation); never touches an alarm. True when one played.
    @discardableResult
    mutating func cancel(reason: String, _ now: SchedulerTime, _ c: inout ClockContext) -> Bool {
        guard let s = session else { return false }
        c.effects.stop(s.sound)
        session = nil
        ended(s, reason, now, &c)
        return true
    }

    /// Volume buttons move the radio's level in steps of 10 (an alarm keeps its own level, R14, R18).
    mutating func adjustVolume(up: Bool, _ c: inout ClockContext) {
        guard let s = session else { return }
        setVolume(max(5, min(100, s.volume + (up ? 10 : -10))), &c)
    }

    /// Sets the playing radio's volume (the sleep timer fades from the new level); false when nothing plays.
    @discardableResult
    mutating func setVolume(_ level: Int, _ c: inout ClockContext) -> Bool {
        guard var s = session else { return false }
        s.volume = level
        if case .sleep(var timer) = s.kind {
            timer.setVolume(s.volume)
            s.kind = .sleep(timer)
        }
        session = s
        c.effects.setVolume(s.sound, s.volume)
        c.effects.emit("volume", ["level": s.volume])
        return true
    }

    /// An alarm rings: the radio gives way (the engine has pre-empted its sound already, R14).
    mutating func giveWay(toAlarm id: Int64, _ now: SchedulerTime, _ c: inout ClockContext) {
        if let ch = chime {
            c.effects.stop(ch.sound)
            chime = nil
        }
        guard let s = session else { return }
        c.effects.stop(s.sound)
        session = nil
        ended(s, "stopped by alarm \(id)", now, &c)
    }

    /// The sleep timer's turn: pushes the fade volume, ends it when its time is up.
    mutating func step(_ now: SchedulerTime, _ c: inout ClockContext) {
        guard var s = session, case .sleep(let timer) = s.kind else { return }
        if timer.isFinished(at: now.mono) {
            cancel(reason: "timer ended", now, &c)
            return
        }
        let volume = timer.volume(at: now.mono)
        if volume != s.volume {
            s.volume = volume
            session = s
            c.effects.setVolume(s.sound, volume)
        }
    }

    /// When the radio next needs a turn: a fade step (once a second) or the end of the timer.
    func nextStep(_ now: SchedulerTime) -> MonotonicInstant? {
        guard let s = session, case .sleep(let timer) = s.kind else { return nil }
        let remaining = timer.remaining(at: now.mono)
        if remaining <= timer.fade { return now.mono + .seconds(1) }
        return now.mono + (remaining - timer.fade)
    }

    private func ended(_ s: Session, _ reason: String, _ now: SchedulerTime, _ c: inout ClockContext) {
        if case .listen = s.kind {
            c.effects.emit("radio-stopped", ["source": s.label, "reason": reason])
        } else {
            c.effects.record(.sleepEnded, at: now.wall, reason)
        }
    }

    // MARK: What the engine says

    mutating func soundEvent(_ event: SoundEvent, _ now: SchedulerTime, _ c: inout ClockContext) {
        if let id = event.sound, listening[id] != nil { follow(episode: id, event, now) }
        if let ch = chime, event.sound == ch.sound {
            if case .stopped(_, let end) = event {
                chime = nil
                if end == .finished { tune(ch.then, now, &c) }
            }
            return
        }
        guard var s = session, event.sound == s.sound else { return }
        switch event {
        case .audible:
            s.state = .playing
        case .title(_, let title):
            s.title = title
            c.effects.emit("title", ["title": title, "source": s.label])
        case .stream(_, let note):
            switch note {
            case .error(let reason), .failed(let reason): s.state = .notPlaying(reason)
            case .stalled, .reconnecting: if s.state == .playing { s.state = .notPlaying(note.noteText ?? "Reconnecting.") }
            case .connecting, .title, .metadataOff: break
            }
        case .stopped(_, let end):
            session = nil
            switch end {
            case .failed(let reason): ended(s, "the station failed: \(reason)", now, &c)
            case .preempted: ended(s, "stopped by an alarm", now, &c)
            case .finished: ended(s, "finished", now, &c)
            case .requested, .replaced, .shutdown: break
            }
            return
        default:
            break
        }
        session = s
    }

    /// An episode's position: kept, and written every `positionWriteEvery` and when its sound stops — heard to
    /// the end, the podcast's position is cleared (the next listening starts the newest from its beginning).
    private mutating func follow(episode id: SoundID, _ event: SoundEvent, _ now: SchedulerTime) {
        guard var l = listening[id] else { return }
        switch event {
        case .position(_, let byte, let atEnd):
            l.position = atEnd ? nil : PodcastResume(episode: l.episode, byte: byte)
            if atEnd || now.mono - l.writtenAt >= RadioPlayer.positionWriteEvery {
                positionsToWrite[l.podcast] = l.position
                l.writtenAt = now.mono
            }
            listening[id] = l
        case .stopped:
            listening[id] = nil
            if l.position != nil || positionsToWrite.keys.contains(l.podcast) { positionsToWrite[l.podcast] = l.position }
        default:
            break
        }
    }

    /// The podcast positions to write now (`ClockEdit.podcastPosition`), taken once.
    mutating func takePositions() -> [(podcast: String, resume: PodcastResume?)] {
        defer { positionsToWrite = [:] }
        return positionsToWrite.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    mutating func deviceEvent(_ event: SoundEvent, _ c: inout ClockContext) {
        guard var s = session else { return }
        switch event {
        case .deviceFailed(let problem): s.state = .notPlaying(problem)
        case .deviceOpened: if s.state != .playing { s.state = .connecting }
        default: return
        }
        session = s
    }

    /// The saved station the radio plays, if any.
    var playingStationID: Int64? { session?.stationID }

    /// Whether the radio plays a sleep timer.
    var isSleepTimer: Bool {
        if case .sleep? = session?.kind { return true }
        return false
    }

    /// What `status` shows of the radio.
    func status(_ now: SchedulerTime) -> DaemonStatus.Radio? {
        guard let s = session else { return nil }
        let kind: String
        var remaining: Double?
        switch s.kind {
        case .sleep(let timer):
            kind = "sleep timer"
            remaining = timer.remaining(at: now.mono).inSeconds
        case .listen:
            kind = "radio"
        case .reservation(_, let name):
            kind = "reserved programme \(name)"
        }
        let state: String, problem: String?
        switch s.state {
        case .connecting: (state, problem) = ("connecting", nil)
        case .playing: (state, problem) = ("playing", nil)
        case .notPlaying(let why): (state, problem) = ("not playing", why)
        }
        return DaemonStatus.Radio(
            kind: kind, source: s.label, remainingSeconds: remaining, title: s.title,
            state: state, problem: problem, volume: s.volume)
    }
}
