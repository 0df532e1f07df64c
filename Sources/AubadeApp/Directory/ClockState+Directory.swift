import AubadeCore
public import Foundation

extension ClockState {
    /// Saves the directory's station `id` (`POST /stations/from-directory`): looked up and its logo fetched off
    /// the clock's thread (`DirectoryStationAdd`, the CLI's flow), then saved as any station is (`Store.apply`); a
    /// save that fails takes the new logo with it.
    mutating func addFromDirectory(id: String, name: String?, reply: ClockTicket) throws(ClockError) {
        guard context.caps.directory else { throw ClockCapabilities.directoryOff }
        guard context.caps.logos else {
            throw context.caps.noLogos
        }
        handOff(
            .prepareStation(id: id, name: name, saved: Array(context.catalogue.stations.values)),
            then: .prepared(reply: reply, id: id))
    }

    /// The directory's station came back looked up (or not): saved through the edit path.
    mutating func stationPrepared(_ result: Result<DirectoryStationAdd.Prepared, ClockError>, id: String, reply: ClockTicket) {
        switch result {
        case .failure(let error):
            respond(to: reply, failure: error)
        case .success(let prepared):
            if let warning = prepared.warning { context.effects.emit("directory", ["id": id, "warning": warning]) }
            edit(.addStation(prepared.fields), reply: reply, then: .stationAdded(prepared))
        }
    }

    /// The stored logo of saved station `id` (`GET /stations/{id}/logo`): only the file its directory link names,
    /// in the store's logo folder, read off the clock's thread.
    mutating func stationLogo(id: Int64, reply: ClockTicket) throws(ClockError) {
        guard let station = context.catalogue.stations[id] else { throw ClockError(StoreError.notFound(what: "station", id: id)) }
        guard let name = station.directory?.logo, let type = DirectoryLink.logoMediaType(of: name), context.caps.logos
        else {
            throw ClockError(.notFound, "Station \(id) (\(station.name)) has no logo.")
        }
        handOff(.readLogo(name: name), then: .logo(reply: reply, station: station, mediaType: type))
    }
}

/// A saved station's logo as stored: its bytes and the media type they are served as.
public struct StationLogo: Sendable {
    public var bytes: Data
    public var mediaType: String
}
