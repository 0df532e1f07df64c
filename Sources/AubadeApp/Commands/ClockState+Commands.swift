import AubadeCore
import Foundation

extension ClockState {
    /// Carries out `command` and answers once its change is committed (R26). With `follow`, a command that starts
    /// a sound (`play`, `ring`, `sleep`) also answers with the stream of that sound's events (and the device's)
    /// until it stops — registered before any of them can arrive, so a client misses none.
    /// A command whose change is a commit (an edit, a pairing) or that reads the store (the history) is answered
    /// when that work comes back (nil here). With `follow`, the shell adds the stream of a started sound's events.
    mutating func handle(_ command: ClockCommand, reply: ClockTicket) throws(ClockError) -> ClockReply? {
        let now = self.now
        switch command {
        case .status:
            return .status(status(now))
        case .reload:
            handOff(.reload, then: .reload(reply: reply))
            return nil
        case .stop(let alarm, let by):
            try known(alarm)
            return try dismiss(.stop, alarm: alarm, by: by, pressedAt: nil, idle: .refuse)
        case .snooze(let alarm, let by):
            try known(alarm)
            return try dismiss(.snooze, alarm: alarm, by: by, pressedAt: nil, idle: .refuse)
        case .sleep(let seconds, let source):
            if let seconds, !(60...(12 * 3600)).contains(seconds) {
                throw ClockError(.invalid, "A sleep timer lasts between 1m and 12h.")
            }
            do {
                let started = try radio.startSleep(
                    duration: seconds.map { .seconds($0) }, source: source, alarmSounding: runner.isRinging, now, &context)
                return .sound(started.sound, label: radio.session?.label ?? "", message: started.message)
            } catch {
                throw refusal(error)
            }
        case .sleepUntilEnd(let programme, let source):
            let until = try sleepUntilEnd(of: programme, source: source, now)
            do {
                let started = try radio.startSleep(
                    duration: .seconds(until.seconds), source: until.source, alarmSounding: runner.isRinging, now, &context)
                return .sound(started.sound, label: radio.session?.label ?? "", message: "\(until.sentence) \(started.message)")
            } catch {
                throw refusal(error)
            }
        case .sleepExtend(let minutes):
            guard (1...720).contains(minutes) else { throw ClockError(.invalid, "Extend the sleep timer by 1 to 720 minutes.") }
            radio.extendSleep(minutes: minutes, now, &context)
            return .done("The sleep timer runs \(minutes) minutes longer.")
        case .sleepCancel:
            guard radio.cancel(reason: "cancelled", now, &context) else { throw ClockError(.refused, "No sleep timer runs.") }
            return .done("The sleep timer is cancelled.")
        case .play(let source, let seconds, let volume):
            if let volume, !(1...100).contains(volume) {
                throw ClockError(.invalid, "Volume \(volume) is out of range; use 1 to 100.")
            }
            if let seconds, !(1...86_400).contains(seconds) {
                throw ClockError(.invalid, "Play for 1 s to 24 h, not \(seconds) s.")
            }
            do {
                let started = try radio.listen(
                    source: source, limit: seconds.map { .seconds($0) }, volume: volume, alarmSounding: runner.isRinging, now,
                    &context)
                return .sound(started.sound, label: started.label, message: "Playing \(started.label).")
            } catch {
                throw refusal(error)
            }
        case .stopRadio:
            guard radio.cancel(reason: "stopped", now, &context) else { throw ClockError(.refused, "The radio is not playing.") }
            return .done("Stopped.")
        case .radioVolume(let level):
            guard (1...100).contains(level) else { throw ClockError(.invalid, "Volume \(level) is out of range; use 1 to 100.") }
            guard radio.setVolume(level, &context) else { throw ClockError(.refused, "The radio is not playing.") }
            return .done("The radio plays at volume \(level).")
        case .ring(let test):
            return try ringTest(test, now)
        case .stopSound(let id):
            if radio.session?.sound == id {
                radio.cancel(reason: "stopped", now, &context)
            } else {
                context.effects.stop(id)
            }
            return .done("Stopped.")
        case .edit(let edit):
            self.edit(edit, reply: reply, then: .answer)
            return nil
        case .query(let query):
            return try answer(query, reply: reply, now).map(ClockReply.answer)
        case .pairingCode:
            return .pairingCode(pairing.newCode(now: now.wall, entropy: context.world.entropy))
        case .pair(let code, let name):
            try pair(code: code, name: name, reply: reply, now)
            return nil
        case .displayWake:
            display.touched(now, &context)
            // A person at the kiosk: an alarm's ladder goes back to its own sound; a wake-up check is answered.
            runner.personActed(now, by: .api, &context)
            return .display(dimmed: display.dimmed)
        case .output(let name, let on):
            guard context.caps.outputs.contains(name) else {
                throw ClockError(.notFound, "This clock has no \(name): set [outputs.\(name)] line in the config.")
            }
            runner.switchByHand(name, on: on, now, &context)
            return .done("The \(name) is \(on ? "on" : "off").")
        }
    }

