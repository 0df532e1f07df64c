public import AubadeCore
import Foundation
import GRDB

extension Store {
    /// Opens the database at `path` for a command that only reads (R29): nothing is written — no migration, no
    /// backup-copy rewrite, no WAL setup, no `-wal`/`-shm` file created — and a missing file is not created.
    /// Every write method of the result throws.
    ///
    /// - A current file is read as it is. While no other connection has pending pages in a `-wal` file (the
    ///   daemon is not running, or has nothing to checkpoint), the file holds everything: it is copied into
    ///   memory through an `immutable` connection, which creates no `-wal`/`-shm` file (one left behind by a
    ///   command run as root would lock the daemon out), and the copy is kept only if the file's inode, size,
    ///   modification time, header and `-wal` size are the same after the copy as before (else it is tried
    ///   again, then read through an ordinary read-only connection). Otherwise an ordinary read-only
    ///   connection reads the file and its WAL.
    /// - A schema newer than this binary's is read as it is; `readOnlyReason` is then `.schemaTooNew` (R28).
    ///   An older, non-zero schema would need a migration, which reading never runs: it throws `.cannotOpen`
    ///   with a sentence saying how to upgrade it.
    /// - A file that is missing, 0 bytes long or holds none of our tables, or (R27) is unreadable: when the
    ///   schedule backup copy loads, the store reads the copy from memory and `origin` is `.backupCopy` with the
    ///   fault; without a copy, a missing or blank file gives an empty store whose `origin` is `.nothing`,
    ///   and an unreadable one throws `.unreadable`.
    public static func openForReading(path: String) throws(StoreError) -> Store {
        guard let size = FileState.size(of: path), size > 0 else {
            let reason = FileState.size(of: path) == nil ? "it does not exist" : "it is empty"
            return try fromBackupCopy(path: path, fault: .unreadable(path: path, reason: reason), blank: true)
        }
        do {
            return try openExistingForReading(path: path)
        } catch .unreadable(let p, let reason) where p == path {
            return try fromBackupCopy(path: path, fault: .unreadable(path: p, reason: reason), blank: false)
        }
    }

    private static func openExistingForReading(path: String) throws(StoreError) -> Store {
        for _ in 0..<3 {
            let before = FileState(path)
            guard (before.walSize ?? 0) == 0 else { break }
            guard let copy = try immutableCopy(of: path) else { break }
            if FileState(path) == before { return try checked(copy, path: path) }
            try? copy.close()
        }
        return try checked(try openQueue(path: path, readonly: true), path: path)
    }

    /// The file's pages copied into an in-memory database through an `immutable=1` connection; nil when
    /// this SQLite does not take URI file names (the connection is then refused, nothing is created).
    private static func immutableCopy(of path: String) throws(StoreError) -> DatabaseQueue? {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        guard let encoded = absolute.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else { return nil }
        var config = Configuration()
        config.readonly = true
        config.label = "aubade.store.immutable"
        let source: DatabaseQueue
        do {
            source = try DatabaseQueue(path: "file:\(encoded)?mode=ro&immutable=1", configuration: config)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN {
            return nil
        } catch {
            throw classify(error, path: path)
        }
        defer { try? source.close() }
        do {
            let memory = try DatabaseQueue()
            try source.backup(to: memory)
            return memory
        } catch {
            throw classify(error, path: path)
        }
    }

    /// Checks `queue` (the file, or its copy) and wraps it in a store that refuses writes.
    private static func checked(_ queue: DatabaseQueue, path: String) throws(StoreError) -> Store {
        let version: Int
        let blank: Bool
        do {
            try checkIntegrity(queue, path: path)
            (version, blank) = try queue.read { db in (try Schema.version(db), try Schema.isBlank(db)) }
        } catch {
            try? queue.close()
            throw classify(error, path: path)
        }
        if blank {
            try? queue.close()
            return try fromBackupCopy(
                path: path, fault: .unreadable(path: path, reason: "it holds no alarm tables"),
                blank: true)
        }
        if version > Schema.latestVersion {
            let reason = StoreError.schemaTooNew(path: path, found: version, known: Schema.latestVersion)
            return Store(path: path, queue: queue, readOnlyReason: reason, origin: .database, now: { Date() })
        }
        guard version == Schema.latestVersion else {
            try? queue.close()
            throw .cannotOpen(
                path: path,
                reason:
                    "it has schema version \(version), older than this aubade's \(Schema.latestVersion), and reading never upgrades it; any command that changes something, or starting the clock, upgrades it"
            )
        }
        return Store(path: path, queue: queue, readOnlyReason: openedForReading(path), origin: .database, now: { Date() })
    }

    /// The backup copy in memory. Without a loadable copy: an empty store for a `blank` file (nothing was ever
    /// stored, or nothing can be shown), else `fault` is thrown.
    private static func fromBackupCopy(path: String, fault: StoreError, blank: Bool) throws(StoreError) -> Store {
        let snapshot = ScheduleSnapshot(databasePath: path)
        if snapshot.exists, let copy = try? snapshot.loadFile() {
            return try inMemory(path: path, copy: copy, fault: fault)
        }
        guard blank, !snapshot.exists else { throw fault }
        return try inMemory(path: path, copy: nil, fault: nil)
    }
}

/// What tells whether a database file changed while it was copied: its identity, size, modification time and
/// header (the change counter and the schema cookie are in it), and its `-wal` file's size.
struct FileState: Equatable {
    var device: UInt64 = 0
    var inode: UInt64 = 0
    var size: Int64 = -1
    var modified: [Int] = []
    var header = Data()
    var walSize: Int64?

    init(_ path: String) {
        var info = stat()
        if stat(path, &info) == 0 {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            #if os(Linux)
            modified = [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
            #else
            modified = [Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec)]
            #endif
        }
        if let handle = FileHandle(forReadingAtPath: path) {
            header = (try? handle.read(upToCount: 100)) ?? Data()
            try? handle.close()
        }
        walSize = FileState.size(of: path + "-wal")
    }

    /// The file's size, or nil when there is no such file.
    static func size(of path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }
}
