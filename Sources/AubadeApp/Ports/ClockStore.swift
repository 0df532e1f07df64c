import AubadeCore
import AubadeStore
import Foundation
import Glibc
import Synchronization

/// Everything the clock reads from its store at start and on reload.
public struct StoredClock: Sendable, Equatable {
    public var alarms: [Alarm]
    public var states: [AlarmRunState]
    public var settings: AppSettings
    /// Settings whose stored value is invalid (their default is used).
    public var invalidSettings: [String]
    public var stations: [Station]
    public var programmes: [Programme]
    /// When each alarm was last changed, for the catch-up rule (R11).
    public var alarmUpdateTimes: [Int64: Date]
    /// The days off (alarms that skip them pass over their dates).
    public var daysOff: [DayOff]
    /// The imported calendars (programme schedules, holiday calendars), refreshed by `CalendarService`.
    public var calendarSources: [CalendarSource]

    public init(alarms: [Alarm] = [], states: [AlarmRunState] = [], settings: AppSettings = AppSettings(),
                invalidSettings: [String] = [], stations: [Station] = [], programmes: [Programme] = [],
                alarmUpdateTimes: [Int64: Date] = [:], daysOff: [DayOff] = [], calendarSources: [CalendarSource] = []) {
        self.daysOff = daysOff
        self.calendarSources = calendarSources
        self.alarms = alarms
        self.states = states
        self.settings = settings
        self.invalidSettings = invalidSettings
        self.stations = stations
        self.programmes = programmes
        self.alarmUpdateTimes = alarmUpdateTimes
    }
}

/// The clock's store (docs/HOUSE-RULES.md §1). Contract: synchronous and blocking (SQLite commits with
/// `synchronous=FULL` fsync) — the clock calls it only on its own dedicated thread (`ClockExecutor`), never
/// on the cooperative pool; a call returns after its change is committed (R26). Errors are `StoreError`
/// sentences; the clock turns a failed write into a warning and still rings (R9).
public protocol ClockStore: Sendable {
    func load() throws(StoreError) -> StoredClock
    func save(_ state: AlarmRunState) throws(StoreError)
    /// Commits `state` and, when given, `event` in one transaction (a stop or a ring is one commit).
    func save(_ state: AlarmRunState, recording event: HistoryEvent?) throws(StoreError)
    func update(_ alarm: Alarm) throws(StoreError)
    func record(_ event: HistoryEvent) throws(StoreError)
    func events(limit: Int, since: Date) throws(StoreError) -> [HistoryEvent]
    /// Changes whenever another connection commits (SQLite's `data_version`): a cheap "reload?" check.
    func dataVersion() throws(StoreError) -> Int64?
    /// Why the store cannot be changed (a newer schema, the backup copy), or nil.
    var readOnlyReason: String? { get }
    /// Looks whether the store's file is still the one it opened; when it was deleted, emptied or replaced,
    /// opens it again (restoring from the backup copy, R27) and returns what happened, to be said loudly.
    func checkFile() -> String?
    /// Carries out a user's edit (`Store.apply`: one IMMEDIATE transaction, R26) and returns what was saved.
    func apply(_ edit: ClockEdit, zone: TimeZone, now: Date) throws(StoreError) -> EditOutcome
    /// The HTTP API's device tokens (hashes only).
    func tokens() throws(StoreError) -> [AccessToken]
    /// Makes a device token called `name` and returns it with its text (shown once); `replacing` revokes an
    /// earlier token of that name instead of refusing it.
    func createToken(name: String?, replacing: Bool) throws(StoreError) -> (token: AccessToken, secret: String)
    /// Notes that token `id` was used at `at`.
    func tokenUsed(id: Int64, at: Date) throws(StoreError)
    /// The folder of the calendars' cached copies beside the database; nil where nothing can be imported.
    var calendarCache: CalendarCache? { get }
}