    /// What a Stop or Snooze does when nothing rings and no ring test sounds.
    enum WhenIdle {
        /// Refused (a client's command: the person is told).
        case refuse
        /// The radio stops (the Stop button: it also ends the sleep timer).
        case stopRadio
        /// Nothing (the Snooze button).
        case nothing
    }

    /// Stop or Snooze, whatever asked — a button, the kiosk, the CLI, the API, the second waker: the ringing
    /// alarm (or `alarm`) is dismissed or snoozed; with nothing ringing a ring test ends, else `idle` says.
    /// `pressedAt`: when a button press began (R15).
    mutating func dismiss(
        _ intent: DismissIntent, alarm: Int64?, by: DismissInput, pressedAt: MonotonicInstant?, idle: WhenIdle
    ) throws(ClockError) -> ClockReply {
        if alarm == nil, !runner.isRinging, stopRingTest() { return .done("The ring test is stopped.") }
        // With nothing ringing, a Stop or Snooze that answers a wake-up check's question says so.
        let answers = alarm == nil && !runner.isRinging && runner.asking
        let answered = ClockReply.done("You are up: the wake-up check is answered.")
        switch intent {
        case .stop:
            // With nothing ringing, a Stop still ends a ladder's rest or answers a wake-up check's question.
            let ends = alarm == nil && runner.scheduler.stopEndsSomething
            if idle != .refuse, !runner.isRinging {  // a button, with nothing ringing: the radio, if it says so
                if idle == .stopRadio { radio.cancel(reason: "stop button", now, &context) }
                if !ends { return .done("Stopped.") }
            }
            let stopped = runner.stop(by: by, alarmID: alarm, pressedAt: pressedAt, now, &context)
            guard stopped || ends || idle != .refuse else {
                throw ClockError(.refused, alarm.map { "Alarm \($0) is neither ringing nor snoozed." } ?? "No alarm is ringing.")
            }
            return answers && !stopped && !runner.asking ? answered : .done("Stopped.")
        case .snooze:
            let snoozed = runner.snooze(by: by, alarmID: alarm, pressedAt: pressedAt, now, &context)
            if !snoozed, answers, !runner.asking { return answered }
            guard snoozed || idle != .refuse else {
                throw ClockError(.refused, "No alarm can be snoozed now.")
            }
            return .done("Snoozed.")
        }
    }

    enum DismissIntent { case stop, snooze }

    /// A ring test plays an alarm's sound, supervised, at alarm priority — refused while a real alarm rings,
    /// and replaced by one that comes due (the engine's rule for alarms).
    private mutating func ringTest(_ test: RingTest, _ now: SchedulerTime) throws(ClockError) -> ClockReply {
        guard (test.alarm == nil) != (test.source == nil) else {
            throw ClockError(.invalid, "Give an alarm id or --source, not both and not neither.")
        }
        guard RingTest.secondsRange.contains(test.seconds) else {
            throw ClockError(.invalid, "Ring length must be between 1s and 1h.")
        }
        guard !runner.isRinging else {
            throw ClockError(.refused, "An alarm is ringing; stop or snooze it first.")
        }
        var alarm: Alarm?, source: SoundSource?
        if let id = test.alarm {
            guard let found = runner.scheduler.alarms[id] else { throw ClockError(.notFound, "Alarm \(id) does not exist.") }
            alarm = found
        } else {
            do { (source, _) = try context.catalogue.source(test.source, purpose: "ring") } catch {
                throw ClockError(error)
            }
        }
        let (catalogue, world) = (context.catalogue, context.world)
        let plan = try test.plan(
            alarm: alarm, source: source, settings: catalogue.settings, station: { catalogue.stations[$0] },
            podcast: catalogue.podcast(named:), network: { world.network }, allowLoopback: context.options.allowLoopback)
        radio.cancel(reason: "stopped by a ring test", now, &context)  // the test sounds as an alarm would
        let id = context.effects.play(plan.request)
        ringTest = RingTestSound(id: id, alarm: test.alarm, source: plan.description, startedAt: now.wall.rounded)
        return .sound(
            id, label: plan.description, message: "Ringing \(plan.description) for \(DurationText.format(test.seconds)).")
    }

    private func known(_ alarm: Int64?) throws(ClockError) {
        if let alarm, runner.scheduler.alarms[alarm] == nil { throw ClockError(.notFound, "Alarm \(alarm) does not exist.") }
    }

    private func refusal(_ error: ValidationError) -> ClockError {
        runner.isRinging ? ClockError(.refused, error.message) : ClockError(error)
    }

