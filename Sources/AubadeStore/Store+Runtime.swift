public import AubadeCore
public import Foundation
import GRDB

extension Store {
    /// Run-time state of every alarm that has any.
    public func runStates() throws(StoreError) -> [AlarmRunState] {
        let rows = try read { db in try AlarmStateRow.fetchAll(db) }
        var out: [AlarmRunState] = []
        for row in rows { out.append(try row.runState()) }
        return out
    }

    /// Commits `state` (and `event`, if given) in one transaction; returns once COMMIT returned (R9).
    public func save(_ state: AlarmRunState, recording event: HistoryEvent? = nil) throws(StoreError) {
        let row = AlarmStateRow(
            clockId: state.alarmID, phase: state.phase.rawValue, occurrence: state.occurrence,
            ringingSince: state.ringingSince, snoozedUntil: state.snoozedUntil, snoozeCount: state.snoozeCount,
            lastHandled: state.lastHandledOccurrence, updatedAt: now(), restCount: state.restCount,
            wakeCheckAt: state.wakeCheckAt)
        try write { db in
            guard try ClockRow.fetchOne(db, key: state.alarmID) != nil else {
                throw StoreError.notFound(what: "alarm", id: state.alarmID)
            }
            try row.upsert(db)
            if let event { _ = try insertEvent(event, db) }
        }
    }

    /// Appends to the event history.
    @discardableResult
    public func record(_ event: HistoryEvent) throws(StoreError) -> HistoryEvent {
        var saved = event
        saved.id = try write { db in try insertEvent(event, db) }
        return saved
    }

    /// The newest `limit` events, newest first; only those at or after `since` when given.
    public func events(limit: Int = 100, since: Date? = nil) throws(StoreError) -> [HistoryEvent] {
        let rows = try read { db in
            var request = EventRow.order(sql: "at DESC, eventId DESC").limit(limit)
            if let since { request = request.filter(sql: "at >= ?", arguments: [since]) }
            return try request.fetchAll(db)
        }
        return rows.map { HistoryEvent(id: $0.eventId, at: $0.at, alarmID: $0.clockId, kind: $0.kind, detail: $0.detail) }
    }

    /// When the newest event of one of `kinds` in the last `within` seconds happened, or nil when there is none
    /// (bounded, as the whole history may be years long and a clock without a microphone has no such event).
    public func lastEvent(of kinds: [String], within: TimeInterval = 2 * 86_400) throws(StoreError) -> Date? {
        let since = now() - within
        return try read { db in
            try EventRow.filter(kinds.contains(Column("kind"))).filter(sql: "at >= ?", arguments: [since])
                .order(sql: "at DESC").limit(1).fetchOne(db)?.at
        }
    }

    private func insertEvent(_ event: HistoryEvent, _ db: Database) throws -> Int64? {
        var row = EventRow(eventId: nil, at: event.at, clockId: event.alarmID, kind: event.kind, detail: event.detail)
        try row.insert(db)
        return row.eventId
    }
}
