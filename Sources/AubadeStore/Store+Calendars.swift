public import AubadeCore
public import Foundation
import GRDB

extension Store {
    /// Replaces what the calendar source `calendar.location` imported before, in one IMMEDIATE transaction —
    /// all or nothing (R26):
    /// - programmes: a programme whose `importKey` is found again keeps its id, its reservation and its reminder
    ///   and takes the new times, dates and texts; new keys are inserted; keys no longer there are deleted;
    /// - alarms tied to a programme found again follow it (time, days, zone; a change of them cancels a pending
    ///   snooze, R10); those whose programme is gone keep their last time, are marked gone, and the history says so;
    /// - days off: the source's rows are replaced.
    /// The source's row (`calendarSources`) records the content's hash, the time and how far open-ended
    /// recurrences were expanded; `importedAt` is the clock's time of the import (default: the store's). A
    /// calendar whose hash and expansion equal the stored ones writes nothing (R29).
    /// After the commit the staged copy becomes the source's cached copy, and the backup copy is rewritten.
    /// Errors: `.invalid` (an unknown station, a bad row, two programmes with one key); nothing is changed then,
    /// and the staged copy is discarded (the cached copy stays the last good one).
    public func importCalendar(_ calendar: CalendarImport, at importedAt: Date? = nil) throws(StoreError) -> ImportSummary {
        do throws(StoreError) {
            return try replace(with: calendar, at: importedAt)
        } catch {
            if let staged = calendar.staged { calendarCache.discard(staged) }
            throw error
        }
    }

    private func replace(with calendar: CalendarImport, at importedAt: Date?) throws(StoreError) -> ImportSummary {
        let stamp = now()
        let result: (summary: ImportSummary, sourceID: Int64) = try write { db in
            let source = try CalendarSourceRow.filter(
                sql: "kind = ? AND location = ?",
                arguments: [calendar.kind.rawValue, calendar.location]
            ).fetchOne(db)
            let stationID = try calendar.station.map { name -> Int64 in
                guard let id = try Store.station(named: name, db)?.id else {
                    throw ValidationError("No station is named '\(name)'; see 'aubade station list'.")
                }
                return id
            }
            if let known = source, let id = known.sourceId, known.contentHash == calendar.contentHash,
                known.expandedThrough == calendar.expandedThrough?.description, known.stationId == stationID
            {
                let count = try Store.count(of: calendar.kind, from: calendar.location, db)
                return (
                    ImportSummary(
                        kind: calendar.kind, location: calendar.location, sourceID: id, count: count, added: 0,
                        updated: 0, removed: 0, reservationsKept: 0, alarmsMoved: [], alarmsOrphaned: [],
                        unchanged: true), id
                )
            }
            var summary: ImportSummary
            switch calendar.kind {
            case .programmes:
                summary = try Store.replaceProgrammes(calendar, stationID: stationID, at: stamp, db)
            case .daysOff:
                summary = try Store.replaceDaysOff(calendar, at: stamp, db)
            }
            var row =
                source
                ?? CalendarSourceRow(
                    sourceId: nil, kind: calendar.kind.rawValue, location: calendar.location,
                    stationId: nil, format: calendar.format, contentHash: "", importedAt: stamp)
            row.stationId = stationID
            row.format = calendar.format
            row.contentHash = calendar.contentHash
            row.importedAt = importedAt ?? stamp
            row.expandedThrough = calendar.expandedThrough?.description
            try row.save(db)
            summary.sourceID = row.sourceId ?? 0
            return (summary, row.sourceId ?? 0)
        }
        if let staged = calendar.staged {
            if result.summary.unchanged {
                calendarCache.discard(staged)
            } else {
                try calendarCache.keep(staged, sourceID: result.sourceID, format: calendar.format)
            }
        }
        if !result.summary.unchanged { try snapshot.write(from: self) }
        return result.summary
    }

    /// How many rows `location` holds of `kind`.
    private static func count(of kind: CalendarImport.Kind, from location: String, _ db: Database) throws -> Int {
        let table = kind == .programmes ? "programs" : "daysOff"
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE importSource = ?", arguments: [location]) ?? 0
    }

