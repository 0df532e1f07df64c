/// A new programme as `aubade program add` and the API give it — JSON keys = CLI options: `name`, `begin`,
/// `end` ("HH:MM"), `station` (a saved station's name), and `weekday` ("mon" … "sun") or `date`
/// ("YYYY-MM-DD"); neither means daily. The store looks the station up inside its write transaction.
public struct ProgrammeFields: Sendable, Hashable, Codable {
    public var name: String?
    public var begin: String?
    public var end: String?
    public var station: String?
    public var weekday: String?
    public var date: String?

    public init(
        name: String?, begin: String?, end: String?, station: String?, weekday: String? = nil,
        date: String? = nil
    ) {
        self.name = name
        self.begin = begin
        self.end = end
        self.station = station
        self.weekday = weekday
        self.date = date
    }

    /// The programme (no id, not reserved) on the station `stationNamed` finds; each missing or bad field is
    /// refused with the sentence `program add` prints.
    public func programme(stationNamed: (String) throws -> Station?) throws -> Programme {
        var programme = try draft()
        let station = self.station ?? ""
        guard let found = try stationNamed(station), let id = found.id else {
            throw ValidationError("No station is named '\(station)'; see 'aubade station list'.", kind: .unprocessable)
        }
        programme.stationID = id
        try programme.validate()
        return programme
    }

    /// The fields checked on their own, before any station is looked up (so a command can refuse them before it
    /// opens anything): every field present and well formed. The result has no station yet.
    public func draft() throws(ValidationError) -> Programme {
        guard let name else { throw ValidationError("A programme needs a name: add --name, e.g. --name 'Night Jazz'.") }
        guard let begin else { throw ValidationError("A programme needs a begin time: add --begin HH:MM, e.g. --begin 22:00.") }
        guard let end else { throw ValidationError("A programme needs an end time: add --end HH:MM, e.g. --end 23:00.") }
        guard station != nil else {
            throw ValidationError(
                "A programme needs a station: add --station with a saved station's name (see 'aubade station list').")
        }
        var programme = Programme(
            name: name, begin: try LocalTime(parsing: begin, field: "Begin time"),
            end: try LocalTime(parsing: end, field: "End time"))
        programme.weekday = try weekday.map(ProgrammeFields.weekday(parsing:))
        programme.date = try date.map { text throws(ValidationError) in try LocalDate(parsing: text, field: "Programme date") }
        return programme
    }

    public static func weekday(parsing text: String) throws(ValidationError) -> Weekday {
        guard let day = Weekday(name: text.trimmingSpaces) else {
            throw ValidationError("Weekday '\(text)' is unknown; use mon, tue, wed, thu, fri, sat or sun.")
        }
        return day
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, begin, end, station, weekday, date
    }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.refuseUnknown(in: decoder, known: CodingKeys.allCases.map(\.rawValue), what: "programme field")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decodeIfPresent(String.self, forKey: .name), begin: try c.decodeIfPresent(String.self, forKey: .begin),
            end: try c.decodeIfPresent(String.self, forKey: .end), station: try c.decodeIfPresent(String.self, forKey: .station),
            weekday: try c.decodeIfPresent(String.self, forKey: .weekday), date: try c.decodeIfPresent(String.self, forKey: .date)
        )
    }
}
