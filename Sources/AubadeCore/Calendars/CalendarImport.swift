public import Foundation

/// A calendar read and checked, ready to replace what its source imported before — the value
/// `ClockEdit.importCalendar` carries to `Store.apply`, which does it in one IMMEDIATE transaction (nothing is
/// ever half-imported). Made by AubadeCalendar's readers (iCalendar through libical, JSON, CSV) from a file, a
/// URL or the cached copy of one.
public struct CalendarImport: Sendable, Hashable, Codable {
    /// What the calendar holds.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A station's programme schedule (`programs`).
        case programmes
        /// Public holidays or holidays away (`daysOff`).
        case daysOff
    }

    public var kind: Kind
    /// The source as the user named it: an absolute file path or an http(s) URL. Re-importing the same
    /// location replaces what it brought before.
    public var location: String
    /// The station the programmes are on (a saved station's name), if any.
    public var station: String?
    /// "ics", "json" or "csv".
    public var format: String
    /// SHA-256 of the calendar's bytes, hex: a refresh whose bytes did not change imports nothing.
    public var contentHash: String
    /// The last local date open-ended recurrences were expanded to (nil when none were open-ended).
    public var expandedThrough: LocalDate?
    /// The programmes, without ids (a re-import keeps the ids of those whose `importKey` it finds again).
    public var programmes: [Programme]
    public var daysOff: [DayOff]
    /// The name of the file in the calendar cache folder that holds the calendar's bytes, kept as the source's
    /// cached copy once the import is committed (nil: keep the copy there is).
    public var staged: String?

    public init(
        kind: Kind, location: String, station: String? = nil, format: String, contentHash: String,
        expandedThrough: LocalDate? = nil, programmes: [Programme] = [], daysOff: [DayOff] = [],
        staged: String? = nil
    ) {
        self.kind = kind
        self.location = location
        self.station = station
        self.format = format
        self.contentHash = contentHash
        self.expandedThrough = expandedThrough
        self.programmes = programmes
        self.daysOff = daysOff
        self.staged = staged
    }
}

/// A calendar source as stored (`calendarSources`): where it comes from, what it holds, when it was last
/// imported and how far its open-ended recurrences reach.
public struct CalendarSource: Sendable, Hashable, Codable {
    public var id: Int64
    public var kind: CalendarImport.Kind
    public var location: String
    public var stationID: Int64?
    public var format: String
    public var contentHash: String
    public var importedAt: Date
    public var expandedThrough: LocalDate?

    public init(
        id: Int64, kind: CalendarImport.Kind, location: String, stationID: Int64?, format: String,
        contentHash: String, importedAt: Date, expandedThrough: LocalDate?
    ) {
        self.id = id
        self.kind = kind
        self.location = location
        self.stationID = stationID
        self.format = format
        self.contentHash = contentHash
        self.importedAt = importedAt
        self.expandedThrough = expandedThrough
    }

    /// Whether the location is a URL (refreshed on a schedule) rather than a file (re-read from the cache).
    public var isURL: Bool { location.hasPrefix("http://") || location.hasPrefix("https://") }
}

/// What an import changed, for the sentence the user sees.
public struct ImportSummary: Sendable, Hashable, Codable {
    public var kind: CalendarImport.Kind
    public var location: String
    public var sourceID: Int64
    /// Rows now held for the source.
    public var count: Int
    public var added: Int
    public var updated: Int
    public var removed: Int
    /// Reservations kept across the re-import.
    public var reservationsKept: Int
    /// Alarms tied to a programme whose time changed with it, and those whose programme disappeared.
    public var alarmsMoved: [Int64]
    public var alarmsOrphaned: [Int64]
    /// True when the bytes were those already imported and nothing needed expanding: nothing was written.
    public var unchanged: Bool

    public init(
        kind: CalendarImport.Kind, location: String, sourceID: Int64, count: Int, added: Int, updated: Int,
        removed: Int, reservationsKept: Int, alarmsMoved: [Int64], alarmsOrphaned: [Int64], unchanged: Bool
    ) {
        self.kind = kind
        self.location = location
        self.sourceID = sourceID
        self.count = count
        self.added = added
        self.updated = updated
        self.removed = removed
        self.reservationsKept = reservationsKept
        self.alarmsMoved = alarmsMoved
        self.alarmsOrphaned = alarmsOrphaned
        self.unchanged = unchanged
    }

    /// "Imported 42 programmes from … (3 new, 38 updated, 1 removed; 2 reservations kept)."
    public var sentence: String {
        let what = kind == .programmes ? "programme" : "day off"
        let plural = kind == .programmes ? "programmes" : "days off"
        let noun = count == 1 ? what : plural
        if unchanged { return "\(location) has not changed; \(count) \(noun) stay as imported." }
        var parts = ["\(added) new", "\(updated) kept", "\(removed) removed"]
        if reservationsKept > 0 { parts.append("\(reservationsKept) reservation(s) kept") }
        var text = "Imported \(count) \(noun) from \(location) (\(parts.joined(separator: ", ")))."
        if !alarmsMoved.isEmpty {
            text += " Alarm(s) \(alarmsMoved.map(String.init).joined(separator: ", ")) moved with their programme."
        }
        if !alarmsOrphaned.isEmpty {
            text +=
                " The programme of alarm(s) \(alarmsOrphaned.map(String.init).joined(separator: ", ")) is gone; they ring at its last known time."
        }
        return text
    }
}
