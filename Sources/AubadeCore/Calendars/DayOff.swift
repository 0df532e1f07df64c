import Foundation

/// A day off (a row of `daysOff`): a public holiday or a holiday away, one local date or a range of them, with
/// a name. An alarm with `skipDaysOff` does not ring on any of its dates (`DaysOff`, `AlarmSchedule`).
/// Typed ones (`aubade days-off add`) have no import source; imported ones (`days-off import`) carry their
/// calendar's location and a stable key, and are replaced by the next import of that calendar.
public struct DayOff: Hashable, Sendable, Codable {
    /// The longest range one row may span: a year.
    public static let maxDays = 366

    public var id: Int64?
    public var first: LocalDate
    public var last: LocalDate
    public var name: String
    public var importSource: String?
    public var importKey: String?

    public init(
        id: Int64? = nil, first: LocalDate, last: LocalDate, name: String, importSource: String? = nil,
        importKey: String? = nil
    ) {
        self.id = id
        self.first = first
        self.last = last
        self.name = name
        self.importSource = importSource
        self.importKey = importKey
    }

    /// Checks the range and the name; trims the name.
    public mutating func validate() throws(ValidationError) {
        name = try Names.validated(name, what: "The day off's name")
        guard first <= last else {
            throw ValidationError(
                "The day off ends (\(last)) before it begins (\(first)); give the earlier date first.", kind: .unprocessable)
        }
        guard last.dayNumber - first.dayNumber < DayOff.maxDays else {
            throw ValidationError(
                "The days off from \(first) to \(last) span more than \(DayOff.maxDays) days; split them.", kind: .unprocessable)
        }
    }

    /// "2026-12-24" or "2026-12-24..2026-12-26".
    public var rangeText: String { first == last ? "\(first)" : "\(first)..\(last)" }

    /// Whether `date` is one of its dates.
    public func contains(_ date: LocalDate) -> Bool { first <= date && date <= last }
}

/// A day off as `aubade days-off add` and the API give it — JSON keys = CLI words: `dates` ("YYYY-MM-DD" or
/// "YYYY-MM-DD..YYYY-MM-DD") and an optional `name` ("Day off" when none is given).
public struct DayOffFields: Sendable, Hashable, Codable {
    public var dates: String?
    public var name: String?

    public init(dates: String?, name: String? = nil) {
        self.dates = dates
        self.name = name
    }

    /// The day off these fields describe (no id yet), validated.
    public func dayOff() throws(ValidationError) -> DayOff {
        guard let dates else {
            throw ValidationError("A day off needs its date: give YYYY-MM-DD, or a range YYYY-MM-DD..YYYY-MM-DD.")
        }
        let parts = dates.components(separatedBy: "..")
        guard parts.count <= 2 else {
            throw ValidationError("Days off '\(dates)' is not a date or a range; write 2026-12-24 or 2026-12-24..2026-12-26.")
        }
        let first = try LocalDate(parsing: parts[0], field: "The day off's date")
        let last = try parts.count == 2 ? LocalDate(parsing: parts[1], field: "The day off's last date") : first
        var day = DayOff(first: first, last: last, name: name ?? "Day off")
        try day.validate()
        return day
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case dates, name
    }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.refuseUnknown(in: decoder, known: CodingKeys.allCases.map(\.rawValue), what: "day-off field")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            dates: try c.decodeIfPresent(String.self, forKey: .dates), name: try c.decodeIfPresent(String.self, forKey: .name))
    }
}
