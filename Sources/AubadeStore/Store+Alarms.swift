public import AubadeCore
public import Foundation
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

    /// Validates and replaces the alarm with `alarm.id` by the whole of `alarm` — for a writer that owns the
    /// alarm (the daemon's engine). A user's edit goes through `updateAlarm`, which cannot lose a concurrent one.
    /// A change of time, days, date, zone or enabled flag drops a pending snooze and ringing state (R10) but
    /// keeps the last handled occurrence, so nothing already rung rings again (R11); a change of label, sound or
    /// volume keeps it all.
    public func update(_ alarm: Alarm) throws(StoreError) {
        var alarm = alarm
        guard let id = alarm.id else { throw .conflict("An alarm must have an id to be updated.") }
        try validate(&alarm)
        let replacement = alarm
        _ = try modifyAlarm(id: id) { current, _, _ in current = replacement }
    }

    /// Applies `patch` to the alarm `id` and saves it, in one IMMEDIATE transaction (R26): the alarm is read,
    /// changed, validated and written under the write lock, so two requests changing different fields of the
    /// same alarm at once both take effect; a station named by `source` is looked up in the same transaction.
    /// Bad input throws `.invalid` with `AlarmPatch`'s sentence and changes nothing. R10 as in `update(_:)`.
    /// `zone` is the clock's zone and `now` the current time (they decide a one-shot alarm's default date).
    /// Returns the alarm as saved; the backup copy is rewritten afterwards.
    @discardableResult
    public func updateAlarm(id: Int64, zone: TimeZone, now: Date, _ patch: AlarmPatch) throws(StoreError) -> Alarm {
        try modifyAlarm(id: id) { alarm, _, db in
            try patch.apply(
                to: &alarm, zone: zone, now: now, stationNamed: { name in try Store.station(named: name, db) },
                podcastNamed: { name in try PodcastRow.named(name, in: db)?.podcast() },
                programmeWithID: { id in try Store.programme(id: id, db) })
        }
    }

    /// Changes the alarm `id` with `change` in one IMMEDIATE transaction, like `updateAlarm(id:zone:now:_:)`:
    /// `change` gets the alarm and its run-time state as stored now (nil when it has none) and may refuse with
    /// a `ValidationError` sentence (thrown as `.invalid`, nothing changed). Returns the alarm as saved.
    @discardableResult
    public func updateAlarm(id: Int64, _ change: (inout Alarm, AlarmRunState?) throws(ValidationError) -> Void)
        throws(StoreError) -> Alarm
    {
        try modifyAlarm(id: id) { alarm, state, _ in try change(&alarm, state) }
    }

    /// Makes a new alarm from `patch` with `AlarmPatch.newAlarm` — the settings' defaults and a `source`
    /// station read in the same IMMEDIATE transaction as the insert — and returns it with its new id.
    @discardableResult
    public func insertAlarm(zone: TimeZone, now: Date, _ patch: AlarmPatch) throws(StoreError) -> Alarm {
        let stamp = self.now()
        let alarm: Alarm = try write { db in
            let settings = try AppSetRow.fetchOne(db, key: 1)?.settings().0 ?? AppSettings()
            var alarm = try patch.newAlarm(
                settings: settings, zone: zone, now: now,
                stationNamed: { name in try Store.station(named: name, db) },
                podcastNamed: { name in try PodcastRow.named(name, in: db)?.podcast() },
                programmeWithID: { id in try Store.programme(id: id, db) })
            try checkStationExists(alarm.sound, db)
            var row = ClockRow(alarm, createdAt: stamp, updatedAt: stamp)
            row.clockId = nil
            try row.insert(db)
            alarm.id = row.clockId
            return alarm
        }
        try snapshot.write(from: self)
        return alarm
    }

    /// Reads the alarm `id` and its run state, lets `body` change the alarm, validates it and writes it back,
    /// all in one IMMEDIATE transaction; then rewrites the backup copy.
    private func modifyAlarm(id: Int64, _ body: (inout Alarm, AlarmRunState?, Database) throws -> Void)
        throws(StoreError) -> Alarm
    {
        let stamp = now()
        let saved: Alarm = try write { db in
            guard let old = try ClockRow.fetchOne(db, key: id) else { throw StoreError.notFound(what: "alarm", id: id) }
            var alarm = try old.alarm()
            let state = try AlarmStateRow.fetchOne(db, key: id).map { row throws(StoreError) in try row.runState() }
            try body(&alarm, state, db)
            alarm.id = id
            try alarm.validate()
            try checkStationExists(alarm.sound, db)
            let row = ClockRow(alarm, createdAt: old.createdAt, updatedAt: stamp)
            try row.update(db)
            if ScheduleChange.between(old, row).cancelsPendingState {
                try db.execute(
                    sql: """
                        UPDATE alarmState SET phase = 'idle', occurrence = NULL, ringingSince = NULL, snoozedUntil = NULL,
                            snoozeCount = 0, restCount = 0, updatedAt = ? WHERE clockId = ? AND phase != 'idle'
                        """, arguments: [stamp, id])
            }
            return alarm
        }
        try snapshot.write(from: self)
        return saved
    }

    /// The programme with `id` inside a transaction, or nil.
    static func programme(id: Int64, _ db: Database) throws -> Programme? {
        try ProgramRow.fetchOne(db, key: id)?.programme()
    }

    /// The station called `name` (case-insensitive) inside a transaction, or nil.
    static func station(named name: String, _ db: Database) throws -> Station? {
        try StationRow.filter(sql: "name = ? COLLATE NOCASE", arguments: [name]).fetchOne(db)?.station()
    }

    /// When each alarm was last changed (`clocks.updatedAt`), for the scheduler's catch-up rule (R11).
    public func alarmUpdateTimes() throws(StoreError) -> [Int64: Date] {
        let rows = try read { db in try ClockRow.fetchAll(db) }
        return Dictionary(uniqueKeysWithValues: rows.compactMap { r in r.clockId.map { ($0, r.updatedAt) } })
    }

    /// Deletes the alarm (and its run-time state) and returns it as it was. Throws `notFound` for an unknown id.
    @discardableResult
    public func deleteAlarm(id: Int64) throws(StoreError) -> Alarm {
        let deleted: Alarm = try write { db in
            guard let row = try ClockRow.fetchOne(db, key: id) else { throw StoreError.notFound(what: "alarm", id: id) }
            _ = try ClockRow.deleteOne(db, key: id)
            return try row.alarm()
        }
        try snapshot.write(from: self)
        return deleted
    }

    private func validate(_ alarm: inout Alarm) throws(StoreError) {
        do throws(ValidationError) {
            try alarm.validate()
        } catch {
            throw StoreError(error)
        }
    }

    func checkStationExists(_ sound: SoundSource, _ db: Database) throws {
        if case .station(let sid) = sound, try StationRow.fetchOne(db, key: sid) == nil {
            throw StoreError.conflict("The alarm's station \(sid) no longer exists; pick another sound.")
        }
    }
}

/// Which parts of an alarm an edit touched, for R10.
struct ScheduleChange {
    var cancelsPendingState: Bool

    static func between(_ old: ClockRow, _ new: ClockRow) -> ScheduleChange {
        let timing =
            old.startTime != new.startTime || old.repeated != new.repeated || old.onceDate != new.onceDate
            || old.timeZone != new.timeZone || old.isOpened != new.isOpened
        return ScheduleChange(cancelsPendingState: timing)
    }
}
