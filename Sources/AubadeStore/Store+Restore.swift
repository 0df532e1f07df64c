import AubadeCore
import Foundation
import GRDB

extension Store {
    /// R27: when the file holds none of our tables and the backup copy loads, creates the schema and inserts
    /// the copy in one IMMEDIATE transaction (the blank check repeated under the write lock, so two processes
    /// opening at once restore once). Returns the copy restored, or why a copy beside a blank file was unusable.
    static func restoreIfBlank(_ queue: DatabaseQueue, path: String, now: @Sendable () -> Date) throws
        -> (restored: ScheduleSnapshot.Contents?, problem: StoreError?)
    {
        guard try queue.read({ db in try Schema.isBlank(db) }) else { return (nil, nil) }
        let snapshot = ScheduleSnapshot(databasePath: path)
        guard snapshot.exists else { return (nil, nil) }
        let loaded: (file: ScheduleSnapshot.File, contents: ScheduleSnapshot.Contents)
        do {
            loaded = try snapshot.loadFile()
        } catch {
            return (nil, error)
        }
        let restored: ScheduleSnapshot.Contents? = try queue.writeWithoutTransaction { db in
            var done = false
            try db.inTransaction(.immediate) {
                guard try Schema.isBlank(db) else { return .commit }
                try Schema.applySteps(from: 0, db)
                try snapshot.restore(loaded.file, into: db)
                var event = EventRow(
                    eventId: nil, at: now(), clockId: nil, kind: HistoryKind.warning.rawValue,
                    detail: Store.restoredDetail(loaded.contents))
                try event.insert(db)
                done = true
                return .commit
            }
            return done ? loaded.contents : nil
        }
        return (restored, nil)
    }

    /// The history line of a restore.
    static func restoredDetail(_ copy: ScheduleSnapshot.Contents) -> String {
        "The database was missing or empty; \(copy.alarms.count) alarm(s), \(copy.stations.count) station(s), "
            + "\(copy.programmes.count) reserved or followed programme(s), \(copy.daysOff.count) day(s) off and the settings were restored from the backup copy "
            + "written \(copy.writtenAt.formatted(.iso8601)). Snoozes and history from before were lost."
    }

    /// A store in memory holding the backup copy's rows (or nothing), for reading when the file can't be read.
    /// Refuses every write.
    static func inMemory(
        path: String, copy: (file: ScheduleSnapshot.File, contents: ScheduleSnapshot.Contents)?,
        fault: StoreError?
    ) throws(StoreError) -> Store {
        do {
            let queue = try DatabaseQueue()
            try queue.write { db in
                try Schema.applySteps(from: 0, db)
                if let copy { try ScheduleSnapshot(databasePath: path).restore(copy.file, into: db) }
            }
            let origin: Origin = if let copy, let fault { .backupCopy(copy.contents, fault: fault) } else { .nothing }
            return Store(
                path: path, queue: queue, readOnlyReason: Store.openedForReading(path), origin: origin,
                now: { Date() })
        } catch {
            throw classify(error, path: path)
        }
    }

    /// Why a store opened for reading refuses to write.
    static func openedForReading(_ path: String) -> StoreError {
        .cannotOpen(path: path, reason: "it was opened for reading only")
    }
}
