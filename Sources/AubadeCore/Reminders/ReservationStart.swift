public import Foundation

/// One event of a reserved programme, at `start`: its start — the radio tunes to `stationID` (unless an alarm
/// rings), with a chime when `chimes` — or, when `reminderFor` is set, its reminder: a chime only, that long
/// before the programme starts at `reminderFor`.
public struct ReservationStart: Hashable, Sendable {
    public var programmeID: Int64
    public var name: String
    public var stationID: Int64
    public var start: Date
    /// Set on a reminder: when the programme itself starts.
    public var reminderFor: Date?
    /// Whether a chime plays at this event (a start without a reminder before it; every reminder).
    public var chimes: Bool

    /// The start of programme `programmeID` (called `name`, on `stationID`) at `start`.
    public init(programmeID: Int64, name: String, stationID: Int64, start: Date, chimes: Bool = true) {
        self.programmeID = programmeID
        self.name = name
        self.stationID = stationID
        self.start = start
        self.reminderFor = nil
        self.chimes = chimes
    }

    /// The reminder, at `start`, of the programme starting at `reminderFor`.
    public init(programmeID: Int64, name: String, stationID: Int64, start: Date, reminderFor: Date) {
        self.init(programmeID: programmeID, name: name, stationID: stationID, start: start)
        self.reminderFor = reminderFor
    }

    /// Whether it is a reminder (a chime only), not the start.
    public var isReminder: Bool { reminderFor != nil }
}