    private static func replaceProgrammes(
        _ calendar: CalendarImport, stationID: Int64?, at stamp: Date,
        _ db: Database
    ) throws -> ImportSummary {
        let old = try ProgramRow.filter(sql: "importSource = ?", arguments: [calendar.location]).fetchAll(db)
        var byKey: [String: ProgramRow] = [:]
        for row in old { if let key = row.importKey { byKey[key] = row } }
        var seen: Set<String> = []
        var added = 0, updated = 0, kept = 0
        var found: [Int64: Programme] = [:]
        for var programme in calendar.programmes {
            guard let key = programme.importKey else {
                throw ValidationError("Programme '\(programme.name)' has no import key.")
            }
            guard seen.insert(key).inserted else {
                throw ValidationError("Two programmes of the calendar share the key '\(key)'; each needs its own UID.")
            }
            programme.stationID = stationID
            programme.importSource = calendar.location
            programme.reserved = false
            programme.remindSeconds = nil
            if let existing = byKey[key] {
                programme.id = existing.progId
                programme.reserved = existing.isOrdered && stationID != nil
                programme.remindSeconds = programme.reserved ? existing.remindSeconds : nil
                if programme.reserved { kept += 1 }
                updated += 1
            } else {
                programme.id = nil
                added += 1
            }
            try programme.validate()
            var row = ProgramRow(programme)
            if row.progId == nil { try row.insert(db) } else { try row.update(db) }
            programme.id = row.progId
            if let id = row.progId { found[id] = programme }
        }
        var gone: [Int64: Programme] = [:]
        for row in old where !(row.importKey.map(seen.contains) ?? false) {
            guard let id = row.progId else { continue }
            _ = try ProgramRow.deleteOne(db, key: id)
            gone[id] = try row.programme()
        }
        let moved = try follow(found, at: stamp, db)
        let orphaned = try orphanAlarms(of: gone, because: "it is no longer in \(calendar.location)", at: stamp, db)
        return ImportSummary(
            kind: .programmes, location: calendar.location, sourceID: 0, count: calendar.programmes.count,
            added: added, updated: updated, removed: gone.count, reservationsKept: kept,
            alarmsMoved: moved, alarmsOrphaned: orphaned, unchanged: false)
    }

    private static func replaceDaysOff(_ calendar: CalendarImport, at stamp: Date, _ db: Database) throws -> ImportSummary {
        let old = try DayOffRow.filter(sql: "importSource = ?", arguments: [calendar.location]).fetchAll(db)
        let oldKeys = Set(old.compactMap(\.importKey))
        try db.execute(sql: "DELETE FROM daysOff WHERE importSource = ?", arguments: [calendar.location])
        var added = 0
        for var day in calendar.daysOff {
            day.id = nil
            day.importSource = calendar.location
            try day.validate()
            if !(day.importKey.map(oldKeys.contains) ?? false) { added += 1 }
            var row = DayOffRow(day, createdAt: stamp)
            try row.insert(db)
        }
        let newKeys = Set(calendar.daysOff.compactMap(\.importKey))
        return ImportSummary(
            kind: .daysOff, location: calendar.location, sourceID: 0, count: calendar.daysOff.count,
            added: added, updated: calendar.daysOff.count - added,
            removed: oldKeys.subtracting(newKeys).count, reservationsKept: 0, alarmsMoved: [],
            alarmsOrphaned: [], unchanged: false)
    }

