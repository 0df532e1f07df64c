public import AubadeCore
public import Foundation

/// One event of the history as the API shows it: when (Unix seconds), which alarm (if any), what and the
/// detail text.
public struct HistoryDocument: Codable, Sendable, Hashable {
    public var at: Date
    public var alarm: Int64?
    public var kind: String
    public var detail: String

    public init(_ event: HistoryEvent) {
        at = event.at
        alarm = event.alarmID
        kind = event.kind
        detail = event.detail
    }
}

/// `{"events": […]}`, newest first.
public struct HistoryList: Codable, Sendable, Hashable {
    public var events: [HistoryDocument]
    public init(_ events: [HistoryDocument]) { self.events = events }
}

/// One morning's report: the local date and one line per alarm run (`MorningReport`).
public struct ReportDocument: Codable, Sendable, Hashable {
    public var date: String
    public var lines: [String]

    public init(date: String, lines: [String]) {
        self.date = date
        self.lines = lines
    }
}

/// `{"reports": […]}`, newest day first.
public struct ReportList: Codable, Sendable, Hashable {
    public var reports: [ReportDocument]
    public init(_ reports: [ReportDocument]) { self.reports = reports }
}
