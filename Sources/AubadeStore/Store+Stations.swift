public import AubadeCore
import Foundation
import GRDB

extension Store {
    public func stations() throws(StoreError) -> [Station] {
        let rows = try read { db in try StationRow.order(sql: "name COLLATE NOCASE").fetchAll(db) }
        var result: [Station] = []
        for row in rows { result.append(try row.station()) }
        return result
    }

    /// The station called `name` (case-insensitive), or nil.
    public func station(named name: String) throws(StoreError) -> Station? {
        let row = try read { db in try StationRow.filter(sql: "name = ? COLLATE NOCASE", arguments: [name]).fetchOne(db) }
        return try row?.station()
    }

    public func station(id: Int64) throws(StoreError) -> Station {
        guard let row = try read({ db in try StationRow.fetchOne(db, key: id) }) else {
            throw .notFound(what: "station", id: id)
        }
        return try row.station()
    }

    /// Inserts `station`; a name already taken (ignoring case) is a conflict.
    @discardableResult
    public func insert(_ station: Station) throws(StoreError) -> Station {
        var row = StationRow(station, now: now())
        row.stationId = nil
        try write { db in
            if try StationRow.filter(sql: "name = ? COLLATE NOCASE", arguments: [station.name]).fetchCount(db) > 0 {
                throw StoreError.conflict("A station named '\(station.name)' already exists; pick another name.")
            }
            if let id = station.directory?.id,
                let twin = try String.fetchOne(db, sql: "SELECT name FROM stations WHERE directoryId = ?", arguments: [id])
            {
                throw StoreError.conflict("This station of the directory is already saved, as '\(twin)'.")
            }
            try row.insert(db)
        }
        try snapshot.write(from: self)
        var saved = station
        saved.id = row.stationId
        return saved
    }

    /// Gives station `id` a new primary address (its alternate stays), in one transaction; rewrites the backup copy.
    func moveStation(id: Int64, to url: StreamURL) throws(StoreError) -> Station {
        let moved: Station = try write { db in
            guard var row = try StationRow.fetchOne(db, key: id) else { throw StoreError.notFound(what: "station", id: id) }
            row.url = url.text
            try row.update(db)
            return try row.station()
        }
        try snapshot.write(from: self)
        return moved
    }

    /// Deletes a station and its programmes and returns it as it was; rewrites the backup copy. Refused while an
    /// alarm plays it, naming the alarms. One IMMEDIATE transaction: no alarm can take the station meanwhile.
    @discardableResult
    public func deleteStation(id: Int64) throws(StoreError) -> Station {
        try deleteStation { db in
            guard let row = try StationRow.fetchOne(db, key: id) else { throw StoreError.notFound(what: "station", id: id) }
            return row
        }!
    }

    /// Deletes the station called `name` (case-insensitive) as `deleteStation(id:)` does; nil when none has it.
    @discardableResult
    public func deleteStation(named name: String) throws(StoreError) -> Station? {
        try deleteStation { db in
            try StationRow.filter(sql: "name = ? COLLATE NOCASE", arguments: [name]).fetchOne(db)
        }
    }

    private func deleteStation(_ find: (Database) throws -> StationRow?) throws(StoreError) -> Station? {
        let deleted: Station? = try write { db in
            guard let row = try find(db), let id = row.stationId else { return nil }
            let users = try String.fetchAll(
                db, sql: "SELECT clockName FROM clocks WHERE clockMusic = ? ORDER BY clockId",
                arguments: [SoundSource.station(id: id).storageText])
            guard users.isEmpty else {
                let names = users.map { "'\($0)'" }.joined(separator: ", ")
                throw StoreError.conflict("Station \(id) is the sound of alarm \(names); change the alarm first.")
            }
            _ = try StationRow.deleteOne(db, key: id)
            return try row.station()
        }
        if let deleted {
            try snapshot.write(from: self)
            if let logo = deleted.directory?.logo { StationLogos(databasePath: path).remove(logo) }
        }
        return deleted
    }
}
