public import AubadeCore
public import Foundation
import Synchronization

/// An in-memory store for in-process tests (`ClockStore`): what was saved and recorded, in order, and every
/// edit carried out as the SQLite store carries it out — the same checks from AubadeCore (`AlarmPatch`,
/// `StationFields`, `ProgrammeFields`, settings, days off), the same refusals in the same sentences, R10 on a
/// change of timing, a calendar import that keeps reservations and moves the alarms tied to its programmes.
/// Its own time (`createdAt`, `importedAt`, when an alarm was last changed) comes from `now`, never the machine's
/// clock. Thread-safe.
public final class MemoryClockStore: ClockStore {
    struct State {
        var data: StoredClock
        var history: [HistoryEvent] = []
        var version: Int64 = 1
        var failWrites: StoreError?
        var readOnly: String?
        var tokens: [AccessToken] = []
        /// The podcasts followed (`data.podcasts`).
        var podcasts: [Podcast] {
            get { data.podcasts }
            set { data.podcasts = newValue }
        }
        var lastID: [String: Int64] = [:]

        /// A new row id for `table`: one more than any used before (ids are never reused).
        mutating func nextID(_ table: String, after used: [Int64?]) -> Int64 {
            let next = max(lastID[table] ?? 0, used.compactMap { $0 }.max() ?? 0) + 1
            lastID[table] = next
            return next
        }
    }

    private let state: Mutex<State>
    private let journal: Journal?
    private let clock: @Sendable () -> Date

    /// A store holding `data`; `now` is its clock (default: a fixed instant, 2026-11-24 06:50 UTC).
    public init(
        _ data: StoredClock = StoredClock(), journal: Journal? = nil,
        now: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 1_795_503_000) }
    ) {
        state = Mutex(State(data: data))
        self.journal = journal
        clock = now
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
        try write { s in
            var saved = event
            saved.id = Int64(s.history.count + 1)
            s.history.append(saved)
        }
        journal?.append("store.record \(event.kind)")
    }

    /// The newest `limit` events, newest first (as the SQLite store answers); only those at or after `since`.
    public func events(limit: Int = 100, since: Date = .distantPast) throws(StoreError) -> [HistoryEvent] {
        state.withLock { s in
            Array(s.history.filter { $0.at >= since }.sorted { ($0.at, $0.id ?? 0) > ($1.at, $1.id ?? 0) }.prefix(limit))
        }
    }

    public func dataVersion() throws(StoreError) -> Int64? { state.withLock { $0.version } }
    public var readOnlyReason: String? { state.withLock { $0.readOnly } }

    public func apply(_ edit: ClockEdit, zone: TimeZone, now: Date) throws(StoreError) -> EditOutcome {
        let stamp = clock()
        return try transact { s throws(StoreError) in try s.apply(edit, zone: zone, now: now, stamp: stamp) }
    }

    public func tokens() throws(StoreError) -> [AccessToken] { state.withLock { $0.tokens } }

    public func createToken(name: String?, replacing: Bool) throws(StoreError) -> (token: AccessToken, secret: String) {
        let chosen: String?
        do throws(ValidationError) { chosen = try name.map(AccessToken.validName) } catch { throw StoreError(error) }
        let secret = TokenSecret.generate()
        let stamp = clock()
        let token = try transact { s throws(StoreError) -> AccessToken in
            let id = s.nextID("tokens", after: s.tokens.map(\.id))
            let name = chosen ?? "token \(id)"
            let same = { (t: AccessToken) in t.name.lowercased() == name.lowercased() }
            if replacing {
                s.tokens.removeAll(where: same)
            } else if s.tokens.contains(where: same) {
                throw .conflict("A token named '\(name)' already exists; pick another name or revoke that one first.")
            }
            let token = AccessToken(id: id, name: name, hash: TokenSecret.hash(secret), createdAt: stamp)
            s.tokens.append(token)
            return token
        }
        return (token, secret)
    }

    public func tokenUsed(id: Int64, at: Date) throws(StoreError) {
        try write { s in
            if let i = s.tokens.firstIndex(where: { $0.id == id }) { s.tokens[i].lastUsedAt = at }
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

    /// Makes the store refuse every change with `reason`, as a store open read-only does (nil: changes work).
    public func refuseChanges(_ reason: String?) { state.withLock { $0.readOnly = reason } }

    public var history: [HistoryEvent] { state.withLock { $0.history } }
    public var data: StoredClock { state.withLock { $0.data } }

    private func write(_ body: (inout State) -> Void) throws(StoreError) {
        try transact { s throws(StoreError) in body(&s) }
    }

    /// Runs `body` on a copy of the state and keeps it only when `body` succeeds: all or nothing, as a
    /// transaction. A write refused (`refuseChanges`) or failing (`failWrites`) changes nothing.
    private func transact<T>(_ body: (inout State) throws(StoreError) -> T) throws(StoreError) -> T {
        try state.withLock { s throws(StoreError) -> T in
            if let reason = s.readOnly { throw .readOnly(reason) }
            if let failure = s.failWrites { throw failure }
            var copy = s
            let result = try body(&copy)
            s = copy
            return result
        }
    }
}
