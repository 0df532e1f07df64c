import AubadeCore
import AubadeSystemAsync
public import Foundation

extension RunningClock {
    /// A search of the public directory (`GET /directory/search`): asked on a thread of its own
    /// (`deps.directory`), so a slow mirror never holds the clock; nothing is stored.
    func searchDirectory(_ query: DirectoryQuery) async throws(ClockError) -> [DirectoryStation] {
        let directory = try stationDirectory()
        return try await runBlocking("aubade-directory") { () throws(ClockError) -> [DirectoryStation] in
            do throws(DirectoryError) { return try directory.search(query) } catch {
                throw ClockError(.upstream, error.message)
            }
        }
    }

    /// Saves the directory's station `id` (`POST /stations/from-directory`): looked up and its logo fetched off
    /// the clock's thread (`DirectoryStationAdd`, the CLI's flow), then saved as any station is (`Store.apply`); a
    /// save that fails takes the new logo with it.
    func addFromDirectory(id: String, name: String?) async throws(ClockError) -> EditResult {
        let directory = try stationDirectory()
        guard let logos = deps.logos else {
            throw ClockError(.failed, deps.store.readOnlyReason ?? "This clock's store keeps no station logos.")
        }
        let flow = DirectoryStationAdd(directory: directory, logos: logos)
        let saved = Array(catalogue.stations.values)
        let prepared = try await runBlocking("aubade-directory") { () throws(ClockError) -> DirectoryStationAdd.Prepared in
            try flow.prepare(id: id, name: name, alternate: nil, saved: saved)
        }
        if let warning = prepared.warning { effects.emit("directory", ["id": id, "warning": warning]) }
        do {
            return try await apply(.addStation(prepared.fields), deps.time.now())
        } catch {
            await runBlocking("aubade-directory") { flow.discard(prepared) }
            throw error
        }
    }

    /// The stored logo of saved station `id` (`GET /stations/{id}/logo`): only the file its directory link names,
    /// in the store's logo folder, read off the clock's thread.
    func stationLogo(id: Int64) async throws(ClockError) -> StationLogo {
        lookAtStore(deps.time.now(), tokens: false)
        guard let station = catalogue.stations[id] else { throw ClockError(StoreError.notFound(what: "station", id: id)) }
        guard let name = station.directory?.logo, let type = DirectoryLink.logoMediaType(of: name), let logos = deps.logos
        else {
            throw ClockError(.notFound, "Station \(id) (\(station.name)) has no logo.")
        }
        guard let bytes = await runBlocking("aubade-logo", { logos.read(name) }) else {
            throw ClockError(.notFound, "The logo of station \(id) (\(station.name)) is missing from the logo folder.")
        }
        return StationLogo(bytes: bytes, mediaType: type)
    }

    private func stationDirectory() throws(ClockError) -> any StationDirectory {
        guard let directory = deps.directory else {
            throw ClockError(.off, "The station directory is off in the config ([directory] enabled = false).")
        }
        return directory
    }
}

/// A saved station's logo as stored: its bytes and the media type they are served as.
public struct StationLogo: Sendable {
    public var bytes: Data
    public var mediaType: String
}
