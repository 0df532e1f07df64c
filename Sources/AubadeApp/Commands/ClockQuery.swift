public import AubadeCore
public import Foundation

/// A question about what the running clock holds — read-only, answered from what it runs on (after picking
/// up another process's commit, if any), never a second path to the store.
public enum ClockQuery: Sendable, Hashable, Codable {
    case alarms
    case alarm(id: Int64)
    /// The next `count` firings of the enabled alarms, skipped ones included and marked (`aubade alarm next`).
    case nextFirings(count: Int)
    case stations
    case programmes
    /// The programme on air at `at` (default: now) and the next to begin, on the station called `station` (any
    /// station: nil).
    case programmeNow(station: String?, at: Date? = nil)
    /// The days off, by first date.
    case daysOff
    /// The imported calendars: where from, when, and whether the last refresh failed.
    case calendars
    case settings
    /// The newest `limit` history events.
    case history(limit: Int)
    /// The morning reports of the last `days` local dates, today included.
    case reports(days: Int)
    /// The podcasts followed, with their episodes as last read.
    case podcasts
    /// The podcast called `name` (or with that id), with its newest `limit` episodes.
    case podcast(name: String, limit: Int)

    public static let countRange = 1...100
    public static let historyRange = 1...1000
    public static let reportDaysRange = 1...31
}

/// A query's answer: the same documents `aubade … --json` prints.
public enum ClockAnswer: Sendable, Codable {
    case alarms(AlarmList)
    case alarm(AlarmDocument)
    case next(NextFirings)
    case stations(StationList)
    case programmes(ProgramList)
    case onAir(OnAirDocument)
    case settings([String: JSONScalar])
    case history(HistoryList)
    case reports(ReportList)
    case daysOff(DayOffList)
    case calendars(CalendarSourceList)
    case podcasts(PodcastList)
    case podcast(PodcastDocument)
}

/// What an edit saved, with the station names its documents show.
public struct EditResult: Sendable, Codable {
    public var outcome: EditOutcome
    public var stationNames: [Int64: String]

    public init(_ outcome: EditOutcome, stationNames: [Int64: String]) {
        self.outcome = outcome
        self.stationNames = stationNames
    }
}

/// A pairing code the kiosk shows: 6 digits, valid until `expiresAt`.
public struct PairingCode: Sendable, Codable, Hashable {
    public var code: String
    public var expiresAt: Date

    public init(code: String, expiresAt: Date) {
        self.code = code
        self.expiresAt = expiresAt
    }
}

/// A device token just made: its text (shown this once; only its hash is stored) and its name.
public struct NewToken: Sendable, Codable, Hashable {
    public var token: String
    public var name: String
    public var id: Int64

    public init(token: String, name: String, id: Int64) {
        self.token = token
        self.name = name
        self.id = id
    }
}

/// `GET /alarms/next`: the next firings and a plain sentence about tomorrow.
public struct NextFirings: Sendable, Codable, Hashable {
    public struct Entry: Sendable, Codable, Hashable {
        public var alarm: Int64
        public var name: String
        public var at: Date
        /// "Tue 25 Nov 07:30" in the alarm's zone.
        public var local: String
        public var skipped: Bool
        /// Why it will not ring (a skipped occurrence): "Skipped once (skip-next); …" or "skipped: Christmas Day".
        public var reason: String?
        /// The programme on air when it rings, on the alarm's station (or the one it follows).
        public var onAir: String?
    }

    public var firings: [Entry]
    /// "No alarm tomorrow." or "Tomorrow: Work at 07:30." — tomorrow being the next local date of the clock.
    public var tomorrow: String
}
