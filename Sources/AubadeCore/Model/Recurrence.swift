/// When an alarm repeats: on a set of weekdays, once on one local date, or on a list of dates (only an alarm
/// tied to an imported programme, whose airing dates libical expanded).
public enum Recurrence: Hashable, Sendable, Codable {
    case weekly(Weekdays)
    case once(LocalDate)
    /// Ascending, no date twice.
    case dates([LocalDate])

    /// The `repeated` column: "mon,tue,…" for weekly, "once" for a one-shot (its date is a column of its own),
    /// "dates" for a list of dates (in a column of its own).
    public var repeatedText: String {
        switch self {
        case .weekly(let days): days.description
        case .once: "once"
        case .dates: "dates"
        }
    }

    /// The list of dates, if it is one.
    public var dateList: [LocalDate]? {
        if case .dates(let dates) = self { return dates }
        return nil
    }

    public var onceDate: LocalDate? {
        if case .once(let date) = self { return date }
        return nil
    }

    /// Rebuilds a recurrence from its stored columns.
    public init(repeated: String, onceDate: LocalDate?, dates: [LocalDate]? = nil) throws(ValidationError) {
        if repeated == "dates" {
            guard let dates else { throw ValidationError("An alarm on a list of dates has no dates stored.") }
            self = .dates(dates)
        } else if repeated == "once" {
            guard let onceDate else { throw ValidationError("A one-shot alarm has no date stored.") }
            self = .once(onceDate)
        } else {
            let days = try Weekdays(parsing: repeated)
            self = .weekly(days)
        }
    }

    /// Parses the user's `--days` (and `--date` for "once"). A "once" without a date takes `defaultOnceDate`,
    /// the next day on which the alarm's time is still ahead.
    public init(days: String, date: String?, defaultOnceDate: () -> LocalDate) throws(ValidationError) {
        let trimmed = days.trimmingSpaces.lowercased()
        if trimmed == "once" {
            self = .once(try date.map { text throws(ValidationError) in try LocalDate(parsing: text) } ?? defaultOnceDate())
            return
        }
        if date != nil {
            throw ValidationError("A date only goes with --days once; repeating alarms ring on weekdays.")
        }
        self = .weekly(try Weekdays(parsing: trimmed))
    }

    /// Human form for lists: "mon-fri", "daily", "once 2026-12-24".
    public var summary: String {
        switch self {
        case .once(let date): return "once \(date)"
        case .dates(let dates): return LocalDate.summary(of: dates)
        case .weekly(let days):
            if days == .all { return "daily" }
            if days == .workdays { return "mon-fri" }
            if days == .weekend { return "sat,sun" }
            return days.description
        }
    }
}

extension LocalDate {
    /// "3 dates, fri, 2026-11-27 to 2026-12-11" — a list of dates in a few words.
    public static func summary(of dates: [LocalDate]) -> String {
        guard let first = dates.first, let last = dates.last else { return "no dates" }
        if dates.count == 1 { return "once \(first)" }
        let weekdays = Weekdays(dates.map(\.weekday))
        let days = weekdays == .all ? "daily" : weekdays.description
        return "\(dates.count) dates, \(days), \(first) to \(last)"
    }
}

extension Array where Element == LocalDate {
    /// Whether the ascending array holds `date` (binary search).
    public func containsSorted(_ date: LocalDate) -> Bool {
        firstIndexSorted(atOrAfter: date).map { self[$0] == date } ?? false
    }

    /// The index of the first date at or after `date` in the ascending array, or nil when there is none.
    public func firstIndexSorted(atOrAfter date: LocalDate) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if self[mid] < date { low = mid + 1 } else { high = mid }
        }
        return low < count ? low : nil
    }
}
