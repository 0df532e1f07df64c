import Foundation

/// One start of a reserved programme: at `start` a chime plays and the radio tunes to `stationID`.
public struct ReservationStart: Hashable, Sendable {
    public var programmeID: Int64
    public var name: String
    public var stationID: Int64
    public var start: Date

    /// The start of programme `programmeID` (called `name`, on `stationID`) at `start`.
    public init(programmeID: Int64, name: String, stationID: Int64, start: Date) {
        self.programmeID = programmeID
        self.name = name
        self.stationID = stationID
        self.start = start
    }
}
