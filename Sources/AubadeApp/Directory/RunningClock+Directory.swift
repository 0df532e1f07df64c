import AubadeCore
import AubadeSystemAsync
public import Foundation

extension RunningClock {
    /// A search of the public directory (`GET /directory/search`): it touches nothing of the clock, so `send` asks it
    /// without entering the clock, on a thread of its own (`deps.directory`); nothing is stored.
    nonisolated func searchDirectory(_ query: DirectoryQuery) async throws(ClockError) -> [DirectoryStation] {
        guard let directory = deps.directory else { throw RunningClock.directoryOff }
        return try await runBlocking("aubade-directory") { () throws(ClockError) -> [DirectoryStation] in
            do throws(DirectoryError) { return try directory.search(query) } catch {
                throw ClockError(.upstream, error.message)
            }
        }
    }

    /// Saves the directory's station `id` (`POST /stations/from-directory`): looked up and its logo fetched off
    /// the clock's thread (`DirectoryStationAdd`, the CLI's flow), then saved as any station is (`Store.apply`); a
    /// save that fails takes the new logo with it.
    func addFromDirectory(id: String, name: String?, reply: ClockTicket) throws(ClockError) {
        guard deps.directory != nil else { throw RunningClock.directoryOff }
        guard deps.logos != nil else {
            throw ClockError(.failed, deps.store.readOnlyReason ?? "This clock's store keeps no station logos.")
        }
        start(
            .prepareStation(id: id, name: name, saved: Array(catalogue.stations.values)), then: .prepared(reply: reply, id: id))
    }

    /// The directory's station came back looked up (or not): saved through the edit path.
    func stationPrepared(_ result: Result<DirectoryStationAdd.Prepared, ClockError>, id: String, reply: ClockTicket) {
        switch result {
        case .failure(let error):
            respond(to: reply, failure: error)
        case .success(let prepared):
            if let warning = prepared.warning { effects.emit("directory", ["id": id, "warning": warning]) }
            edit(.addStation(prepared.fields), reply: reply, then: .stationAdded(prepared))
        }
    }

    /// The stored logo of saved station `id` (`GET /stations/{id}/logo`): only the file its directory link names,
    /// in the store's logo folder, read off the clock's thread.
    func stationLogo(id: Int64, reply: ClockTicket) throws(ClockError) {
        lookAtStore(deps.time.now(), tokens: false)
        guard let station = catalogue.stations[id] else { throw ClockError(StoreError.notFound(what: "station", id: id)) }
        guard let name = station.directory?.logo, let type = DirectoryLink.logoMediaType(of: name), deps.logos != nil
        else {
            throw ClockError(.notFound, "Station \(id) (\(station.name)) has no logo.")
        }
        start(.readLogo(name: name), then: .logo(reply: reply, station: station, mediaType: type))
    }

    static let directoryOff = ClockError(.off, "The station directory is off in the config ([directory] enabled = false).")
}

/// A saved station's logo as stored: its bytes and the media type they are served as.
public struct StationLogo: Sendable {
    public var bytes: Data
    public var mediaType: String
}
