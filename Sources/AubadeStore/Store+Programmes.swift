import AubadeCore
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

    /// Validates and inserts every programme in one transaction: all or none.
    @discardableResult
    public func insert(_ programmes: [Programme]) throws(StoreError) -> [Programme] {
        var rows: [ProgramRow] = []
        for var p in programmes {
            do throws(ValidationError) { try p.validate() } catch { throw .invalid(error.message) }
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
        return out
    }

    /// Sets or clears the reservation (`isOrdered`) of one programme.
    public func setReserved(_ reserved: Bool, programmeID id: Int64) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE programs SET isOrdered = ? WHERE progId = ?", arguments: [reserved, id])
            guard db.changesCount == 1 else { throw StoreError.notFound(what: "programme", id: id) }
        }
    }

    public func deleteProgramme(id: Int64) throws(StoreError) {
        try write { db in
            guard try ProgramRow.deleteOne(db, key: id) else { throw StoreError.notFound(what: "programme", id: id) }
        }
    }
}
