public import AubadeCore
public import AubadeStore
public import AubadeTesting
public import Foundation
import Synchronization

/// The rig's store: the real one — AubadeStore's `SQLiteClockStore` over a `Store` on a file of its own in a
/// temporary folder — so that an in-process test's edits are carried out by the store's own rules (the calendar
/// merge, the ids, the refusals), not by a copy of them. A file, not SQLite's in-memory database: the store opens
/// its file in WAL mode (which a memory database refuses), keeps the schedule's backup copy beside it and looks at
/// the file on every turn (`checkFile`, `dataVersion`), all of which want a real file. The file is on tmpfs when
/// the machine has one (`/dev/shm`): the store fsyncs every commit, which on a busy disk can outlast the half
/// second the clock waits for a commit before a ring (`StoreWorker`), and a test of what was committed before a
/// sound would then see the ring go first.
///
/// Around it, what the tests read and do: each commit noted in the `Journal` once it returned, as the fakes note
/// what they were asked (so a test can check that a state was committed before the sound it guards, R9); what
/// the file holds (`data`) and its history in order (`history`); every write made to fail (`failWrites`); and a
/// change committed through a second connection, as another process would (`fromAnotherProcess`).
public final class RigStore: ClockStore {
    /// The database.
    public let database: Store
    private let sqlite: SQLiteClockStore
    private let folder: TemporaryDirectory
    private let journal: Journal?
    private let clock: @Sendable () -> Date
    private let failure = Mutex<StoreError?>(nil)

    /// A store on a new file holding `alarms`, `stations`, `programmes`, `settings` and `states`, each with the id
    /// it carries, written by the store's own functions (`RigSeed`); its clock is `time`'s wall clock.
    public init(
        alarms: [Alarm] = [], stations: [Station] = [], programmes: [Programme] = [], settings: AppSettings = AppSettings(),
        states: [AlarmRunState] = [], journal: Journal? = nil, time: ManualClock
    ) throws {
        let seed = RigSeed(alarms: alarms, stations: stations, programmes: programmes, settings: settings, states: states)
        folder = try TemporaryDirectory("rig-store", in: RigStore.base)
        LiveFolders.add(folder.path)
        let path = folder.file("aubade.sqlite")
        try seed.files().copy(to: path)
        clock = { time.now().wall }
        database = try Store.open(path: path, now: clock)
        sqlite = SQLiteClockStore(database)
        self.journal = journal
    }

    deinit { LiveFolders.remove(folder.path) }

    /// Where the rig's files go: tmpfs when there is one, else the system temp directory.
    static let base: String? = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : nil

    public func load() throws(StoreError) -> StoredClock { try sqlite.load() }

    public func save(_ state: AlarmRunState) throws(StoreError) {
        try failing()
        try sqlite.save(state)
        journal?.append("store.save \(state.alarmID) \(state.phase.rawValue)")
    }

    public func save(_ state: AlarmRunState, recording event: HistoryEvent?) throws(StoreError) {
        try failing()
        try sqlite.save(state, recording: event)
        journal?.append("store.save \(state.alarmID) \(state.phase.rawValue)")
        if let event { journal?.append("store.record \(event.kind)") }
    }

    public func update(_ alarm: Alarm) throws(StoreError) {
        try failing()
        try sqlite.update(alarm)
    }

    public func record(_ event: HistoryEvent) throws(StoreError) {
        try failing()
        try sqlite.record(event)
        journal?.append("store.record \(event.kind)")
    }

    /// The newest `limit` events, newest first; only those at or after `since`.
    public func events(limit: Int = 100, since: Date = .distantPast) throws(StoreError) -> [HistoryEvent] {
        try sqlite.events(limit: limit, since: since)
    }

    public func dataVersion() throws(StoreError) -> Int64? { try sqlite.dataVersion() }
    public var readOnlyReason: String? { sqlite.readOnlyReason }
    public func checkFile() -> String? { sqlite.checkFile() }

    public func apply(_ edit: ClockEdit, zone: TimeZone, now: Date) throws(StoreError) -> EditOutcome {
        try failing()
        return try sqlite.apply(edit, zone: zone, now: now)
    }

    public func tokens() throws(StoreError) -> [AccessToken] { try sqlite.tokens() }

    public func createToken(name: String?, replacing: Bool) throws(StoreError) -> (token: AccessToken, secret: String) {
        try failing()
        return try sqlite.createToken(name: name, replacing: replacing)
    }

    public func tokenUsed(id: Int64, at: Date) throws(StoreError) {
        try failing()
        try sqlite.tokenUsed(id: id, at: at)
    }

    /// What the file holds now, read as the clock loads it.
    public var data: StoredClock { reading { () throws(StoreError) in try sqlite.load() } }

    /// Every event of the history, oldest first (in the order they were recorded).
    public var history: [HistoryEvent] {
        reading { () throws(StoreError) in try sqlite.events(limit: .max, since: .distantPast) }.sorted {
            ($0.id ?? 0) < ($1.id ?? 0)
        }
    }

    /// Makes every write fail with `error`, as a dying card would (nil: writes work again).
    public func failWrites(with error: StoreError?) { failure.withLock { $0 = error } }

    /// Runs `change` on a second connection to the file, as another process (`aubade alarm edit`) would: the
    /// clock sees what it commits on its next turn (SQLite's `data_version` moves).
    @discardableResult
    public func fromAnotherProcess<T>(_ change: (Store) throws(StoreError) -> T) throws(StoreError) -> T {
        let other = try Store.open(path: database.path, now: clock)
        defer { other.close() }
        return try change(other)
    }

    private func failing() throws(StoreError) {
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// A read of the rig's own file, which a test cannot go on without.
    private func reading<T>(_ read: () throws(StoreError) -> T) -> T {
        do throws(StoreError) {
            return try read()
        } catch {
            preconditionFailure("The rig's database \(database.path) cannot be read: \(error.description)")
        }
    }
}

/// The folders of the rigs alive, removed when the test process exits too: its last rigs are often still held by
/// their clocks' threads then, and no deinitialiser runs at exit.
private enum LiveFolders {
    static let paths = Mutex<Set<String>>([])
    static let removedAtExit: Void = { atexit { LiveFolders.removeAll() } }()

    static func add(_ path: String) {
        _ = removedAtExit
        paths.withLock { _ = $0.insert(path) }
    }

    static func remove(_ path: String) { paths.withLock { _ = $0.remove(path) } }

    static func removeAll() {
        for path in paths.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
