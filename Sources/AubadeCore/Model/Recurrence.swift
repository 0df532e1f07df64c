/// When an alarm repeats: on a set of weekdays, or once on one local date.
public enum Recurrence: Hashable, Sendable, Codable {
    case weekly(Weekdays)
    case once(LocalDate)

    /// The `repeated` column: "mon,tue,…" for weekly, "once" for a one-shot (its date is a column of its own).
    public var repeatedText: String {
        switch self {
        case .weekly(let days): days.description
        case .once: "once"
        }
    }

    public var onceDate: LocalDate? {
        if case .once(let date) = self { return date }
        return nil
    }

    /// Rebuilds a recurrence from its stored columns.
    public init(repeated: String, onceDate: LocalDate?) throws(ValidationError) {
        if repeated == "once" {
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
        case .weekly(let days):
            if days == .all { return "daily" }
            if days == .workdays { return "mon-fri" }
            if days == .weekend { return "sat,sun" }
            return days.description
        }
    }
}
