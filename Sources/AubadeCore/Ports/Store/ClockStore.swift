public import Foundation

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
    /// The imported calendars (programme schedules, holiday calendars), refreshed by the daemon's calendar service.
    public var calendarSources: [CalendarSource]
    /// The podcasts followed, with their episodes as last read (`podcast:<name>` sounds pick from them).
    public var podcasts: [Podcast]
    /// When the microphone's daily self-test last gave its verdict (heard or not), from the history: a clock started
    /// again the same day does not chirp a second time.
    public var lastSelfTest: Date?

    public init(
        alarms: [Alarm] = [], states: [AlarmRunState] = [], settings: AppSettings = AppSettings(),
        invalidSettings: [String] = [], stations: [Station] = [], programmes: [Programme] = [],
        alarmUpdateTimes: [Int64: Date] = [:], daysOff: [DayOff] = [], calendarSources: [CalendarSource] = [],
        podcasts: [Podcast] = [], lastSelfTest: Date? = nil
    ) {
        self.podcasts = podcasts
        self.lastSelfTest = lastSelfTest
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

/// Port: the clock's store. Implementations: `SQLiteClockStore` (AubadeStore: the database, which watches its own
/// file) and `BackupClockStore` (AubadeStore: the schedule's backup copy, read-only). In-process tests run the
/// first on a temporary file (AubadeAppTesting's `RigStore`), so the edit rules live once, in the store.
///
/// Contract: synchronous and blocking (SQLite commits with `synchronous=FULL` fsync) — the running clock calls it
/// only on the store's own thread (`StoreWorker`), never on its own or the cooperative pool, and waits for a commit
/// at most a stated bound before a sound; a call returns after its change is committed (R26). Errors are
/// `StoreError` sentences; the clock turns a failed write into a warning and still rings (R9).
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
    /// Carries out a user's edit (one IMMEDIATE transaction, R26) and returns what was saved.
    func apply(_ edit: ClockEdit, zone: TimeZone, now: Date) throws(StoreError) -> EditOutcome
    /// The HTTP API's device tokens (hashes only).
    func tokens() throws(StoreError) -> [AccessToken]
    /// Makes a device token called `name` and returns it with its text (shown once); `replacing` revokes an
    /// earlier token of that name instead of refusing it.
    func createToken(name: String?, replacing: Bool) throws(StoreError) -> (token: AccessToken, secret: String)
    /// Notes that token `id` was used at `at`.
    func tokenUsed(id: Int64, at: Date) throws(StoreError)
}

extension ClockStore {
    public func checkFile() -> String? { nil }

    /// A store without transactions of its own: the state, then the event.
    public func save(_ state: AlarmRunState, recording event: HistoryEvent?) throws(StoreError) {
        try save(state)
        if let event { try record(event) }
    }
}
