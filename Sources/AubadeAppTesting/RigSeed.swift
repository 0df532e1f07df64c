import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import Synchronization

/// What a rig's store starts with, each row with the id it carries. It is written by the store's own functions
/// (`Store.insert`, `save`) once per distinct seed in a test process, into a database of its own that is then
/// closed, and copied for every rig that starts with it: a new database costs its migrations and the inserts
/// (tens of milliseconds in a debug build), a copy one write.
///
/// The rows are dated 1970-01-01 (the seed's clock), long before any rig starts: like an alarm whose last change
/// is unknown, a seeded alarm counts as changed long ago for the catch-up rule (R11).
struct RigSeed: Hashable, Sendable {
    var alarms: [Alarm]
    var stations: [Station]
    var programmes: [Programme]
    var settings: AppSettings
    var states: [AlarmRunState]

    /// The seeded database and its backup copy, as files.
    struct Files: Sendable {
        let database: Data
        let backupCopy: Data

        /// Writes them as the database at `path` and the backup copy beside it.
        func copy(to path: String) throws {
            try database.write(to: URL(fileURLWithPath: path))
            try backupCopy.write(to: URL(fileURLWithPath: ScheduleSnapshot(databasePath: path).path))
        }
    }

    private static let written = Mutex<[RigSeed: Files]>([:])

    /// The files of this seed: written the first time, copied since.
    func files() throws -> Files {
        if let files = Self.written.withLock({ $0[self] }) { return files }
        let folder = try TemporaryDirectory("rig-seed", in: RigStore.base)
        let path = folder.file("aubade.sqlite")
        let store = try Store.open(path: path, now: { Date(timeIntervalSince1970: 0) })
        try insert(into: store)
        store.close()
        // Closed, the database is one file: SQLite folded its write-ahead log into it.
        guard !FileManager.default.fileExists(atPath: path + "-wal") else {
            throw StoreError.sqlite("The seeded database \(path) kept its write-ahead log after it was closed.")
        }
        let files = Files(
            database: try Data(contentsOf: URL(fileURLWithPath: path)),
            backupCopy: try Data(contentsOf: URL(fileURLWithPath: store.snapshot.path)))
        Self.written.withLock { $0[self] = files }
        return files
    }

    /// Stations first, then programmes (which name their station), then alarms (which name either), then the
    /// settings and the alarms' states. The store gives every new row the next id and never reuses one; to reach
    /// an id past the next, placeholders take the ids between and are deleted at once.
    private func insert(into store: Store) throws {
        var last: Int64 = 0
        for station in Self.byID(stations, \.id) {
            try Self.reach(station.id, after: &last) { n in
                try store.insert(try Station(name: "gap \(n)", url: try StreamURL(parsing: "http://gap.invalid/\(n)"))).id
            } delete: { id in
                _ = try store.deleteStation(id: id)
            }
            last = try Self.given(station.id, try store.insert(station).id)
        }
        last = 0
        for programme in Self.byID(programmes, \.id) {
            try Self.reach(programme.id, after: &last) { n in
                let gap = Programme(
                    name: "gap \(n)", begin: try LocalTime(hour: 0, minute: 0), end: try LocalTime(hour: 1, minute: 0))
                return try store.insert([gap]).first?.id
            } delete: { id in
                _ = try store.deleteProgramme(id: id)
            }
            last = try Self.given(programme.id, try store.insert([programme]).first?.id)
        }
        last = 0
        for alarm in Self.byID(alarms, \.id) {
            try Self.reach(alarm.id, after: &last) { n in
                let gap = Alarm(
                    name: "gap \(n)", time: try LocalTime(hour: 0, minute: 0), recurrence: .weekly(.all), enabled: false)
                return try store.insert(gap).id
            } delete: { id in
                _ = try store.deleteAlarm(id: id)
            }
            last = try Self.given(alarm.id, try store.insert(alarm).id)
        }
        if settings != AppSettings() { try store.save(settings) }
        for state in states { try store.save(state) }
    }

    /// `rows` by their ids, those without one last (they take the next ids, in their order).
    private static func byID<Row>(_ rows: [Row], _ id: KeyPath<Row, Int64?>) -> [Row] {
        rows.enumerated().sorted { a, b in
            (a.element[keyPath: id] ?? .max, a.offset) < (b.element[keyPath: id] ?? .max, b.offset)
        }.map(\.element)
    }

    /// Inserts and deletes placeholders until the next id the store gives is `id` (nothing for a row without one).
    private static func reach(
        _ id: Int64?, after last: inout Int64, placeholder: (Int64) throws -> Int64?, delete: (Int64) throws -> Void
    ) throws {
        guard let id else { return }
        while last + 1 < id {
            guard let gap = try placeholder(last + 1) else { throw StoreError.conflict("A placeholder was given no id.") }
            try delete(gap)
            last = gap
        }
    }

    /// The id the store gave a row, when it is the one the seed asked for (or the seed asked for none).
    private static func given(_ wanted: Int64?, _ given: Int64?) throws -> Int64 {
        guard let given, wanted == nil || wanted == given else {
            let got = given.map { "id \($0)" } ?? "no id"
            throw StoreError.conflict("A seeded row asked for id \(wanted.map(String.init) ?? "none") and was given \(got).")
        }
        return given
    }
}
