public import AubadeCore
public import Foundation
import GRDB

/// The SQLite store: alarms (`clocks`), programmes (`programs`), settings (`appSet`), stations, alarm run-time
/// state and the event history, in one file.
///
/// Contract:
/// - `open` runs `PRAGMA quick_check` and the migrations; it throws `StoreError.unreadable` for a file that is
///   not a database or fails the check, and opens a file whose schema is newer than this binary read-only
///   (`readOnlyReason` says why) so that a downgraded clock still rings (R28). A missing, empty or blank file
///   is restored from the schedule backup copy when there is one (R27, `openRestoringBackup`).
/// - `openForReading` never writes, never migrates and never creates the file (R29).
/// - WAL journal, `synchronous=FULL` on every connection; a method returns only after its COMMIT returned (R26).
/// - Every change is one IMMEDIATE transaction that reads what it changes under the write lock, so concurrent
///   edits from other processes are never lost (R26).
/// - Every method blocks the calling thread for the length of one short transaction (a busy file is waited
///   for up to 10 s); call it from a thread that may block, not from a latency-sensitive audio loop.
/// - After every change to alarms, stations, settings or reservations, the schedule backup copy is rewritten
///   atomically (R27).
/// - Opening a current file and reading commit nothing (R29).
/// - Safe to share between threads and tasks (GRDB serialises access to the connection).
public final class Store: Sendable {
    public let path: String
    /// Why the store refuses writes, if it does (a schema newer than this binary; a store opened for reading).
    public let readOnlyReason: StoreError?
    /// Where the data read comes from: the file, or (only from `openForReading`) the backup copy or nothing.
    public let origin: Origin
    /// The schedule backup copy beside the file (R27).
    public let snapshot: ScheduleSnapshot
    let queue: DatabaseQueue
    let now: @Sendable () -> Date

    /// Where a store's data comes from.
    public enum Origin: Sendable {
        /// The database file.
        case database
        /// The file is missing, empty or unreadable (`fault` says which): its backup copy, loaded into memory.
        case backupCopy(ScheduleSnapshot.Contents, fault: StoreError)
        /// Neither the file nor a backup copy exists: an empty store in memory.
        case nothing

        /// The fault that made the store read the backup copy, if it did.
        public var fault: StoreError? {
            if case .backupCopy(_, let fault) = self { return fault }
            return nil
        }
    }

    /// What `openRestoringBackup` found and did.
    public struct Opened: Sendable {
        public let store: Store
        /// The backup copy the database was rebuilt from, when the file was missing, empty or held no tables.
        public let restored: ScheduleSnapshot.Contents?
        /// Why a backup copy beside a blank database could not be used (the database is then new and empty).
        public let backupProblem: StoreError?
    }

    /// Opens (creating if needed) the database at `path`, its folder included; restores a missing or emptied file
    /// from the backup copy as `openRestoringBackup` does (use that to learn whether it did).
    public static func open(path: String, now: @escaping @Sendable () -> Date = { Date() }) throws(StoreError) -> Store {
        try openRestoringBackup(path: path, now: now).store
    }

