import AubadeCore
import Foundation

// The tests of sources, stations and alarm fields that follow no podcast: a `podcast:` source is refused there as
// it is on a clock that follows none.
extension AlarmPatch {
    func apply(
        to alarm: inout Alarm, zone: TimeZone, now: Date, stationNamed: (String) throws -> Station?,
        programmeWithID: (Int64) throws -> Programme? = { _ in nil }
    ) throws {
        try apply(
            to: &alarm, zone: zone, now: now, stationNamed: stationNamed, podcastNamed: { _ in nil },
            programmeWithID: programmeWithID)
    }

    func newAlarm(
        settings: AppSettings, zone: TimeZone, now: Date, stationNamed: (String) throws -> Station?,
        programmeWithID: (Int64) throws -> Programme? = { _ in nil }
    ) throws -> Alarm {
        try newAlarm(
            settings: settings, zone: zone, now: now, stationNamed: stationNamed, podcastNamed: { _ in nil },
            programmeWithID: programmeWithID)
    }
}

extension SoundSource {
    init(userText text: String, stationNamed: (String) throws -> Station?) throws {
        try self.init(userText: text, stationNamed: stationNamed, podcastNamed: { _ in nil })
    }
}

extension ListenSource {
    init(userText text: String, stationNamed: (String) throws -> Station?) throws {
        try self.init(userText: text, stationNamed: stationNamed, podcastNamed: { _ in nil })
    }
}
