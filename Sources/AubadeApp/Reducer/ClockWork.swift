import AubadeCore
import AubadeSystemAsync
import Foundation

/// Names a reply the clock owes its caller, or a piece of slow work it handed off. Tickets are numbered by the
/// clock in the order it hands them out, and each is used once.
struct ClockTicket: Hashable, Comparable, Sendable, CustomStringConvertible {
    let number: Int
    static func < (a: ClockTicket, b: ClockTicket) -> Bool { a.number < b.number }
    var description: String { "#\(number)" }
}

/// Slow work the clock hands off instead of waiting for it (an effect, `ClockEffect.work`): the store's edits and
/// reads, downloads, the directory, the logo folder. It is carried out off the clock's thread (`WorkRunner`), by the
/// task of the input that asked for it, and what it found comes back to the clock as an input of its own
/// (`RunningClock.Arrival.worked`) — so the clock decides every input to the end without waiting, and a ring is
/// decided in between.
enum ClockWork: Sendable {
    /// An edit through the store (`Store.apply`, one transaction, R26), then everything read again.
    case edit(ClockEdit, zone: TimeZone, at: Date)
    /// Everything read again, and the device tokens.
    case reload
    /// A device token made by pairing (one of the same name replaced).
    case makeToken(name: String)
    /// The history since `since`, newest first, at most `limit` events.
    case history(limit: Int, since: Date)
    /// A calendar downloaded or read from its cached copy, checked and staged for an import.
    case loadCalendar(
        CalendarOrigin, kind: CalendarImport.Kind, station: String?, zone: TimeZone, at: Date, known: CalendarSource?)
    /// A podcast's feed read (at most a minute).
    case readFeed(StreamURL)
    /// A directory station looked up and its logo fetched (`DirectoryStationAdd.prepare`).
    case prepareStation(id: String, name: String?, saved: [Station])
    /// The logo an add that failed brought, removed.
    case discardStation(DirectoryStationAdd.Prepared)
    /// The saved directory stations looked up again.
    case lookUpStations(ids: [String])
    /// A logo file read from the logo folder.
    case readLogo(name: String)
}

/// What a piece of slow work found.
enum WorkResult: Sendable {
    case edited(Result<Edited, StoreError>)
    case reloaded(Result<Reloaded, StoreError>)
    case tokenMade(Result<MadeToken, StoreError>)
    case history(Result<[HistoryEvent], StoreError>)
    case calendar(Result<CalendarImport, ClockError>)
    case feed(Result<PodcastFeed, ClockError>)
    case prepared(Result<DirectoryStationAdd.Prepared, ClockError>)
    case discarded
    case found(Result<[DirectoryStation], DirectoryError>)
    case logo(Data?)

    /// What an edit committed, and the store as it is after it.
    struct Edited: Sendable {
        var outcome: EditOutcome
        var loaded: Result<StoredClock, StoreError>
        var tokens: [AccessToken]?
    }

    /// The store read again.
    struct Reloaded: Sendable {
        var clock: StoredClock
        var tokens: [AccessToken]
    }

    /// A token made by pairing, and the tokens after it.
    struct MadeToken: Sendable {
        var token: AccessToken
        var secret: String
        var tokens: [AccessToken]?
    }
}

/// Carries out `ClockWork` off the clock's thread: the store's work on the store's own thread (`StoreWorker`, in
/// the order handed in), the rest on threads of their own (`runBlocking`). It holds only the ports; it decides
/// nothing and touches no state of the clock.
struct WorkRunner: Sendable {
    let worker: StoreWorker
    let calendars: (any CalendarFetcher)?
    let podcasts: (any PodcastFetcher)?
    let directory: (any StationDirectory)?
    let logos: (any StationLogoStore)?
    /// Which ports the clock has, for the sentence when one is missing.
    let caps: ClockCapabilities

    func perform(_ work: ClockWork) async -> WorkResult {
        switch work {
        case .edit(let edit, let zone, let at):
            return .edited(
                await store { store throws(StoreError) in
                    let outcome = try store.apply(edit, zone: zone, now: at)
                    let loaded: Result<StoredClock, StoreError>
                    do throws(StoreError) { loaded = .success(try store.load()) } catch { loaded = .failure(error) }
                    return WorkResult.Edited(outcome: outcome, loaded: loaded, tokens: try? store.tokens())
                })
        case .reload:
            return .reloaded(
                await store { store throws(StoreError) in WorkResult.Reloaded(clock: try store.load(), tokens: try store.tokens())
                })
        case .makeToken(let name):
            return .tokenMade(
                await store { store throws(StoreError) in
                    let made = try store.createToken(name: name, replacing: true)
                    return WorkResult.MadeToken(token: made.token, secret: made.secret, tokens: try? store.tokens())
                })
        case .history(let limit, let since):
            return .history(await store { store throws(StoreError) in try store.events(limit: limit, since: since) })
        case .loadCalendar(let origin, let kind, let station, let zone, let at, let known):
            guard let loader = calendars else { return .calendar(.failure(caps.noCalendars)) }
            return .calendar(
                await blocking("aubade-calendar") { () throws(ClockError) -> CalendarImport in
                    do throws(CalendarFetchError) {
                        return try loader.load(origin, kind: kind, station: station, zone: zone, now: at, known: known)
                    } catch { throw ClockError(error) }
                })
        case .readFeed(let url):
            guard let feeds = podcasts else { return .feed(.failure(caps.noPodcasts)) }
            return .feed(
                await blocking("aubade-feed") { () throws(ClockError) -> PodcastFeed in
                    do throws(PodcastFetchError) { return try feeds.feed(at: url, within: .seconds(60)) } catch {
                        throw ClockError(.unavailable, error.message)
                    }
                })
        case .prepareStation(let id, let name, let saved):
            guard let directory else { return .prepared(.failure(ClockCapabilities.directoryOff)) }
            guard let logos else { return .prepared(.failure(caps.noLogos)) }
            let flow = DirectoryStationAdd(directory: directory, logos: logos)
            return .prepared(
                await blocking("aubade-directory") { () throws(ClockError) -> DirectoryStationAdd.Prepared in
                    try flow.prepare(id: id, name: name, alternate: nil, saved: saved)
                })
        case .discardStation(let prepared):
            if let directory, let logos {
                let flow = DirectoryStationAdd(directory: directory, logos: logos)
                await runBlocking("aubade-directory") { flow.discard(prepared) }
            }
            return .discarded
        case .lookUpStations(let ids):
            guard let directory else { return .found(.success([])) }
            do throws(DirectoryError) {
                return .found(
                    .success(
                        try await runBlocking("aubade-directory") { () throws(DirectoryError) in try directory.stations(ids: ids)
                        }))
            } catch {
                return .found(.failure(error))
            }
        case .readLogo(let name):
            guard let logos else { return .logo(nil) }
            return .logo(await runBlocking("aubade-logo") { logos.read(name) })
        }
    }

    private func store<T: Sendable>(_ body: @escaping @Sendable (any ClockStore) throws(StoreError) -> T) async -> Result<
        T, StoreError
    > {
        do throws(StoreError) { return .success(try await worker.perform(body)) } catch { return .failure(error) }
    }

    private func blocking<T: Sendable>(_ name: String, _ body: @escaping @Sendable () throws(ClockError) -> T) async -> Result<
        T, ClockError
    > {
        do throws(ClockError) { return .success(try await runBlocking(name, body)) } catch { return .failure(error) }
    }
}
