public import AubadeCore
public import Foundation

/// A programme as `aubade program … --json` and the API show it; `when` is "daily", a weekday ("sun") or a
/// date.
public struct ProgramDocument: Codable, Sendable, Hashable {
    public var id: Int64?
    public var name: String
    public var begin: String
    public var end: String
    public var weekday: String?
    public var date: String?
    public var when: String
    public var stationId: Int64?
    public var stationName: String?
    public var reserved: Bool
    public var host: String?
    public var description: String?
    /// The airing dates of an imported programme (`when` summarises them).
    public var dates: [String]?
    /// The zone its times are read in (nil: the clock's).
    public var timeZone: String?
    public var location: String?
    public var url: String?
    /// The calendar it was imported from, if any.
    public var source: String?
    /// With a reservation: the reminder's lead in seconds.
    public var remindSeconds: Int?
    /// In an on-air answer: when this airing begins and ends.
    public var begins: Date?
    public var ends: Date?

    public init(_ p: Programme, stationNames: [Int64: String]) {
        id = p.id
        name = p.name
        begin = p.begin.description
        end = p.end.description
        weekday = p.weekday?.shortName
        date = p.date?.description
        when = ProgramDocument.when(p)
        stationId = p.stationID
        stationName = p.stationID.map { stationNames[$0] ?? "station \($0)" }
        reserved = p.reserved
        host = p.host
        description = p.details
        dates = p.dates?.map(\.description)
        timeZone = p.timeZoneID
        location = p.location
        url = p.url
        source = p.importSource
        remindSeconds = p.remindSeconds
    }

    /// An airing: the programme, with when it begins and ends.
    public init(_ a: ProgrammeGuide.Airing, stationNames: [Int64: String]) {
        self.init(a.programme, stationNames: stationNames)
        begins = a.begin
        ends = a.end
    }

    /// "daily", "sun", "2026-12-24", or for imported dates "12 dates, mon,tue, 2027-03-22 to 2027-04-06".
    public static func when(_ p: Programme) -> String {
        if let dates = p.dates { return LocalDate.summary(of: dates) }
        return p.weekday?.shortName ?? p.date?.description ?? "daily"
    }
}

/// `{"programmes": […]}`.
public struct ProgramList: Codable, Sendable, Hashable {
    public var programmes: [ProgramDocument]
    public init(_ programmes: [ProgramDocument]) { self.programmes = programmes }
}

/// `GET /programmes/now`: the programme on air now and the next to begin (of one station, or of all).
public struct OnAirDocument: Codable, Sendable, Hashable {
    public var now: ProgramDocument?
    public var next: ProgramDocument?

    public init(now: ProgramDocument?, next: ProgramDocument?) {
        self.now = now
        self.next = next
    }

    /// Both keys always present (null when there is none), so a page reads them without guessing.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(now, forKey: .now)
        try c.encode(next, forKey: .next)
    }
}
