public import AubadeCore
public import Foundation

/// The schedule's backup copy, when the database cannot be read (R27): the alarms, stations, settings, days off
/// and the programmes reserved or followed, written beside it after the last change, ring; nothing is saved
/// (writes are dropped), and the fault shows.
public struct BackupClockStore: ClockStore {
    public let contents: ScheduleSnapshot.Contents

    public init(_ contents: ScheduleSnapshot.Contents) { self.contents = contents }

    public func load() throws(StoreError) -> StoredClock {
        let written = contents.writtenAt
        return StoredClock(
            alarms: contents.alarms, settings: contents.settings, stations: contents.stations,
            programmes: contents.programmes,
            alarmUpdateTimes: Dictionary(
                contents.alarms.compactMap { $0.id.map { ($0, written) } },
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
