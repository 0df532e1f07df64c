import AubadeCore

/// Why a calendar cannot be imported: one sentence, and the line of the file it is about when there is one
/// ("line 23: DTSTART '2026030X1T070000' is not a date-time."). Nothing is imported when one is thrown.
public struct CalendarError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based line of the file (for iCalendar, the first physical line of the folded content line).
    public let line: Int?
    /// The sentence, made plain (`OutsideText`, R40): it may quote what the calendar says, and is printed.
    public let problem: String

    /// The longest sentence kept, in characters.
    static let maxProblem = 500

    public init(line: Int?, _ problem: String) {
        self.line = line
        self.problem = OutsideText.clean(problem, limit: CalendarError.maxProblem)
    }

    /// "<location>, line 23: <problem>" — or without the line when the problem is the whole file's.
    public func sentence(location: String) -> String {
        if let line { return "\(location), line \(line): \(problem)" }
        return "\(location): \(problem)"
    }

    public var description: String {
        if let line { return "line \(line): \(problem)" }
        return problem
    }
}
