import AubadeCore
import AubadeStore
import Foundation

/// The database (read without writing, as `aubade alarm list` reads it: `PRAGMA quick_check` on open, the
/// backup copy when the file is unreadable, R27) and the free space beside it.
struct StorageProbe: Sendable {
    var alarms: [Alarm] = []
    var stations: [Int64: Station] = [:]
    var settings: AppSettings?
    var check: DoctorCheck

    /// Blocking (SQLite): off the cooperative pool.
    static func read(databasePath path: String, daemonRunning: Bool) -> StorageProbe {
        let store: Store
        do throws(StoreError) {
            store = try Store.openForReading(path: path)
        } catch {
            switch error {
            case .cannotOpen:
                let fix = "Run doctor as root or as the clock's user: sudo -u aubade aubade doctor."
                // The running clock has its own copy of the alarms; doctor just cannot look.
                return StorageProbe(check: .warning("database", error.description, fix: fix))
            default:
                let check = DoctorCheck.problem(
                    "database", "\(error.description) There is no backup copy of the schedule, so the alarms are lost.",
                    fix:
                        "Move the file aside and add the alarms again (aubade alarm add …); the clock then keeps a backup copy beside it."
                )
                return StorageProbe(check: check)
            }
        }
        defer { store.close() }
        do {
            let alarms = try store.alarms()
            let stations = Dictionary(try store.stations().compactMap { s in s.id.map { ($0, s) } }) { a, _ in a }
            let settings = try store.settings()
            let enabled = alarms.filter(\.enabled).count
            let counts =
                "\(alarms.count) alarm\(alarms.count == 1 ? "" : "s") (\(enabled) enabled), \(stations.count) station\(stations.count == 1 ? "" : "s")"
            let check: DoctorCheck
            switch store.origin {
            case .database:
                var note = ""
                if let reason = store.readOnlyReason, case .schemaTooNew = reason { note = " \(reason.description)" }
                check = .ok("database", "\(path): quick_check ok; \(counts).\(note)")
            case .backupCopy(let copy, let fault):
                check = .warning(
                    "database",
                    "\(fault.description) The clock rings from the backup copy written \(copy.writtenAt.formatted(.iso8601)): \(counts).",
                    fix:
                        "Move the damaged file aside (sudo systemctl stop aubade; mv \(path) \(path).bad); the clock rebuilds it from the backup copy when it starts."
                )
            case .nothing:
                check =
                    daemonRunning
                    ? .ok("database", "\(path) holds nothing yet: no alarm is set.")
                    : .warning(
                        "database", "There is no database at \(path) yet: no alarm is set.",
                        fix: "Add an alarm: aubade alarm add --name Work --time 06:45 --days mon-fri.")
            }
            return StorageProbe(alarms: alarms, stations: stations, settings: settings, check: check)
        } catch {
            return StorageProbe(
                check: .problem(
                    "database", "\(path) could not be read: \(error)",
                    fix: "See aubade alarm list for the same error; restore the file from its backup copy (README.md)."))
        }
    }

    /// The "disk" line: free space on the file system of the database (the nearest folder that exists).
    static func disk(databasePath path: String) -> DoctorCheck {
        var folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
        while !FileManager.default.fileExists(atPath: folder), folder != "/" {
            folder = (folder as NSString).deletingLastPathComponent
        }
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else {
            return .warning(
                "disk", "The free space under \(folder) could not be read (\(String(cString: strerror(errno)))).",
                fix: "Check the file system: df -h \(folder).")
        }
        let free = Int64(info.f_bavail) * Int64(info.f_frsize)
        let mib = free / (1024 * 1024)
        let fix = "Free some space on it (df -h \(folder); sudo journalctl --vacuum-size=50M; sudo apt clean)."
        if mib < 5 {
            return .problem(
                "disk",
                "Only \(mib) MiB are free under \(folder): the clock may not be able to save that an alarm is ringing (R9).",
                fix: fix)
        }
        if mib < 100 {
            return .warning("disk", "Only \(mib) MiB are free under \(folder).", fix: fix)
        }
        return .ok("disk", "\(mib >= 10240 ? "\(mib / 1024) GiB" : "\(mib) MiB") free under \(folder).")
    }
}
