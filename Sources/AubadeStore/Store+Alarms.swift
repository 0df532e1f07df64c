import AubadeCore
import Foundation
import GRDB

extension Store {
    /// All alarms, by time of day then id.
    public func alarms() throws(StoreError) -> [Alarm] {
        let rows = try read { db in try ClockRow.order(sql: "startTime, clockId").fetchAll(db) }
        var result: [Alarm] = []
        for row in rows { result.append(try row.alarm()) }
        return result
    }

    public func alarm(id: Int64) throws(StoreError) -> Alarm {
        guard let row = try read({ db in try ClockRow.fetchOne(db, key: id) }) else {
            throw .notFound(what: "alarm", id: id)
        }
        return try row.alarm()
    }

    /// Validates and inserts `alarm`; returns it with its new id.
    @discardableResult
    public func insert(_ alarm: Alarm) throws(StoreError) -> Alarm {
        var alarm = alarm
        try validate(&alarm)
        let stamp = now()
        var row = ClockRow(alarm, createdAt: stamp, updatedAt: stamp)
        row.clockId = nil
        try write { db in
            try checkStationExists(alarm.sound, db)
            try row.insert(db)
        }
        alarm.id = row.clockId
        try snapshot.write(from: self)
        return alarm
    }

    /// Validates and replaces the alarm with `alarm.id`. A change of time, days, date, zone or enabled flag
    /// drops a pending snooze and ringing state (R10) but keeps the last handled occurrence, so nothing already
    /// rung rings again (R5); a change of label, sound or volume keeps it all.
    public func update(_ alarm: Alarm) throws(StoreError) {
        var alarm = alarm
        guard let id = alarm.id else { throw .conflict("An alarm must have an id to be updated.") }
        try validate(&alarm)
        try write { db in
            guard let old = try ClockRow.fetchOne(db, key: id) else { throw StoreError.notFound(what: "alarm", id: id) }
            try checkStationExists(alarm.sound, db)
            var row = ClockRow(alarm, createdAt: old.createdAt, updatedAt: now())
            row.clockId = id
            try row.update(db)
            if ScheduleChange.between(old, row).cancelsPendingState {
                try db.execute(sql: """
                    UPDATE alarmState SET phase = 'idle', occurrence = NULL, ringingSince = NULL, snoozedUntil = NULL,
                        snoozeCount = 0, updatedAt = ? WHERE clockId = ? AND phase != 'idle'
                    """, arguments: [now(), id])
            }
        }
        try snapshot.write(from: self)
    }

    /// When each alarm was last changed (`clocks.updatedAt`), for the scheduler's catch-up rule (R11).
    public func alarmUpdateTimes() throws(StoreError) -> [Int64: Date] {
        let rows = try read { db in try ClockRow.fetchAll(db) }
        return Dictionary(uniqueKeysWithValues: rows.compactMap { r in r.clockId.map { ($0, r.updatedAt) } })
    }

    /// Deletes the alarm (and its run-time state). Throws `notFound` for an unknown id.
    public func deleteAlarm(id: Int64) throws(StoreError) {
        try write { db in
            guard try ClockRow.deleteOne(db, key: id) else { throw StoreError.notFound(what: "alarm", id: id) }
        }
        try snapshot.write(from: self)
    }

    private func validate(_ alarm: inout Alarm) throws(StoreError) {
        do throws(ValidationError) {
            try alarm.validate()
        } catch {
            throw .invalid(error.message)
        }
    }

    private func checkStationExists(_ sound: SoundSource, _ db: Database) throws {
        if case .station(let sid) = sound, try StationRow.fetchOne(db, key: sid) == nil {
            throw StoreError.conflict("The alarm's station \(sid) no longer exists; pick another sound.")
        }
    }
}

/// Which parts of an alarm an edit touched, for R10.
struct ScheduleChange {
    var cancelsPendingState: Bool

    static func between(_ old: ClockRow, _ new: ClockRow) -> ScheduleChange {
        let timing = old.startTime != new.startTime || old.repeated != new.repeated || old.onceDate != new.onceDate
            || old.timeZone != new.timeZone || old.isOpened != new.isOpened
        return ScheduleChange(cancelsPendingState: timing)
    }
}
