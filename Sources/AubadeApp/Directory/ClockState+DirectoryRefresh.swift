import AubadeCore
import Foundation

extension ClockState {
    /// How often the saved directory stations are looked up again.
    static let directoryCheckEvery: TimeInterval = 86_400

    /// The saved stations that came from the directory, looked up there again once a day (`RefreshService.directory`
    /// sends the turn; `/json/stations/byuuid`, on a thread of its own): a station whose address moved takes the
    /// directory's new one through the edit path, and the clock says so. A directory that cannot be asked changes
    /// nothing and is one standing warning; a station the directory no longer lists, or now lists as one this clock
    /// cannot play, keeps its stored address. Alarms never wait for any of it: they play what is stored.
    mutating func refreshDirectoryStations(reply: ClockTicket) {
        let now = self.now.wall
        let linked = context.catalogue.stations.values.filter { $0.directory != nil }.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
        guard context.caps.directory, !linked.isEmpty else {
            context.warn("directory", nil)
            return respond(to: reply, .wait(.seconds(3600)))  // a station saved meanwhile is looked up within the hour
        }
        if let last = directoryCheckedAt, now < last.addingTimeInterval(ClockState.directoryCheckEvery) {
            let left = last.addingTimeInterval(ClockState.directoryCheckEvery).timeIntervalSince(now)
            return respond(to: reply, .wait(.seconds(Int(max(60, left)))))
        }
        directoryCheckedAt = now
        if let refusal = downloadRefusal() {
            context.warn("directory", "The saved directory stations were not looked up: \(refusal)")
            return respond(to: reply, .wait(.seconds(Int(ClockState.directoryCheckEvery))))
        }
        handOff(.lookUpStations(ids: linked.compactMap { $0.directory?.id }), then: .lookUp(reply: reply, linked: linked))
    }

    /// The directory answered (or not): each station that moved there is re-addressed, one after the other.
    mutating func directoryFound(_ result: Result<[DirectoryStation], DirectoryError>, linked: [Station], reply: ClockTicket) {
        let found: [DirectoryStation]
        switch result {
        case .failure(let error):
            context.warn(
                "directory",
                "The station directory could not be asked (\(error.message)); the saved stations play from their stored addresses."
            )
            return respond(to: reply, .wait(.seconds(Int(ClockState.directoryCheckEvery))))
        case .success(let list):
            found = list
        }
        context.warn("directory", nil)
        // The look-up took time: a station removed, re-addressed or re-linked meanwhile is left as the user made it.
        var moves: [RefreshRun.Item] = []
        for before in linked {
            guard let id = before.id, let station = context.catalogue.stations[id], station.url == before.url,
                station.directory?.id == before.directory?.id
            else {
                context.warn("directory-\(before.id ?? 0)", nil)
                continue
            }
            guard let listed = found.first(where: { $0.uuid == station.directory?.id }),
                listed.playability.isPlayable, let moved = try? StreamURL(parsing: listed.url),
                listed.urlKey != DirectoryStation.key(of: station.url.text)
            else { continue }
            moves.append(.move(station, to: moved))
        }
        startRefresh(RefreshRun(kind: .directory, items: moves), reply: reply)
    }

    /// A station's move came back from the store.
    mutating func stationMoved(_ station: Station, to moved: StreamURL, _ result: Result<Void, ClockError>, reply: ClockTicket) {
        let id = station.id ?? 0
        switch result {
        case .success:
            let message = "Station \(station.name) moved: it now plays from \(moved.text), as the directory lists it."
            context.effects.emit(
                "station-moved", ["station": id, "from": station.url.text, "to": moved.text, "message": message])
            context.warn("directory-\(id)", nil)
        case .failure(let error):
            context.warn(
                "directory-\(id)", "Station \(station.name) moved in the directory but was not updated: \(error.message)")
        }
        refreshItemDone(reply)
    }
}
