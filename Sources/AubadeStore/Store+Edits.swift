public import AubadeCore
public import Foundation
import GRDB

extension Store {
    /// Carries out one user edit — the one function every client's edits go through (the CLI without a
    /// daemon, the running clock for the control socket and the HTTP API), so bad input is refused with the
    /// same sentence whoever sent it. Each edit is one IMMEDIATE transaction that reads what it changes under
    /// the write lock (R26) — the atomic calls `insertAlarm`, `updateAlarm`, `deleteAlarm`, `insert`,
    /// `deleteStation`, `setReserved`, `deleteProgramme`, `updateSettings` — and returns only after its COMMIT
    /// (and the backup copy's rewrite, R27). `zone` is the clock's zone and `now` the current time: they
    /// decide a one-shot alarm's default date and which occurrence `skip-next` skips.
    ///
    /// Errors: `.invalid` (a bad value, with its sentence), `.notFound` (an unknown id), `.conflict` (a name
    /// taken, a station still in use), or the file's fault; nothing is changed then.
    public func apply(_ edit: ClockEdit, zone: TimeZone, now: Date) throws(StoreError) -> EditOutcome {
        switch edit {
        case .addAlarm(let patch):
            do throws(ValidationError) { try patch.checkCanCreate() } catch { throw StoreError(error) }
            return .alarm(try insertAlarm(zone: zone, now: now, patch))
        case .editAlarm(let id, let patch):
            return .alarm(try updateAlarm(id: id, zone: zone, now: now, patch))
        case .removeAlarm(let id):
            return .alarmRemoved(try deleteAlarm(id: id))
        case .skipNext(let id, let undo):
            return .alarm(try skipNext(id: id, undo: undo, zone: zone, now: now))
        case .addPodcast(let podcast):
            return .podcast(try insert(podcast))
        case .refreshPodcast(let name, let feed, let when):
            return .podcast(try refreshPodcast(named: name, with: feed, at: when))
        case .removePodcast(let nameOrID):
            return .podcastRemoved(try deletePodcast(nameOrID))
        case .podcastPosition(let name, let resume):
            return .podcast(try setPosition(ofPodcast: name, resume))
        case .addStation(let fields):
            let station: Station
            do throws(ValidationError) { station = try fields.station() } catch { throw StoreError(error) }
            return .station(try insert(station))
        case .moveStation(let id, let url):
            return .station(try moveStation(id: id, to: url))
        case .removeStation(let nameOrID):
            if let id = Int64(nameOrID) { return .stationRemoved(try deleteStation(id: id)) }
            guard let removed = try deleteStation(named: nameOrID) else {
                throw .invalid("No station is named '\(nameOrID)'; see 'aubade station list'.")
            }
            return .stationRemoved(removed)
        case .addProgramme(let fields):
            return .programme(try insertProgramme(fields))
        case .reserveProgramme(let id, let reserved, let remind):
            return .programme(try setReserved(reserved, programmeID: id, remindSeconds: remind))
        case .removeProgramme(let id):
            return .programmeRemoved(try deleteProgramme(id: id))
        case .setSettings(let changes):
            guard !changes.isEmpty else { throw .invalid("Name at least one setting to change.") }
            let settings = try updateSettings { settings throws(ValidationError) in try settings.apply(changes) }
            return .settings(settings)
        case .importCalendar(let calendar):
            return .imported(try importCalendar(calendar, at: now))
        case .addDayOff(let fields):
            let day: DayOff
            do throws(ValidationError) { day = try fields.dayOff() } catch { throw StoreError(error) }
            return .dayOff(try insert(day))
        case .removeDayOff(let id):
            return .dayOffRemoved(try deleteDayOff(id: id))
        }
    }

    /// `skip-next`: decided from the alarm and its last handled occurrence as stored under the write lock
    /// (R26), so an occurrence that rings or is snoozed now is not the one skipped.
    private func skipNext(id: Int64, undo: Bool, zone clockZone: TimeZone, now: Date) throws(StoreError) -> Alarm {
        try updateAlarm(id: id) { alarm, state throws(ValidationError) in
            guard !undo else {
                alarm.skipDate = nil
                return
            }
            guard alarm.enabled else {
                throw ValidationError("Alarm \(id) is disabled; there is no next occurrence to skip.", kind: .unprocessable)
            }
            let zone = try alarm.timeZoneID.map { z throws(ValidationError) in try Alarm.validTimeZone(z) } ?? clockZone
            guard
                let date = AlarmSchedule.skipNextDate(
                    of: alarm, after: now, lastHandled: state?.lastHandledOccurrence,
                    defaultZone: zone)
            else {
                throw ValidationError("Alarm \(id) has no next occurrence to skip.", kind: .unprocessable)
            }
            alarm.skipDate = date
        }
    }

    /// A programme from `fields`, its station looked up by name in the same IMMEDIATE transaction as the insert.
    private func insertProgramme(_ fields: ProgrammeFields) throws(StoreError) -> Programme {
        let saved: Programme = try write { db in
            let programme = try fields.programme { name in try Store.station(named: name, db) }
            var row = ProgramRow(programme)
            row.progId = nil
            try row.insert(db)
            return try row.programme()
        }
        return saved
    }
}