    /// The live status.
    func status(_ now: SchedulerTime) -> DaemonStatus {
        let scheduler = runner.scheduler
        let names = Dictionary(scheduler.alarms.map { ($0.key, $0.value.name) }, uniquingKeysWith: { a, _ in a })
        let next = runner.next.map { DaemonStatus.NextAlarm(id: $0.id, name: names[$0.id] ?? "", at: $0.instant) }
        let ringing = runner.ringing.map { r in
            DaemonStatus.Ringing(
                id: r.alarmID, name: names[r.alarmID] ?? "", source: r.source,
                sinceSeconds: (now.mono - r.startedAt).inSeconds,
                audibleAfterSeconds: r.audibleAfter?.inSeconds,
                onsetMilliseconds: r.onsetLate.map { Double($0 / .microseconds(1)) / 1000 }, notAudible: r.silentBecause,
                fallbacks: r.fallbacks)
        }
        let snoozed = scheduler.states.values.filter { $0.phase == .snoozed }.compactMap { state in
            state.snoozedUntil.map { DaemonStatus.Snoozed(id: state.alarmID, until: $0) }
        }.sorted { $0.id < $1.id }
        let since = now.wall.addingTimeInterval(-86_400)
        // The morning report's events, waited for at most `StoreWorker.bound`: a stuck store leaves the report out,
        // never the status (which is how a person finds out what rings).
        let events = context.world.recentEvents ?? []
        let zones = Dictionary(
            scheduler.alarms.compactMap { id, alarm in
                alarm.timeZoneID.flatMap { TimeZone(identifier: $0) }.map { (id, $0) }
            }, uniquingKeysWith: { a, _ in a })
        let report = MorningReport.build(
            events: events, alarmNames: names, since: since, zone: scheduler.defaultZone,
            alarmZones: zones
        ).lines
        let device = context.world.device
        return DaemonStatus(
            now: now.wall, zone: scheduler.defaultZone.identifier, next: next, ringing: ringing,
            snoozed: snoozed, radio: radio.status(now),
            sound: DaemonStatus.Sound(
                device: device.name ?? context.options.primaryDevice, open: device.isOpen,
                problem: device.problem),
            warnings: context.board.list.filter { !$0.hasPrefix("The sound device fails") },
            clockSynchronised: context.world.synchronised, report: report,
            waker: context.caps.waker ? DaemonStatus.Waker(context.world.waker) : nil,
            face: DaemonStatus.Face(
                state: display.face.rawValue, backlightPercent: display.backlightPercent,
                sunriseAlarm: display.sunrise?.alarmID, sunriseAt: display.sunrise?.alarmAt,
                sunriseProgress: display.sunrise.map { $0.permille / 10 }))
    }
}

extension ClockState {
    /// How long a sleep timer runs to the end of programme `id` (or of the one on air), and what it plays: the
    /// given source, else the programme's station. Refused when the programme is unknown or not on air, or when it
    /// ends in less than a minute or more than 12 hours (the sleep timer's range).
    func sleepUntilEnd(of id: Int64?, source: String?, _ now: SchedulerTime) throws(ClockError)
        -> (seconds: Int, source: String?, sentence: String)
    {
        let zone = runner.scheduler.defaultZone
        let airing: ProgrammeGuide.Airing
        if let id {
            guard let p = context.catalogue.programmes.first(where: { $0.id == id }) else {
                throw ClockError(StoreError.notFound(what: "programme", id: id))
            }
            guard let a = ProgrammeGuide(programmes: [p], zone: zone).current(of: p, at: now.wall), a.begin <= now.wall else {
                let next = ProgrammeGuide(programmes: [p], zone: zone).next(after: now.wall)
                let when = next.map { " It begins \(DaemonStatus.clock($0.begin, p.zone(clockZone: zone), date: true))." } ?? ""
                throw ClockError(.refused, "Programme \(id) (\(p.name)) is not on air now.\(when)")
            }
            airing = a
        } else {
            var programmes = context.catalogue.programmes
            if let source,
                let station = context.catalogue.stations.values.first(where: { $0.name.lowercased() == source.lowercased() })
            {
                programmes = programmes.filter { $0.stationID == station.id }
            }
            guard let a = ProgrammeGuide(programmes: programmes, zone: zone).onAir(at: now.wall) else {
                throw ClockError(
                    .refused, "No programme is on air now\(source.map { " on \($0)" } ?? ""); give a programme's id.")
            }
            airing = a
        }
        let seconds = Int(airing.end.timeIntervalSince(now.wall).rounded(.down))
        let name = airing.programme.name
        guard seconds >= 60 else { throw ClockError(.refused, "\(name) ends in less than a minute.") }
        guard seconds <= 12 * 3600 else {
            throw ClockError(
                .refused, "\(name) ends in more than 12 hours, longer than a sleep timer runs; give a duration instead.")
        }
        let station = airing.programme.stationID.flatMap { context.catalogue.stations[$0]?.name }
        let end = DaemonStatus.clock(airing.end, airing.programme.zone(clockZone: zone), date: false)
        return (seconds, source ?? station, "Until \(name) ends at \(end) (\(DurationText.format(seconds / 60 * 60))).")
    }
}
