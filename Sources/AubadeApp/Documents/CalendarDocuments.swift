import AubadeCore
import Foundation

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
