import AubadeCore
import AubadeStore
import Foundation
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

    public init(alarms: [Alarm] = [], states: [AlarmRunState] = [], settings: AppSettings = AppSettings(),
                invalidSettings: [String] = [], stations: [Station] = [], programmes: [Programme] = [],
                alarmUpdateTimes: [Int64: Date] = [:]) {
        self.alarms = alarms
        self.states = states
        self.settings = settings
        self.invalidSettings = invalidSettings
        self.stations = stations
        self.programmes = programmes
        self.alarmUpdateTimes = alarmUpdateTimes
    }
}

/// The clock's store (house rule 1). Contract: synchronous and blocking (SQLite commits with
/// `synchronous=FULL` fsync) — the clock calls it only on its own dedicated thread (`ClockExecutor`), never
/// on the cooperative pool; a call returns after its change is committed (R26). Errors are `StoreError`
/// sentences; the clock turns a failed write into a warning and still rings (R9).
public protocol ClockStore: Sendable {
    func load() throws(StoreError) -> StoredClock
    func save(_ state: AlarmRunState) throws(StoreError)
    func update(_ alarm: Alarm) throws(StoreError)
    func record(_ event: HistoryEvent) throws(StoreError)
    func events(limit: Int, since: Date) throws(StoreError) -> [HistoryEvent]
    /// Changes whenever another connection commits (SQLite's `data_version`): a cheap "reload?" check.
    func dataVersion() throws(StoreError) -> Int64?
    /// Why the store cannot be changed (a newer schema, the backup copy), or nil.
    var readOnlyReason: String? { get }
}

/// The SQLite database.
public struct SQLiteClockStore: ClockStore {
    public let store: Store

    public init(_ store: Store) { self.store = store }

    public func load() throws(StoreError) -> StoredClock {
        let (settings, invalid) = try store.settingsWithProblems()
        return StoredClock(alarms: try store.alarms(), states: try store.runStates(), settings: settings,
                           invalidSettings: invalid, stations: try store.stations(), programmes: try store.programmes(),
                           alarmUpdateTimes: try store.alarmUpdateTimes())
    }

    public func save(_ state: AlarmRunState) throws(StoreError) { try store.save(state) }
    public func update(_ alarm: Alarm) throws(StoreError) { try store.update(alarm) }
    public func record(_ event: HistoryEvent) throws(StoreError) { _ = try store.record(event) }
    public func events(limit: Int, since: Date) throws(StoreError) -> [HistoryEvent] {
        try store.events(limit: limit, since: since)
    }
    public func dataVersion() throws(StoreError) -> Int64? { try store.dataVersion() }
    public var readOnlyReason: String? { store.readOnlyReason?.description }
}

/// The schedule's backup copy, when the database cannot be read (R27): the alarms, stations and settings
/// written beside it after the last change ring; nothing is saved (writes are dropped), and the fault shows.
public struct BackupClockStore: ClockStore {
    public let contents: ScheduleSnapshot.Contents

    public init(_ contents: ScheduleSnapshot.Contents) { self.contents = contents }

    public func load() throws(StoreError) -> StoredClock {
        let written = contents.writtenAt
        return StoredClock(alarms: contents.alarms, settings: contents.settings, stations: contents.stations,
                           alarmUpdateTimes: Dictionary(contents.alarms.compactMap { $0.id.map { ($0, written) } },
                                                        uniquingKeysWith: { a, _ in a }))
    }

    public func save(_ state: AlarmRunState) throws(StoreError) {}
    public func update(_ alarm: Alarm) throws(StoreError) {}
    public func record(_ event: HistoryEvent) throws(StoreError) {}
    public func events(limit: Int, since: Date) throws(StoreError) -> [HistoryEvent] { [] }
    public func dataVersion() throws(StoreError) -> Int64? { nil }
    public var readOnlyReason: String? { "The clock runs from the backup copy of the schedule; changes are not saved." }
}

/// An in-memory store for in-process tests: what was saved and recorded, in order. Thread-safe.
public final class MemoryClockStore: ClockStore {
    private let state: Mutex<(data: StoredClock, history: [HistoryEvent], version: Int64, failWrites: StoreError?)>

    private let journal: Journal?

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
