/// The days off as the scheduler asks about them: which local date is one, and called what. Built once from the
/// stored rows (overlapping rows share a date; their names are joined in id order). Pure and cheap to query:
/// a dictionary keyed by day number.
public struct DaysOff: Sendable, Hashable {
    private var names: [Int: String]

    /// No days off.
    public static let none = DaysOff([])

    public init(_ days: [DayOff]) {
        var names: [Int: String] = [:]
        for day in days.sorted(by: { ($0.id ?? 0, $0.first) < ($1.id ?? 0, $1.first) }) {
            let first = day.first.dayNumber
            // A row is validated to at most a year; the bound only guards against hand-edited tables.
            let last = min(day.last.dayNumber, first + DayOff.maxDays)
            guard first <= last else { continue }
            for n in first...last {
                if let known = names[n] {
                    if !known.split(separator: ",").map({ $0.trimmingSpaces }).contains(day.name) {
                        names[n] = known + ", " + day.name
                    }
                } else {
                    names[n] = day.name
                }
            }
        }
        self.names = names
    }

    /// The name of the day off on `date`, or nil when it is not one.
    public func name(on date: LocalDate) -> String? { names[date.dayNumber] }

    public var isEmpty: Bool { names.isEmpty }

    /// Whether an occurrence of `alarm` on `date` passes over because of a day off, and the day's name: only
    /// repeating alarms (weekly, or on a programme's list of dates) that skip days off do; one-shot alarms and
    /// alarms without the flag ring as usual.
    public func skips(_ alarm: Alarm, on date: LocalDate) -> String? {
        guard alarm.skipDaysOff, alarm.recurrence.onceDate == nil else { return nil }
        return name(on: date)
    }
}
