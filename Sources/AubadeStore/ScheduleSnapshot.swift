import AubadeCore
import Foundation
import GRDB

/// The second copy of the effective schedule (R27): every alarm, the stations they play and the settings, as JSON beside the database
/// (`<database>.schedule.json`). Rewritten after each change — to a temp file, fsync'd, renamed over the old
/// copy, folder fsync'd — under an advisory lock, so two processes changing alarms at once leave the newer
/// state. When the database is unreadable, the clock runs from this copy and says so.
public struct ScheduleSnapshot: Sendable {
    public let path: String
    private let lockPath: String

    public init(databasePath: String) {
        path = databasePath + ".schedule.json"
        lockPath = databasePath + ".schedule.lock"
    }

    /// What a backup copy holds.
    public struct Contents: Sendable {
        public var writtenAt: Date
        public var schemaVersion: Int
        public var alarms: [Alarm]
        public var stations: [Station]
        public var settings: AppSettings
    }

    private struct File: Codable {
        var writtenAt: Date
        var schemaVersion: Int
        var clocks: [ClockRow]
        var stations: [StationRow]
        var appSet: AppSetRow?
    }

    var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// Reads the database and replaces the copy. Failing to write the copy is an error: the change itself
    /// is already committed, and the caller reports that the backup is stale.
    func write(from store: Store) throws(StoreError) {
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw failure("cannot open its lock file") }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { throw failure("cannot lock it") }
        defer { flock(lock, LOCK_UN) }

        let file = try store.read { db in
            File(writtenAt: store.now(), schemaVersion: Schema.latestVersion,
                 clocks: try ClockRow.order(sql: "clockId").fetchAll(db),
                 stations: try StationRow.order(sql: "stationId").fetchAll(db), appSet: try AppSetRow.fetchOne(db, key: 1))
        }
        let data: Data
        do { data = try Self.encoder.encode(file) } catch { throw failure("cannot encode it: \(error)") }
        try replaceAtomically(with: data)
    }

    private func replaceAtomically(with data: Data) throws(StoreError) {
        let temp = path + ".tmp-\(getpid())"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("cannot create \(temp)") }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written, synced, rename(temp, path) == 0 else {
            unlink(temp)
            throw failure("cannot write it (\(String(cString: strerror(errno))))")
        }
        let folder = (path as NSString).deletingLastPathComponent
        let dirfd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirfd >= 0 {
            fsync(dirfd)
            close(dirfd)
        }
    }

    /// Loads the copy. Throws when it is missing or unreadable.
    public func load() throws(StoreError) -> Contents {
        let file: File
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            file = try Self.decoder.decode(File.self, from: data)
        } catch {
            throw .unreadable(path: path, reason: "the schedule backup copy cannot be read")
        }
        var alarms: [Alarm] = []
        for row in file.clocks { alarms.append(try row.alarm()) }
        var stations: [Station] = []
        for row in file.stations { stations.append(try row.station()) }
        return Contents(writtenAt: file.writtenAt, schemaVersion: file.schemaVersion, alarms: alarms,
                        stations: stations, settings: file.appSet?.settings().0 ?? AppSettings())
    }

    private func failure(_ what: String) -> StoreError {
        .cannotOpen(path: path, reason: "the schedule backup copy \(what)")
    }

    private static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .iso8601
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return e
    }

    private static var decoder: JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return d
    }
}