    /// Opens (creating if needed) the database at `path`, its folder included, for the daemon and the commands
    /// that change things (R27). When the file is missing, 0 bytes long or holds none of our tables, and the
    /// schedule backup copy beside it loads, the database is created and the copy's alarms, stations (same ids,
    /// same timestamps), settings and reserved programmes are inserted in the same IMMEDIATE transaction as the
    /// schema — all or nothing, so a crash leaves a blank file that the next open restores again — together with
    /// a `warning` history event saying so. `restored` then holds the copy: say so loudly. What the copy never
    /// held is lost: alarm run states (a pending snooze, the last handled occurrence), the event history and
    /// the unreserved programmes. Without a copy, a blank file becomes a normal empty database; with a copy
    /// that cannot be read, too, and `backupProblem` says why.
    public static func openRestoringBackup(path: String, now: @escaping @Sendable () -> Date = { Date() })
        throws(StoreError) -> Opened
    {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw .cannotOpen(path: path, reason: "its folder cannot be created: \(error.localizedDescription)")
            }
        }
        // Two processes opening a new file at once (the daemon and a command, two commands) would race to switch
        // it to WAL, create the schema or restore the copy; SQLite refuses some of those races at once rather
        // than waiting. Setting up is therefore one process at a time: a `flock` on the database's folder, held
        // until the file is ready (milliseconds; released when this function returns).
        let setup = FolderLock(folder.isEmpty ? "." : folder)
        defer { setup.release() }
        let queue = try openQueue(path: path, readonly: false)
        do {
            try checkIntegrity(queue, path: path)
            let (restored, backupProblem) = try restoreIfBlank(queue, path: path, now: now)
            try queue.writeWithoutTransaction { db in try Schema.migrate(db) }
            let store = Store(path: path, queue: queue, readOnlyReason: nil, origin: .database, now: now)
            if !store.snapshot.exists { try store.snapshot.write(from: store) }
            return Opened(store: store, restored: restored, backupProblem: backupProblem)
        } catch let error as Schema.SchemaTooNew {
            try? queue.close()
            let reason = StoreError.schemaTooNew(path: path, found: error.found, known: Schema.latestVersion)
            let readonly = try openQueue(path: path, readonly: true)
            let store = Store(path: path, queue: readonly, readOnlyReason: reason, origin: .database, now: now)
            return Opened(store: store, restored: nil, backupProblem: nil)
        } catch let error as StoreError {
            try? queue.close()
            throw error
        } catch {
            try? queue.close()
            throw classify(error, path: path)
        }
    }

    init(
        path: String, queue: DatabaseQueue, readOnlyReason: StoreError?, origin: Origin,
        now: @escaping @Sendable () -> Date
    ) {
        self.path = path
        self.queue = queue
        self.readOnlyReason = readOnlyReason
        self.origin = origin
        self.now = now
        self.snapshot = ScheduleSnapshot(databasePath: path)
    }

    /// The schema version this binary creates and understands.
    public static var schemaVersion: Int { Schema.latestVersion }

    /// A connection to the file. The WAL mode is set here rather than by GRDB's `journalMode = .wal`, which
    /// commits a dummy CREATE/DROP TABLE on every open while no `-wal` file exists (a write per command, R29)
    /// and then sets `synchronous = NORMAL` over ours (R26).
    static func openQueue(path: String, readonly: Bool) throws(StoreError) -> DatabaseQueue {
        var config = Configuration()
        config.readonly = readonly
        config.busyMode = .timeout(10)
        config.journalMode = .default
        config.label = "aubade.store"
        config.prepareDatabase { db in
            if !readonly {
                let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                guard mode == "wal" else {
                    throw StoreError.cannotOpen(path: path, reason: "it cannot be switched to WAL mode")
                }
            }
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            return try DatabaseQueue(path: path, configuration: config)
        } catch {
            throw classify(error, path: path)
        }
    }

    static func checkIntegrity(_ queue: DatabaseQueue, path: String) throws {
        let result = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(3)") }
        guard result == ["ok"] else {
            throw StoreError.unreadable(path: path, reason: "integrity check failed: \(result.joined(separator: "; "))")
        }
    }

    static func classify(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? ValidationError { return StoreError(error) }
        guard let db = error as? DatabaseError else { return .sqlite(String(describing: error)) }
        let message = db.message ?? "SQLite error \(db.resultCode.rawValue)"
        switch db.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return .unreadable(path: path, reason: message)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY:
            return .cannotOpen(path: path, reason: message)
        default:
            return .sqlite(message)
        }
    }

    /// Runs one IMMEDIATE write transaction: what `body` reads, it reads under the write lock, so a
    /// read-modify-write inside it cannot lose another process's change (R26). Refuses when read-only; maps
    /// SQLite errors to `StoreError` and a `ValidationError` thrown by `body` to `.invalid`.
    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        if let readOnlyReason { throw readOnlyReason }
        do {
            return try queue.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch {
            throw Store.classify(error, path: path)
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try queue.read(body)
        } catch {
            throw Store.classify(error, path: path)
        }
    }

    /// Closes the file. Further calls throw.
    public func close() {
        try? queue.close()
    }
}

extension Store {
    /// SQLite's `data_version`: changes whenever another connection (another process) commits. The daemon
    /// compares it on each turn of its loop to pick up edits made by the CLI.
    public func dataVersion() throws(StoreError) -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }
}