extension ClockStore {
    public func checkFile() -> String? { nil }
    /// A store without transactions of its own: the state, then the event.
    public func save(_ state: AlarmRunState, recording event: HistoryEvent?) throws(StoreError) {
        try save(state)
        if let event { try record(event) }
    }
    public var calendarCache: CalendarCache? { nil }
}

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
        return StoredClock(alarms: try store.alarms(), states: try store.runStates(), settings: settings,
                           invalidSettings: invalid, stations: try store.stations(), programmes: try store.programmes(),
                           alarmUpdateTimes: try store.alarmUpdateTimes(), daysOff: try store.daysOff(),
                           calendarSources: try store.calendarSources())
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
    public var calendarCache: CalendarCache? { store.calendarCache }

    public func checkFile() -> String? {
        let now = FileIdentity(path: path)
        guard now == nil || now != state.withLock({ $0.file }) || now?.size == 0 else { return nil }
        let what = now == nil ? "was deleted" : (now?.size == 0 ? "was emptied" : "was replaced")
        do throws(StoreError) {
            let opened = try Store.openRestoringBackup(path: path)
            state.withLock { $0 = (opened.store, FileIdentity(path: path)) }
            if let copy = opened.restored {
                return "The database \(path) \(what) while the clock ran; \(copy.alarms.count) alarm(s) were restored from the backup copy written \(copy.writtenAt.formatted(.iso8601)). The event history before it is lost."
            }
            if let problem = opened.backupProblem {
                return "The database \(path) \(what) while the clock ran, and its backup copy cannot be used (\(problem.description)); the alarms known before keep ringing but are not saved."
            }
            return "The database \(path) \(what) while the clock ran; it was opened again."
        } catch {
            return "The database \(path) \(what) while the clock ran and cannot be opened again (\(error.description)); the alarms known before keep ringing."
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

/// The schedule's backup copy, when the database cannot be read (R27): the alarms, stations, settings, days off
/// and the programmes reserved or followed, written beside it after the last change, ring; nothing is saved
/// (writes are dropped), and the fault shows.
public struct BackupClockStore: ClockStore {
    public let contents: ScheduleSnapshot.Contents

    public init(_ contents: ScheduleSnapshot.Contents) { self.contents = contents }

    public func load() throws(StoreError) -> StoredClock {
        let written = contents.writtenAt
        return StoredClock(alarms: contents.alarms, settings: contents.settings, stations: contents.stations,
                           programmes: contents.programmes,
                           alarmUpdateTimes: Dictionary(contents.alarms.compactMap { $0.id.map { ($0, written) } },
                                                        uniquingKeysWith: { a, _ in a }),
                           daysOff: contents.daysOff)
    }

    public func save(_ state: AlarmRunState) throws(StoreError) {}
    public func update(_ alarm: Alarm) throws(StoreError) {}
    public func record(_ event: HistoryEvent) throws(StoreError) {}
    public func events(limit: Int, since: Date) throws(StoreError) -> [HistoryEvent] { [] }
    public func dataVersion() throws(StoreError) -> Int64? { nil }
    public var readOnlyReason: String? { BackupClockStore.refusal }

    static let refusal = "The clock runs from the backup copy of the schedule; changes are not saved."

    public func apply(_ edit: ClockEdit, zone: TimeZone, now: Date) throws(StoreError) -> EditOutcome {
        throw .readOnly(BackupClockStore.refusal)
    }

    /// The tokens as the copy holds them (so the kiosk's Stop still works); no new one can be made.
    public func tokens() throws(StoreError) -> [AccessToken] { contents.tokens }
    public func createToken(name: String?, replacing: Bool) throws(StoreError) -> (token: AccessToken, secret: String) {
        throw .readOnly(BackupClockStore.refusal)
    }
    public func tokenUsed(id: Int64, at: Date) throws(StoreError) {}
}

/// An in-memory store for in-process tests: what was saved and recorded, in order. Thread-safe.
public final class MemoryClockStore: ClockStore {
    private let state: Mutex<(data: StoredClock, history: [HistoryEvent], version: Int64, failWrites: StoreError?)>

    private let journal: Journal?
    private let tokenList = Mutex<[AccessToken]>([])

    public init(_ data: StoredClock = StoredClock(), journal: Journal? = nil) {
        state = Mutex((data, [], 1, nil))
        self.journal = journal
    }

    public func load() throws(StoreError) -> StoredClock { state.withLock { $0.data } }

    public func save(_ runState: AlarmRunState) throws(StoreError) {
        try write { s in
            s.data.states.removeAll { $0.alarmID == runState.alarmID }
            s.data.states.append(runState)
        }
        journal?.append("store.save \(runState.alarmID) \(runState.phase.rawValue)")
    }

    public func update(_ alarm: Alarm) throws(StoreError) {
        try write { s in
            if let i = s.data.alarms.firstIndex(where: { $0.id == alarm.id }) { s.data.alarms[i] = alarm }
        }
    }

    public func record(_ event: HistoryEvent) throws(StoreError) {
        try write { $0.history.append(event) }
        journal?.append("store.record \(event.kind)")
    }

    public func events(limit: Int, since: Date) throws(StoreError) -> [HistoryEvent] {
        state.withLock { s in Array(s.history.filter { $0.at >= since }.suffix(limit)) }
    }

    public func dataVersion() throws(StoreError) -> Int64? { state.withLock { $0.version } }
    public var readOnlyReason: String? { nil }

    /// Edits go through `Store.apply`, which this in-memory store does not reimplement: a test of edits runs
    /// the clock on `SQLiteClockStore` over a temporary file.
    public func apply(_ edit: ClockEdit, zone: TimeZone, now: Date) throws(StoreError) -> EditOutcome {
        throw .readOnly("The in-memory test store takes no edits; run the clock on a SQLite file to test them.")
    }

    public func tokens() throws(StoreError) -> [AccessToken] { tokenList.withLock { $0 } }

    public func createToken(name: String?, replacing: Bool) throws(StoreError) -> (token: AccessToken, secret: String) {
        let secret = TokenSecret.generate()
        return try tokenList.withLock { list throws(StoreError) in
            let id = (list.map(\.id).max() ?? 0) + 1
            let chosen = name ?? "token \(id)"
            if replacing { list.removeAll { $0.name.lowercased() == chosen.lowercased() } }
            guard !list.contains(where: { $0.name.lowercased() == chosen.lowercased() }) else {
                throw StoreError.conflict("A token named '\(chosen)' already exists; pick another name or revoke that one first.")
            }
            let token = AccessToken(id: id, name: chosen, hash: TokenSecret.hash(secret), createdAt: Date())
            list.append(token)
            return (token, secret)
        }
    }

    public func tokenUsed(id: Int64, at: Date) throws(StoreError) {
        tokenList.withLock { list in
            if let i = list.firstIndex(where: { $0.id == id }) { list[i].lastUsedAt = at }
        }
    }

    /// What another process would commit: the clock sees it on its next turn (the version moves).
    public func change(_ body: (inout StoredClock) -> Void) {
        state.withLock { s in
            body(&s.data)
            s.version += 1
        }
    }

    /// Makes every write fail with `error` (nil: writes work again).
    public func failWrites(with error: StoreError?) { state.withLock { $0.failWrites = error } }

    public var history: [HistoryEvent] { state.withLock { $0.history } }
    public var data: StoredClock { state.withLock { $0.data } }

    private func write(_ body: (inout (data: StoredClock, history: [HistoryEvent], version: Int64, failWrites: StoreError?)) -> Void) throws(StoreError) {
        let failure = state.withLock { s -> StoreError? in
            if let f = s.failWrites { return f }
            body(&s)
            return nil
        }
        if let failure { throw failure }
    }
}
