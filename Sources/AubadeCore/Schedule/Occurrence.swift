public import Foundation

/// One firing of an alarm's rule: the local date the rule names and the instant it resolves to.
///
/// The date is the rule's date, which can differ from the local date of `instant` when the wall time fell
/// into a gap that spans midnight (a skipped date). `skipDate` and one-shot dates compare against `date`.
public struct Occurrence: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let date: LocalDate
    public let instant: Date

    /// The occurrence the rule names for `date`, resolved to `instant`.
    public init(date: LocalDate, instant: Date) {
        self.date = date
        self.instant = instant
    }

    /// Ordered by instant, then by date.
    public static func < (a: Occurrence, b: Occurrence) -> Bool {
        a.instant != b.instant ? a.instant < b.instant : a.date < b.date
    }

    /// "2026-03-29 @ 2026-03-29T01:30:00Z", for logs and test failures.
    public var description: String { "\(date) @ \(instant.formatted(.iso8601))" }
}

/// Why an occurrence passes over without ringing.
public enum SkipReason: Hashable, Sendable {
    /// `alarm skip-next`.
    case skipNext
    /// Its date is a day off (the name), and the alarm skips days off.
    case dayOff(String)

    /// "Skipped once (skip-next); it rings again after that." / "skipped: Christmas Day".
    public var sentence: String {
        switch self {
        case .skipNext: "Skipped once (skip-next); it rings again after that."
        case .dayOff(let name): "skipped: \(name)"
        }
    }

    /// What the history's `skipped` event says besides the occurrence ("day off: Christmas Day"), or "".
    public var historyDetail: String {
        switch self {
        case .skipNext: ""
        case .dayOff(let name): HistoryDetail.dayOff(name)
        }
    }
}
