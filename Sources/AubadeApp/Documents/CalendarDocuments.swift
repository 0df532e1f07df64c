public import AubadeCore
public import Foundation

/// A day off as `aubade days-off … --json` and the API show it: `dates` as typed ("2026-12-24" or
/// "2026-12-24..2026-12-26"), and the calendar it came from, if imported.
public struct DayOffDocument: Codable, Sendable, Hashable {
    public var id: Int64?
    public var name: String
    public var first: String
    public var last: String
    public var dates: String
    public var source: String?

    public init(_ d: DayOff) {
        id = d.id
        name = d.name
        first = d.first.description
        last = d.last.description
        dates = d.rangeText
        source = d.importSource
    }
}

/// `{"daysOff": […]}`.
public struct DayOffList: Codable, Sendable, Hashable {
    public var daysOff: [DayOffDocument]
    public init(_ days: [DayOffDocument]) { daysOff = days }
}

/// What `program import` / `days-off import` changed: the counts, the alarms that moved with their programme
/// or lost it, and the sentence the CLI prints.
public struct ImportDocument: Codable, Sendable, Hashable {
    public var kind: String
    public var source: String
    public var sourceId: Int64
    public var count: Int
    public var added: Int
    public var kept: Int
    public var removed: Int
    public var reservationsKept: Int
    public var alarmsMoved: [Int64]
    public var alarmsOrphaned: [Int64]
    public var unchanged: Bool
    public var message: String

    public init(_ s: ImportSummary) {
        kind = s.kind.rawValue
        source = s.location
        sourceId = s.sourceID
        count = s.count
        added = s.added
        kept = s.updated
        removed = s.removed
        reservationsKept = s.reservationsKept
        alarmsMoved = s.alarmsMoved
        alarmsOrphaned = s.alarmsOrphaned
        unchanged = s.unchanged
        message = s.sentence
    }
}

/// An imported calendar as `aubade program sources` … and `GET /calendars` show it.
public struct CalendarSourceDocument: Codable, Sendable, Hashable {
    public var id: Int64
    public var kind: String
    public var location: String
    public var format: String
    public var station: String?
    public var importedAt: Date
    /// How far its open-ended recurrences are expanded (nil: none are open-ended).
    public var expandedThrough: String?
    /// Why its last refresh failed, while it does.
    public var problem: String?

    public init(_ s: CalendarSource, stationNames: [Int64: String], problem: String?) {
        id = s.id
        kind = s.kind.rawValue
        location = s.location
        format = s.format
        station = s.stationID.map { stationNames[$0] ?? "station \($0)" }
        importedAt = s.importedAt
        expandedThrough = s.expandedThrough?.description
        self.problem = problem
    }
}

/// `{"calendars": […]}`.
public struct CalendarSourceList: Codable, Sendable, Hashable {
    public var calendars: [CalendarSourceDocument]
    public init(_ calendars: [CalendarSourceDocument]) { self.calendars = calendars }
}
