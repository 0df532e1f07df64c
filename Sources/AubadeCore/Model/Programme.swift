public import Foundation

/// One slot of a station's schedule (a row of `programs`): on a weekday, on one date, on a list of dates (an
/// imported calendar's recurrence, expanded by libical), or daily when none is set. `reserved` (`isOrdered`) asks
/// for a chime and a tune-in at its start; `remindSeconds` moves the chime that much earlier (the radio still
/// tunes in at the start). An end earlier than the begin means the programme runs past midnight.
///
/// `begin` and `end` are wall-clock times of `timeZoneID` (nil: the clock's zone — a typed programme, or an
/// iCalendar "floating" time), resolved per local date by `ZoneCalendar` like alarms (R2, R3): a weekly 07:00
/// show is at 07:00 local on both sides of a DST change.
public struct Programme: Hashable, Sendable, Codable {
    public static let maxTextLength = 1000
    /// The longest lead of a reminder: a day.
    public static let remindRange = 0...86_400

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
    /// The airing dates of an imported recurrence, ascending (nil for weekly, daily and one-date rows).
    public var dates: [LocalDate]?
    /// The zone `begin` and `end` are read in; nil is the clock's zone.
    public var timeZoneID: String?
    /// What identifies the programme within its import source across re-imports (the iCalendar UID, or a
    /// stable key made from the row), so that a re-import keeps its id, its reservation and its alarms.
    public var importKey: String?
    public var location: String?
    public var url: String?
    /// With a reservation: how long before the start the reminder chime sounds (nil: at the start).
    public var remindSeconds: Int?

    public init(
        id: Int64? = nil, name: String, begin: LocalTime, end: LocalTime, reserved: Bool = false,
        stationID: Int64? = nil, weekday: Weekday? = nil, date: LocalDate? = nil, host: String? = nil,
        details: String? = nil, importSource: String? = nil, dates: [LocalDate]? = nil, timeZoneID: String? = nil,
        importKey: String? = nil, location: String? = nil, url: String? = nil, remindSeconds: Int? = nil
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
        self.dates = dates
        self.timeZoneID = timeZoneID
        self.importKey = importKey
        self.location = location
        self.url = url
        self.remindSeconds = remindSeconds
    }

    /// Whether the programme airs (begins) on local `date` of its zone: one of its dates, its one date, its
    /// weekday, or every date.
    public func airs(on date: LocalDate) -> Bool {
        if let dates { return dates.containsSorted(date) }
        if let day = self.date { return day == date }
        if let weekday { return weekday == date.weekday }
        return true
    }

    /// The local dates (of its zone) it airs on, ascending, among the dates numbered `first` through `last`.
    /// Without `last` — "what comes next?" — the dates numbered `first` to `first + searchDays`, or for a dated
    /// programme its next few dates at or after `first`, however far ahead.
    public func airingDates(from first: Int, through last: Int?, searchDays: Int) -> [LocalDate] {
        let explicit: [LocalDate]? = dates ?? date.map { [$0] }
        if let explicit {
            guard let start = LocalDate(dayNumber: first), let index = explicit.firstIndexSorted(atOrAfter: start) else {
                return []
            }
            let ahead = explicit[index...]
            guard let last else { return Array(ahead.prefix(3)) }
            return Array(ahead.prefix { $0.dayNumber <= last })
        }
        let end = last ?? first + searchDays
        guard first <= end else { return [] }
        return (first...end).compactMap { LocalDate(dayNumber: $0) }.filter { weekday == nil || $0.weekday == weekday }
    }

    /// The zone its times are read in: its own, else `clockZone` (also when its id is unknown).
    public func zone(clockZone: TimeZone) -> TimeZone {
        timeZoneID.flatMap { TimeZone(identifier: $0) } ?? clockZone
    }

    public mutating func validate() throws(ValidationError) {
        name = try Names.validated(name, what: "Programme name")
        guard begin != end else {
            throw ValidationError("Programme '\(name)' begins and ends at \(begin); give it a length.", kind: .unprocessable)
        }
        guard weekday == nil || date == nil else {
            throw ValidationError("Programme '\(name)' has both a weekday and a date; give one or the other.")
        }
        if let dates {
            guard weekday == nil, date == nil else {
                throw ValidationError("Programme '\(name)' has a list of dates and a weekday or date; give one of them.")
            }
            guard !dates.isEmpty else { throw ValidationError("Programme '\(name)' has an empty list of dates.") }
            guard zip(dates, dates.dropFirst()).allSatisfy({ $0 < $1 }) else {
                throw ValidationError("Programme '\(name)' has its dates out of order or twice.")
            }
        }
        if let zone = timeZoneID { _ = try Alarm.validTimeZone(zone) }
        if let remindSeconds, !Programme.remindRange.contains(remindSeconds) {
            throw ValidationError("A reminder lead of \(DurationText.format(remindSeconds)) is out of range; use 0s to 24h.")
        }
        for (label, text) in [
            ("host", host), ("description", details), ("import source", importSource),
            ("location", location), ("URL", url), ("import key", importKey),
        ] {
            if let text, text.count > Programme.maxTextLength {
                throw ValidationError(
                    "Programme \(label) is \(text.count) characters long; at most \(Programme.maxTextLength) are allowed.")
            }
        }
    }
}
