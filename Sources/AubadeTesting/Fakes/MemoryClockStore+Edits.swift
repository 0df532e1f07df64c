import AubadeCore
import Foundation

/// `MemoryClockStore.apply`: each `ClockEdit` as the SQLite store carries it out (its refusals in its sentences),
/// on a copy of the state that is kept only when the edit succeeds. `stamp` is the store's own time.
extension MemoryClockStore.State {
    mutating func apply(_ edit: ClockEdit, zone: TimeZone, now: Date, stamp: Date) throws(StoreError) -> EditOutcome {
        do {
            return try carryOut(edit, zone: zone, now: now, stamp: stamp)
        } catch let error as StoreError {
            throw error
        } catch let error as ValidationError {
            throw StoreError(error)
        } catch {
            throw .invalid(String(describing: error))
        }
    }

    private mutating func carryOut(_ edit: ClockEdit, zone: TimeZone, now: Date, stamp: Date) throws -> EditOutcome {
        switch edit {
        case .addAlarm(let patch):
            try patch.checkCanCreate()
            var alarm = try patch.newAlarm(
                settings: data.settings, zone: zone, now: now, stationNamed: station(named:),
                podcastNamed: podcast(named:), programmeWithID: programme(id:))
            try checkStationExists(alarm.sound)
            alarm.id = nextID("alarms", after: data.alarms.map(\.id))
            data.alarms.append(alarm)
            alarmChanged(alarm, at: stamp)
            return .alarm(alarm)
        case .editAlarm(let id, let patch):
            let (stations, programmes) = (data.stations, data.programmes)
            let stationNamed = { (name: String) in stations.first { $0.name.lowercased() == name.lowercased() } }
            let podcasts = self.podcasts
            let podcastNamed = { (name: String) in podcasts.first { $0.name.lowercased() == name.lowercased() } }
            let programmeWithID = { (id: Int64) in programmes.first { $0.id == id } }
            return .alarm(
                try modifyAlarm(id, at: stamp) { alarm, _ in
                    try patch.apply(
                        to: &alarm, zone: zone, now: now, stationNamed: stationNamed, podcastNamed: podcastNamed,
                        programmeWithID: programmeWithID)
                })
        case .removeAlarm(let id):
            guard let index = data.alarms.firstIndex(where: { $0.id == id }) else {
                throw StoreError.notFound(what: "alarm", id: id)
            }
            data.states.removeAll { $0.alarmID == id }
            data.alarmUpdateTimes[id] = nil
            return .alarmRemoved(data.alarms.remove(at: index))
        case .skipNext(let id, let undo):
            return .alarm(
                try modifyAlarm(id, at: stamp) { alarm, state in
                    guard !undo else {
                        alarm.skipDate = nil
                        return
                    }
                    guard alarm.enabled else {
                        throw ValidationError(
                            "Alarm \(id) is disabled; there is no next occurrence to skip.", kind: .unprocessable)
                    }
                    let alarmZone = try alarm.timeZoneID.map { z throws(ValidationError) in try Alarm.validTimeZone(z) } ?? zone
                    guard
                        let date = AlarmSchedule.skipNextDate(
                            of: alarm, after: now, lastHandled: state?.lastHandledOccurrence,
                            defaultZone: alarmZone)
                    else {
                        throw ValidationError("Alarm \(id) has no next occurrence to skip.", kind: .unprocessable)
                    }
                    alarm.skipDate = date
                })
        case .addPodcast(var podcast):
            guard !podcasts.contains(where: { $0.name.lowercased() == podcast.name.lowercased() }) else {
                throw StoreError.conflict("A podcast named '\(podcast.name)' already exists; pick another name.")
            }
            podcast.id = nextID("podcasts", after: podcasts.map(\.id))
            podcasts.append(podcast)
            return .podcast(podcast)
        case .refreshPodcast(let name, let feed, let when):
            guard let i = podcasts.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw StoreError.invalid("No podcast is named '\(name)'; see 'aubade podcast list'.")
            }
            podcasts[i] = podcasts[i].refreshed(with: feed, at: when)
            return .podcast(podcasts[i])
        case .removePodcast(let nameOrID):
            guard
                let i = podcasts.firstIndex(where: {
                    $0.name.lowercased() == nameOrID.lowercased() || $0.id.map(String.init) == nameOrID
                })
            else { throw StoreError.invalid("No podcast is named '\(nameOrID)'; see 'aubade podcast list'.") }
            let name = podcasts[i].name.lowercased()
            let users = data.alarms.filter { alarm in
                if case .podcast(let choice) = alarm.sound { return choice.name.lowercased() == name }
                return false
            }
            if !users.isEmpty {
                let names = users.map { "'\($0.name)'" }.joined(separator: ", ")
                throw StoreError.conflict("Podcast \(podcasts[i].name) is the sound of alarm \(names); change the alarm first.")
            }
            return .podcastRemoved(podcasts.remove(at: i))
        case .podcastPosition(let name, let resume):
            guard let i = podcasts.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw StoreError.invalid("No podcast is named '\(name)'; see 'aubade podcast list'.")
            }
            podcasts[i].resume = resume
            return .podcast(podcasts[i])
        case .addStation(let fields):
            var station = try fields.station()
            guard try self.station(named: station.name) == nil else {
                throw StoreError.conflict("A station named '\(station.name)' already exists; pick another name.")
            }
            if let id = station.directory?.id, let twin = data.stations.first(where: { $0.directory?.id == id }) {
                throw StoreError.conflict("This station of the directory is already saved, as '\(twin.name)'.")
            }
            station.id = nextID("stations", after: data.stations.map(\.id))
            data.stations.append(station)
            data.stations.sort { $0.name.lowercased() < $1.name.lowercased() }
            return .station(station)
        case .moveStation(let id, let url):
            guard let i = data.stations.firstIndex(where: { $0.id == id }) else {
                throw StoreError.notFound(what: "station", id: id)
            }
            data.stations[i].url = url
            return .station(data.stations[i])
        case .removeStation(let nameOrID):
            if let id = Int64(nameOrID) {
                guard let station = data.stations.first(where: { $0.id == id }) else {
                    throw StoreError.notFound(what: "station", id: id)
                }
                return .stationRemoved(try removeStation(station))
            }
            guard let station = try station(named: nameOrID) else {
                throw StoreError.invalid("No station is named '\(nameOrID)'; see 'aubade station list'.")
            }
            return .stationRemoved(try removeStation(station))
        case .addProgramme(let fields):
            var programme = try fields.programme(stationNamed: station(named:))
            try programme.validate()
            programme.id = nextID("programmes", after: data.programmes.map(\.id))
            data.programmes.append(programme)
            return .programme(programme)
        case .reserveProgramme(let id, let reserved, let remind):
            return .programme(try reserve(reserved, programmeID: id, remindSeconds: remind))
        case .removeProgramme(let id):
            guard let index = data.programmes.firstIndex(where: { $0.id == id }) else {
                throw StoreError.notFound(what: "programme", id: id)
            }
            let programme = data.programmes.remove(at: index)
            _ = orphanAlarms(of: [id: programme], because: "it was removed", at: stamp)
            return .programmeRemoved(programme)
        case .setSettings(let changes):
            guard !changes.isEmpty else { throw StoreError.invalid("Name at least one setting to change.") }
            try data.settings.apply(changes)
            return .settings(data.settings)
        case .importCalendar(let calendar):
            return .imported(try importCalendar(calendar, at: now, stamp: stamp))
        case .addDayOff(let fields):
            var day = try fields.dayOff()
            try day.validate()
            day.id = nextID("daysOff", after: data.daysOff.map(\.id))
            data.daysOff.append(day)
            return .dayOff(day)
        case .removeDayOff(let id):
            guard let index = data.daysOff.firstIndex(where: { $0.id == id }) else {
                throw StoreError.notFound(what: "day off", id: id)
            }
            return .dayOffRemoved(data.daysOff.remove(at: index))
        }
    }

    // MARK: Alarms

    /// Reads the alarm `id` and its run state, lets `body` change it, checks it and keeps it; a change of its
    /// timing (time, days, dates, zone, enabled) drops a pending ring or snooze but keeps the last handled
    /// occurrence (R10, R11).
    private mutating func modifyAlarm(
        _ id: Int64, at stamp: Date,
        _ body: (inout Alarm, AlarmRunState?) throws -> Void
    ) throws -> Alarm {
        guard let index = data.alarms.firstIndex(where: { $0.id == id }) else { throw StoreError.notFound(what: "alarm", id: id) }
        let old = data.alarms[index]
        var alarm = old
        try body(&alarm, data.states.first { $0.alarmID == id })
        alarm.id = id
        try alarm.validate()
        try checkStationExists(alarm.sound)
        data.alarms[index] = alarm
        if Self.timingChanged(old, alarm) { cancelPendingState(of: id) }
        alarmChanged(alarm, at: stamp)
        return alarm
    }

    /// A change of time, days, one-shot date, zone or enabled flag (not of a programme's list of air dates).
    private static func timingChanged(_ a: Alarm, _ b: Alarm) -> Bool {
        a.time != b.time || a.recurrence.repeatedText != b.recurrence.repeatedText
            || a.recurrence.onceDate != b.recurrence.onceDate || a.timeZoneID != b.timeZoneID || a.enabled != b.enabled
    }

    private mutating func cancelPendingState(of id: Int64) {
        guard let i = data.states.firstIndex(where: { $0.alarmID == id }), data.states[i].phase != .idle else { return }
        data.states[i] = AlarmRunState(alarmID: id, lastHandledOccurrence: data.states[i].lastHandledOccurrence)
    }

    /// Notes the change time (the catch-up rule, R11) and keeps the alarms in the store's order: time, then id.
    private mutating func alarmChanged(_ alarm: Alarm, at stamp: Date) {
        if let id = alarm.id { data.alarmUpdateTimes[id] = stamp }
        data.alarms.sort { ($0.time, $0.id ?? 0) < ($1.time, $1.id ?? 0) }
    }

    private func checkStationExists(_ sound: SoundSource) throws {
        if case .station(let sid) = sound, !data.stations.contains(where: { $0.id == sid }) {
            throw StoreError.conflict("The alarm's station \(sid) no longer exists; pick another sound.")
        }
    }

    // MARK: Stations and programmes

    private func station(named name: String) throws -> Station? {
        data.stations.first { $0.name.lowercased() == name.lowercased() }
    }

    private func podcast(named name: String) throws -> Podcast? {
        data.podcasts.first { $0.name.lowercased() == name.lowercased() }
    }

    private func programme(id: Int64) throws -> Programme? {
        data.programmes.first { $0.id == id }
    }

    /// Refused while an alarm plays it, naming the alarms.
    private mutating func removeStation(_ station: Station) throws -> Station {
        let id = station.id ?? 0
        let users = data.alarms.filter { $0.sound == .station(id: id) }.sorted { ($0.id ?? 0) < ($1.id ?? 0) }.map(\.name)
        guard users.isEmpty else {
            let names = users.map { "'\($0)'" }.joined(separator: ", ")
            throw StoreError.conflict("Station \(id) is the sound of alarm \(names); change the alarm first.")
        }
        data.stations.removeAll { $0.id == id }
        return station
    }

    private mutating func reserve(_ reserved: Bool, programmeID id: Int64, remindSeconds: Int?) throws -> Programme {
        if let remindSeconds, !Programme.remindRange.contains(remindSeconds) {
            throw StoreError.invalid("A reminder lead of \(DurationText.format(remindSeconds)) is out of range; use 0s to 24h.")
        }
        if !reserved, remindSeconds != nil {
            throw StoreError.invalid("A reminder goes with a reservation; use 'program reserve <id> --remind 5m'.")
        }
        guard let index = data.programmes.firstIndex(where: { $0.id == id }) else {
            throw StoreError.notFound(what: "programme", id: id)
        }
        var programme = data.programmes[index]
        if reserved, programme.stationID == nil {
            throw StoreError.invalid("Programme \(id) (\(programme.name)) has no station to tune to, so it cannot be reserved.")
        }
        programme.reserved = reserved
        programme.remindSeconds = reserved ? (remindSeconds ?? programme.remindSeconds) : nil
        data.programmes[index] = programme
        return programme
    }

    // MARK: Calendars

    /// As the SQLite store's import: the source's rows replaced, programmes found again by their key keeping
    /// their id, reservation and reminder, the alarms tied to them following them; an unchanged calendar writes
    /// nothing (R29).
    private mutating func importCalendar(_ calendar: CalendarImport, at importedAt: Date, stamp: Date) throws -> ImportSummary {
        let source = data.calendarSources.first { $0.kind == calendar.kind && $0.location == calendar.location }
        let stationID = try calendar.station.map { name -> Int64 in
            guard let id = try station(named: name)?.id else {
                throw ValidationError("No station is named '\(name)'; see 'aubade station list'.")
            }
            return id
        }
        if let known = source, known.contentHash == calendar.contentHash, known.expandedThrough == calendar.expandedThrough,
            known.stationID == stationID
        {
            let count =
                calendar.kind == .programmes
                ? data.programmes.filter { $0.importSource == calendar.location }.count
                : data.daysOff.filter { $0.importSource == calendar.location }.count
            return ImportSummary(
                kind: calendar.kind, location: calendar.location, sourceID: known.id, count: count,
                added: 0, updated: 0, removed: 0, reservationsKept: 0, alarmsMoved: [],
                alarmsOrphaned: [], unchanged: true)
        }
        var summary =
            calendar.kind == .programmes
            ? try replaceProgrammes(calendar, stationID: stationID, at: stamp)
            : try replaceDaysOff(calendar)
        let id = source?.id ?? nextID("calendarSources", after: data.calendarSources.map(\.id))
        let row = CalendarSource(
            id: id, kind: calendar.kind, location: calendar.location, stationID: stationID,
            format: calendar.format, contentHash: calendar.contentHash, importedAt: importedAt,
            expandedThrough: calendar.expandedThrough)
        if let i = data.calendarSources.firstIndex(where: { $0.id == id }) {
            data.calendarSources[i] = row
        } else {
            data.calendarSources.append(row)
        }
        summary.sourceID = id
        return summary
    }

    private mutating func replaceProgrammes(_ calendar: CalendarImport, stationID: Int64?, at stamp: Date) throws -> ImportSummary
    {
        let old = data.programmes.filter { $0.importSource == calendar.location }
        var byKey: [String: Programme] = [:]
        for programme in old { if let key = programme.importKey { byKey[key] = programme } }
        var seen: Set<String> = []
        var added = 0, updated = 0, kept = 0
        var found: [Int64: Programme] = [:]
        var saved: [Programme] = []
        for var programme in calendar.programmes {
            guard let key = programme.importKey else { throw ValidationError("Programme '\(programme.name)' has no import key.") }
            guard seen.insert(key).inserted else {
                throw ValidationError("Two programmes of the calendar share the key '\(key)'; each needs its own UID.")
            }
            programme.stationID = stationID
            programme.importSource = calendar.location
            programme.reserved = false
            programme.remindSeconds = nil
            if let existing = byKey[key] {
                programme.id = existing.id
                programme.reserved = existing.reserved && stationID != nil
                programme.remindSeconds = programme.reserved ? existing.remindSeconds : nil
                if programme.reserved { kept += 1 }
                updated += 1
            } else {
                programme.id = nextID("programmes", after: data.programmes.map(\.id) + saved.map(\.id))
                added += 1
            }
            try programme.validate()
            saved.append(programme)
            if let id = programme.id { found[id] = programme }
        }
        var gone: [Int64: Programme] = [:]
        for programme in old where !(programme.importKey.map(seen.contains) ?? false) {
            if let id = programme.id { gone[id] = programme }
        }
        data.programmes.removeAll { $0.importSource == calendar.location }
        data.programmes += saved
        let moved = try follow(found, at: stamp)
        let orphaned = orphanAlarms(of: gone, because: "it is no longer in \(calendar.location)", at: stamp)
        return ImportSummary(
            kind: .programmes, location: calendar.location, sourceID: 0, count: calendar.programmes.count,
            added: added, updated: updated, removed: gone.count, reservationsKept: kept,
            alarmsMoved: moved, alarmsOrphaned: orphaned, unchanged: false)
    }

    private mutating func replaceDaysOff(_ calendar: CalendarImport) throws -> ImportSummary {
        let oldKeys = Set(data.daysOff.filter { $0.importSource == calendar.location }.compactMap(\.importKey))
        data.daysOff.removeAll { $0.importSource == calendar.location }
        var added = 0
        for var day in calendar.daysOff {
            day.importSource = calendar.location
            try day.validate()
            if !(day.importKey.map(oldKeys.contains) ?? false) { added += 1 }
            day.id = nextID("daysOff", after: data.daysOff.map(\.id))
            data.daysOff.append(day)
        }
        let newKeys = Set(calendar.daysOff.compactMap(\.importKey))
        return ImportSummary(
            kind: .daysOff, location: calendar.location, sourceID: 0, count: calendar.daysOff.count,
            added: added, updated: calendar.daysOff.count - added,
            removed: oldKeys.subtracting(newKeys).count, reservationsKept: 0, alarmsMoved: [],
            alarmsOrphaned: [], unchanged: false)
    }

    /// Alarms tied to the programmes `found` take their time, days and zone (and name); returns those whose
    /// time, days or zone changed. A change of them cancels a pending ring or snooze (R10).
    private mutating func follow(_ found: [Int64: Programme], at stamp: Date) throws -> [Int64] {
        var moved: [Int64] = []
        for index in data.alarms.indices.sorted(by: { (data.alarms[$0].id ?? 0) < (data.alarms[$1].id ?? 0) }) {
            let old = data.alarms[index]
            guard let tie = old.programme, let programme = found[tie.id], let id = old.id else { continue }
            var alarm = old
            let rule = ProgrammeTie.rule(of: programme)
            alarm.time = rule.time
            alarm.recurrence = rule.recurrence
            alarm.timeZoneID = rule.zone
            alarm.programme = ProgrammeTie(id: tie.id, name: programme.name, gone: false)
            try alarm.validate()
            guard alarm != old else { continue }
            data.alarms[index] = alarm
            data.alarmUpdateTimes[id] = stamp
            let timing = Self.timingChanged(old, alarm)
            if timing || old.recurrence.dateList != alarm.recurrence.dateList { moved.append(id) }
            if timing { cancelPendingState(of: id) }
        }
        data.alarms.sort { ($0.time, $0.id ?? 0) < ($1.time, $1.id ?? 0) }
        return moved
    }

    /// Alarms tied to a programme of `gone` keep their last time and are marked gone; the history says so.
    private mutating func orphanAlarms(of gone: [Int64: Programme], because why: String, at stamp: Date) -> [Int64] {
        var orphaned: [Int64] = []
        for index in data.alarms.indices.sorted(by: { (data.alarms[$0].id ?? 0) < (data.alarms[$1].id ?? 0) }) {
            let alarm = data.alarms[index]
            guard let tie = alarm.programme, !tie.gone, let programme = gone[tie.id], let id = alarm.id else { continue }
            data.alarms[index].programme?.gone = true
            data.alarmUpdateTimes[id] = stamp
            history.append(
                HistoryEvent(
                    id: Int64(history.count + 1), at: stamp, alarmID: id, kind: HistoryKind.warning.rawValue,
                    detail:
                        "The programme \(programme.name) (\(tie.id)) is gone (\(why)); alarm \(alarm.name) rings at its last known time, \(alarm.time) \(alarm.recurrence.summary)."
                ))
            orphaned.append(id)
        }
        return orphaned
    }
}
