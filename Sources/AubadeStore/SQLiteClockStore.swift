public import AubadeCore
public import Foundation
import Glibc
import Synchronization

/// The SQLite database. It also watches its own file: a database deleted, emptied or replaced under the
/// running clock (R27) is opened again, rebuilt from the schedule's backup copy when it has to be.
public final class SQLiteClockStore: ClockStore {
    public let path: String
    private let state: Mutex<(store: Store, file: FileIdentity?)>

    public init(_ store: Store) {
        path = store.path
        state = Mutex((store, FileIdentity(path: store.path)))
    }

    var store: Store { state.withLock { $0.store } }

    public func load() throws(StoreError) -> StoredClock {
        let store = self.store
        let (settings, invalid) = try store.settingsWithProblems()
        return StoredClock(
            alarms: try store.alarms(), states: try store.runStates(), settings: settings,
            invalidSettings: invalid, stations: try store.stations(), programmes: try store.programmes(),
            alarmUpdateTimes: try store.alarmUpdateTimes(), daysOff: try store.daysOff(),
            calendarSources: try store.calendarSources(), podcasts: try store.podcasts(),
            lastSelfTest: try store.lastEvent(of: [HistoryKind.selfTestHeard.rawValue, HistoryKind.selfTestNotHeard.rawValue]))
    }

    public func save(_ runState: AlarmRunState) throws(StoreError) { try store.save(runState) }
    public func save(_ runState: AlarmRunState, recording event: HistoryEvent?) throws(StoreError) {
        try store.save(runState, recording: event)
    }

    /// The engine changes an alarm only to turn a one-shot off or clear a spent skip: only those fields are
    /// written, inside one transaction, so an edit another client made meanwhile is never overwritten (R26).
    public func update(_ alarm: Alarm) throws(StoreError) {
        guard let id = alarm.id else { return }
        _ = try store.updateAlarm(id: id) { stored, _ in
            stored.enabled = alarm.enabled
            stored.skipDate = alarm.skipDate
        }
    }

    public func record(_ event: HistoryEvent) throws(StoreError) { _ = try store.record(event) }
    public func events(limit: Int, since: Date) throws(StoreError) -> [HistoryEvent] {
        try store.events(limit: limit, since: since)
    }
    public func dataVersion() throws(StoreError) -> Int64? { try store.dataVersion() }
    public var readOnlyReason: String? { store.readOnlyReason?.description }

    public func apply(_ edit: ClockEdit, zone: TimeZone, now: Date) throws(StoreError) -> EditOutcome {
        try store.apply(edit, zone: zone, now: now)
    }

    public func tokens() throws(StoreError) -> [AccessToken] { try store.tokens() }
    public func createToken(name: String?, replacing: Bool) throws(StoreError) -> (token: AccessToken, secret: String) {
        try store.createToken(name: name, replacing: replacing)
    }
    public func tokenUsed(id: Int64, at: Date) throws(StoreError) { try store.tokenUsed(id: id, at: at) }

    public func checkFile() -> String? {
        let now = FileIdentity(path: path)
        guard now == nil || now != state.withLock({ $0.file }) || now?.size == 0 else { return nil }
        let what = now == nil ? "was deleted" : (now?.size == 0 ? "was emptied" : "was replaced")
        do throws(StoreError) {
            let opened = try Store.openRestoringBackup(path: path)
            state.withLock { $0 = (opened.store, FileIdentity(path: path)) }
            if let copy = opened.restored {
                return
                    "The database \(path) \(what) while the clock ran; \(copy.alarms.count) alarm(s) were restored from the backup copy written \(copy.writtenAt.formatted(.iso8601)). The event history before it is lost."
            }
            if let problem = opened.backupProblem {
                return
                    "The database \(path) \(what) while the clock ran, and its backup copy cannot be used (\(problem.description)); the alarms known before keep ringing but are not saved."
            }
            return "The database \(path) \(what) while the clock ran; it was opened again."
        } catch {
            return
                "The database \(path) \(what) while the clock ran and cannot be opened again (\(error.description)); the alarms known before keep ringing."
        }
    }
}

/// Which file a path names now (device, inode) and its size: a different answer means the file was
/// replaced or emptied since.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64

    init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool { a.device == b.device && a.inode == b.inode }
}
