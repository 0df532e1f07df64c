/// One slot of a station's weekly schedule (a row of `programs`): on a weekday, on one date, or daily when
/// neither is set. `reserved` (`isOrdered`) asks for a chime and a tune-in at its start.
/// An end earlier than the begin means the programme runs past midnight.
public struct Programme: Hashable, Sendable, Codable {
    public static let maxTextLength = 1000

    public var id: Int64?
    public var name: String
    public var begin: LocalTime
    public var end: LocalTime
    public var reserved: Bool
    public var stationID: Int64?
    public var weekday: Weekday?
    public var date: LocalDate?
    public var host: String?
    public var details: String?
    public var importSource: String?

    public init(
        id: Int64? = nil, name: String, begin: LocalTime, end: LocalTime, reserved: Bool = false,
        stationID: Int64? = nil, weekday: Weekday? = nil, date: LocalDate? = nil, host: String? = nil,
        details: String? = nil, importSource: String? = nil
    ) {
        self.id = id
        self.name = name
        self.begin = begin
        self.end = end
        self.reserved = reserved
        self.stationID = stationID
        self.weekday = weekday
        self.date = date
        self.host = host
        self.details = details
        self.importSource = importSource
    }

    public mutating func validate() throws(ValidationError) {
        name = try Names.validated(name, what: "Programme name")
        guard begin != end else {
            throw ValidationError("Programme '\(name)' begins and ends at \(begin); give it a length.")
        }
        guard weekday == nil || date == nil else {
            throw ValidationError("Programme '\(name)' has both a weekday and a date; give one or the other.")
        }
        for (label, text) in [("host", host), ("description", details), ("import source", importSource)] {
            if let text, text.count > Programme.maxTextLength {
                throw ValidationError("Programme \(label) is \(text.count) characters long; at most \(Programme.maxTextLength) are allowed.")
            }
        }
    }
}
