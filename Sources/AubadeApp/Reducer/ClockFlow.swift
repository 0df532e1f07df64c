import AubadeCore
import Foundation

/// What a piece of slow work the clock handed off continues when its result comes back (`RunningClock.worked`):
/// kept by the work's ticket, with the ticket of the reply it leads to. Values only: the flow is the clock's state,
/// not a suspended function.
enum Awaiting {
    /// An edit's commit; `then` says what follows it.
    case edit(reply: ClockTicket?, then: AfterEdit)
    /// The store read again (`reload`).
    case reload(reply: ClockTicket)
    /// A device token being made for a pairing.
    case token(reply: ClockTicket)
    /// The history, for a list or for the reports of `days` days.
    case history(reply: ClockTicket, HistoryUse)
    /// A calendar loaded, for an import or for a source's refresh.
    case calendar(reply: ClockTicket, CalendarStep)
    /// A feed read, for a new podcast or for a refresh.
    case feed(reply: ClockTicket, FeedStep)
    /// A directory station looked up for an add.
    case prepared(reply: ClockTicket, id: String)
    /// A failed add's logo being removed (nothing follows).
    case discard
    /// The saved directory stations looked up again.
    case lookUp(reply: ClockTicket, linked: [Station])
    /// A station's logo read.
    case logo(reply: ClockTicket, station: Station, mediaType: String)
}

/// What follows an edit's commit.
enum AfterEdit {
    /// The caller is answered with what was saved.
    case answer
    /// Nothing (an episode's position).
    case nothing
    /// A station from the directory: answered; a failed save removes the logo the add brought.
    case stationAdded(DirectoryStationAdd.Prepared)
    /// A calendar source's refresh, at `step`.
    case calendar(CalendarStep)
    /// A podcast's feed stored by a refresh.
    case podcastRefreshed(Podcast)
    /// The feed a `podcast:` alarm's check read, stored.
    case episodeFeed(name: String)
    /// A directory station that moved, given its new address.
    case stationMoved(Station, to: StreamURL)
}

/// What the history is read for.
enum HistoryUse {
    case list
    case reports(days: Int, since: Date, today: Int)
}

/// Where a calendar's load is in its flow.
enum CalendarStep {
    /// `importCalendar`: the caller is answered with the import.
    case importing
    /// A URL source downloaded again; `expand`: its cached copy is expanded again if that fails.
    case download(CalendarSource, expand: Bool)
    /// A source's cached copy read again, its recurrences expanded further.
    case expand(CalendarSource)
}

/// Where a feed's reading is in its flow.
enum FeedStep {
    case adding(feed: StreamURL, name: String?)
    case refreshing(Podcast)
}

/// A refresh turn under way: its items, one after the other; the turn is answered with how long to wait when
/// none is left.
struct RefreshRun {
    enum Kind { case calendars, podcasts, directory }
    enum Item {
        case calendar(CalendarSource, download: Bool, expand: Bool)
        case podcast(Podcast)
        case move(Station, to: StreamURL)
    }
    var kind: Kind
    var items: [Item]
}

extension ClockState {
    /// Hands off `work`; its result comes back to `worked` with `then`.
    mutating func handOff(_ work: ClockWork, then: Awaiting) {
        let ticket = context.effects.ticket()
        awaiting[ticket] = then
        context.effects.append(.work(ticket, work))
    }

    /// Answers the caller waiting under `reply`.
    mutating func respond(to reply: ClockTicket, _ output: ClockOutput) {
        context.effects.append(.answer(reply, .success(output)))
    }
    mutating func respond(to reply: ClockTicket, failure: ClockError) {
        context.effects.append(.answer(reply, .failure(failure)))
    }

    /// A piece of slow work came back: decided by the flow it continues. A ticket not out (already taken) is
    /// ignored, so no result is acted on twice.
    mutating func worked(_ ticket: ClockTicket, _ result: WorkResult) {
        guard let flow = awaiting.removeValue(forKey: ticket) else { return }
        let now = self.now
        switch (flow, result) {
        case (.edit(let reply, let then), .edited(let edited)):
            editDone(edited, reply: reply, then: then, now)
        case (.reload(let reply), .reloaded(let read)):
            reload(read.map(\.clock))
            if case .success(let read) = read { context.effects.append(.tokens(read.tokens)) }
            respond(to: reply, .reply(.done("Reloaded."), events: nil))
        case (.token(let reply), .tokenMade(let made)):
            tokenMade(made, reply: reply)
        case (.history(let reply, let use), .history(let events)):
            historyRead(events, use, reply: reply, now)
        case (.calendar(let reply, let step), .calendar(let loaded)):
            calendarLoaded(loaded, step, reply: reply, now)
        case (.feed(let reply, let step), .feed(let read)):
            feedRead(read, step, reply: reply, now)
        case (.prepared(let reply, let id), .prepared(let prepared)):
            stationPrepared(prepared, id: id, reply: reply)
        case (.lookUp(let reply, let linked), .found(let found)):
            directoryFound(found, linked: linked, reply: reply)
        case (.logo(let reply, let station, let type), .logo(let bytes)):
            guard let bytes else {
                return respond(
                    to: reply,
                    failure: ClockError(
                        .notFound, "The logo of station \(station.id ?? 0) (\(station.name)) is missing from the logo folder."))
            }
            respond(to: reply, .logo(StationLogo(bytes: bytes, mediaType: type)))
        case (.discard, _):
            break
        default:
            // A result of another kind than its flow asked for: a fault of the clock's own, said once, never silent.
            context.warn("flow-\(ticket.number)", "Work \(ticket) came back with a result its flow does not take.")
        }
    }
}

extension ClockState {
    /// Starts a refresh turn's items, one after the other; with none, the turn is answered at once.
    mutating func startRefresh(_ run: RefreshRun, reply: ClockTicket) {
        refreshing[reply] = run
        refreshItemDone(reply)
    }

    /// The refresh item under way is done (whatever came of it): the next one starts, or the turn is answered with
    /// how long to wait.
    mutating func refreshItemDone(_ reply: ClockTicket) {
        guard var run = refreshing[reply] else { return }
        guard !run.items.isEmpty else {
            refreshing[reply] = nil
            let wait: Duration =
                switch run.kind {
                case .calendars: calendarWait()
                case .podcasts: podcastWait()
                case .directory: .seconds(Int(ClockState.directoryCheckEvery))
                }
            return respond(to: reply, .wait(wait))
        }
        let item = run.items.removeFirst()
        refreshing[reply] = run
        switch item {
        case .calendar(let source, let download, let expand):
            refreshCalendar(source, download: download, expand: expand, reply: reply)
        case .podcast(let podcast):
            refreshPodcast(podcast, reply: reply)
        case .move(let station, let moved):
            edit(.moveStation(id: station.id ?? 0, url: moved), reply: reply, then: .stationMoved(station, to: moved))
        }
    }
}
