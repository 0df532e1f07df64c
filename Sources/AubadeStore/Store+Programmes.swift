public import AubadeCore
import Foundation
import GRDB

extension Store {
    /// All programmes, by weekday/date then begin time.
    public func programmes() throws(StoreError) -> [Programme] {
        let rows = try read { db in
            try ProgramRow.order(sql: "weekday, date, beginTime, progId").fetchAll(db)
        }
        var result: [Programme] = []
        for row in rows { result.append(try row.programme()) }
        return result
    }

    public func programme(id: Int64) throws(StoreError) -> Programme {
        guard let row = try read({ db in try ProgramRow.fetchOne(db, key: id) }) else {
            throw .notFound(what: "programme", id: id)
        }
        return try row.programme()
    }

    /// Validates and inserts every programme in one transaction: all or none. The backup copy is rewritten when
    /// one of them is reserved.
    @discardableResult
    public func insert(_ programmes: [Programme]) throws(StoreError) -> [Programme] {
        var rows: [ProgramRow] = []
        for var p in programmes {
            do throws(ValidationError) { try p.validate() } catch { throw StoreError(error) }
            var row = ProgramRow(p)
            row.progId = nil
            rows.append(row)
        }
        try write { db in
            for i in rows.indices {
                if let sid = rows[i].stationId, try StationRow.fetchOne(db, key: sid) == nil {
                    throw StoreError.notFound(what: "station", id: sid)
                }
                try rows[i].insert(db)
            }
        }
        var out: [Programme] = []
        for row in rows { out.append(try row.programme()) }
        if out.contains(where: \.reserved) { try snapshot.write(from: self) }
        return out
    }

    /// Sets or clears the reservation (`isOrdered`) of one programme in one IMMEDIATE transaction and returns
    /// the programme as saved. Reserving a programme without a station is refused (`.invalid`): there is
    /// nothing to tune to. `remindSeconds` (with a reservation) sets the reminder's lead; a reservation without
    /// it keeps the lead it had, and dropping the reservation drops the lead. Rewrites the backup copy, which
    /// keeps the reserved programmes (R27).
    @discardableResult
    public func setReserved(_ reserved: Bool, programmeID id: Int64, remindSeconds: Int? = nil) throws(StoreError) -> Programme {
        if let remindSeconds, !Programme.remindRange.contains(remindSeconds) {
            throw .invalid("A reminder lead of \(DurationText.format(remindSeconds)) is out of range; use 0s to 24h.")
        }
        if !reserved, remindSeconds != nil {
            throw .invalid("A reminder goes with a reservation; use 'program reserve <id> --remind 5m'.")
        }
        let saved: Programme = try write { db in
            guard let row = try ProgramRow.fetchOne(db, key: id) else { throw StoreError.notFound(what: "programme", id: id) }
            var programme = try row.programme()
            if reserved, programme.stationID == nil {
                throw StoreError.invalid(
                    "Programme \(id) (\(programme.name)) has no station to tune to, so it cannot be reserved.")
            }
            let lead = reserved ? (remindSeconds ?? programme.remindSeconds) : nil
            try db.execute(
                sql: "UPDATE programs SET isOrdered = ?, remindSeconds = ? WHERE progId = ?",
                arguments: [reserved, lead, id])
            programme.reserved = reserved
            programme.remindSeconds = lead
            return programme
        }
        try snapshot.write(from: self)
        return saved
    }

    /// Deletes the programme and returns it as it was. Alarms tied to it keep their last time and say that
    /// their programme is gone. Rewrites the backup copy.
    @discardableResult
    public func deleteProgramme(id: Int64) throws(StoreError) -> Programme {
        let stamp = now()
        let deleted: Programme = try write { db in
            guard let row = try ProgramRow.fetchOne(db, key: id) else { throw StoreError.notFound(what: "programme", id: id) }
            _ = try ProgramRow.deleteOne(db, key: id)
            let programme = try row.programme()
            _ = try Store.orphanAlarms(of: [id: programme], because: "it was removed", at: stamp, db)
            return programme
        }
        try snapshot.write(from: self)
        return deleted
    }
}
