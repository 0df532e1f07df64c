import AubadeCore
import Foundation
import GRDB

/// The SQLite store: alarms (`clocks`), programmes (`programs`), settings (`appSet`), stations, alarm run-time
/// state and the event history, in one file.
///
/// Contract:
/// - `open` runs `PRAGMA quick_check` and the migrations; it throws `StoreError.unreadable` for a file that is
///   not a database or fails the check, and opens a file whose schema is newer than this binary read-only
///   (`readOnlyReason` says why) so that a downgraded clock still rings (R28).
/// - WAL journal, `synchronous=FULL`; a method returns only after its COMMIT returned (R26).
/// - Every method blocks the calling thread for the length of one short transaction (a busy file is waited
///   for up to 10 s); call it from a thread that may block, not from a latency-sensitive audio loop.
/// - After every change to alarms, stations or settings, the schedule backup copy is rewritten atomically (R27).
/// - Safe to share between threads and tasks (GRDB serialises access to the connection).
public final class Store: Sendable {
    public let path: String
    /// Why the store refuses writes, if it does (a schema newer than this binary).
    public let readOnlyReason: StoreError?
    /// The schedule backup copy beside the file (R27).
    public let snapshot: ScheduleSnapshot
    let queue: DatabaseQueue
    let now: @Sendable () -> Date

    /// Opens (creating if needed) the database at `path`, its folder included.
    public static func open(path: String, now: @escaping @Sendable () -> Date = { Date() }) throws(StoreError) -> Store {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw .cannotOpen(path: path, reason: "its folder cannot be created: \(error.localizedDescription)")
            }
        }
        let queue = try openQueue(path: path, readonly: false)
        do {
            try checkIntegrity(queue, path: path)
            try queue.writeWithoutTransaction { db in try Schema.migrate(db) }
            let store = Store(path: path, queue: queue, readOnlyReason: nil, now: now)
            if !store.snapshot.exists { try store.snapshot.write(from: store) }
            return store
        } catch let error as Schema.SchemaTooNew {
            try? queue.close()
            let reason = StoreError.schemaTooNew(path: path, found: error.found, known: Schema.latestVersion)
            let readonly = try openQueue(path: path, readonly: true)
            return Store(path: path, queue: readonly, readOnlyReason: reason, now: now)
        } catch let error as StoreError {
            throw error
        } catch {
            throw classify(error, path: path)
        }
    }

    private init(path: String, queue: DatabaseQueue, readOnlyReason: StoreError?, now: @escaping @Sendable () -> Date) {
        self.path = path
        self.queue = queue
        self.readOnlyReason = readOnlyReason
        self.now = now
        self.snapshot = ScheduleSnapshot(databasePath: path)
    }

    /// The schema version this binary creates and understands.
    public static var schemaVersion: Int { Schema.latestVersion }

    private static func openQueue(path: String, readonly: Bool) throws(StoreError) -> DatabaseQueue {
        var config = Configuration()
        config.readonly = readonly
        config.busyMode = .timeout(10)
        config.journalMode = readonly ? .default : .wal
        config.label = "aubade.store"
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            return try DatabaseQueue(path: path, configuration: config)
        } catch {
            throw classify(error, path: path)
        }
    }

    private static func checkIntegrity(_ queue: DatabaseQueue, path: String) throws {
        let result = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(3)") }
        guard result == ["ok"] else {
            throw StoreError.unreadable(path: path, reason: "integrity check failed: \(result.joined(separator: "; "))")
        }
    }

    static func classify(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
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

    /// Runs a write transaction; refuses when read-only; maps SQLite errors to `StoreError`.
    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        if let readOnlyReason { throw readOnlyReason }
        do {
            return try queue.write(body)
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