    /// Alarms tied to the programmes `found` (by id) take their programme's time, days and zone (and its name);
    /// returns the ids of those whose time, days or zone changed. A change of them cancels a pending ring or
    /// snooze, as a user's edit of the time does (R10).
    static func follow(_ found: [Int64: Programme], at stamp: Date, _ db: Database) throws -> [Int64] {
        guard !found.isEmpty else { return [] }
        var moved: [Int64] = []
        for old in try ClockRow.filter(sql: "programId IS NOT NULL").order(sql: "clockId").fetchAll(db) {
            guard let pid = old.programId, let programme = found[pid], let id = old.clockId else { continue }
            var alarm = try old.alarm()
            let rule = ProgrammeTie.rule(of: programme)
            alarm.time = rule.time
            alarm.recurrence = rule.recurrence
            alarm.timeZoneID = rule.zone
            alarm.programme = ProgrammeTie(id: pid, name: programme.name, gone: false)
            try alarm.validate()
            let row = ClockRow(alarm, createdAt: old.createdAt, updatedAt: stamp)
            guard row != old else { continue }
            try row.update(db)
            let change = ScheduleChange.between(old, row)
            if change.cancelsPendingState || old.airDates != row.airDates {
                moved.append(id)
            }
            if change.cancelsPendingState { try cancelPendingState(of: id, at: stamp, db) }
        }
        return moved
    }

    /// Alarms tied to a programme of `gone` (by id) keep their last time and are marked gone; the history says
    /// so, once per alarm. Returns their ids.
    static func orphanAlarms(
        of gone: [Int64: Programme], because why: String, at stamp: Date,
        _ db: Database
    ) throws -> [Int64] {
        guard !gone.isEmpty else { return [] }
        var orphaned: [Int64] = []
        for old in try ClockRow.filter(sql: "programId IS NOT NULL AND programGone = 0").order(sql: "clockId").fetchAll(db) {
            guard let pid = old.programId, let programme = gone[pid], let id = old.clockId else { continue }
            var row = old
            row.programGone = true
            row.updatedAt = stamp
            try row.update(db)
            let alarm = try row.alarm()
            var event = EventRow(
                eventId: nil, at: stamp, clockId: id, kind: HistoryKind.warning.rawValue,
                detail:
                    "The programme \(programme.name) (\(pid)) is gone (\(why)); alarm \(alarm.name) rings at its last known time, \(alarm.time) \(alarm.recurrence.summary)."
            )
            try event.insert(db)
            orphaned.append(id)
        }
        return orphaned
    }

    private static func cancelPendingState(of id: Int64, at stamp: Date, _ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE alarmState SET phase = 'idle', occurrence = NULL, ringingSince = NULL, snoozedUntil = NULL,
                    snoozeCount = 0, restCount = 0, updatedAt = ? WHERE clockId = ? AND phase != 'idle'
                """, arguments: [stamp, id])
    }

    // MARK: Days off

    /// Every day off, by first date then id.
    public func daysOff() throws(StoreError) -> [DayOff] {
        let rows = try read { db in try DayOffRow.order(sql: "firstDate, dayOffId").fetchAll(db) }
        var out: [DayOff] = []
        for row in rows { out.append(try row.dayOff()) }
        return out
    }

    /// Validates and inserts a typed day off; returns it with its id. Rewrites the backup copy (R27).
    @discardableResult
    public func insert(_ day: DayOff) throws(StoreError) -> DayOff {
        var day = day
        do throws(ValidationError) { try day.validate() } catch { throw StoreError(error) }
        var row = DayOffRow(day, createdAt: now())
        row.dayOffId = nil
        try write { db in try row.insert(db) }
        day.id = row.dayOffId
        try snapshot.write(from: self)
        return day
    }

    /// Deletes a day off and returns it as it was (an imported one comes back with its calendar's next import).
    @discardableResult
    public func deleteDayOff(id: Int64) throws(StoreError) -> DayOff {
        let deleted: DayOff = try write { db in
            guard let row = try DayOffRow.fetchOne(db, key: id) else { throw StoreError.notFound(what: "day off", id: id) }
            _ = try DayOffRow.deleteOne(db, key: id)
            return try row.dayOff()
        }
        try snapshot.write(from: self)
        return deleted
    }

    // MARK: Sources

    /// Every calendar source, by id.
    public func calendarSources() throws(StoreError) -> [CalendarSource] {
        let rows = try read { db in try CalendarSourceRow.order(sql: "sourceId").fetchAll(db) }
        var out: [CalendarSource] = []
        for row in rows { out.append(try row.source()) }
        return out
    }

    /// The folder of cached calendar copies beside the database.
    public var calendarCache: CalendarCache { CalendarCache(databasePath: path) }
}
