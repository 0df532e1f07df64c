import AubadeCore
import Foundation

extension ClockState {
    /// Imports the calendar at `url` as `kind` (`POST /programmes/import`, `/days-off/import`): downloaded,
    /// checked and staged off the clock's thread (`deps.calendars` on a thread of its own), then applied — one
    /// transaction, `Store.apply` — through the edit path. Wi-Fi-only refuses the download, as it refuses streams.
    mutating func importCalendar(from url: StreamURL, kind: CalendarImport.Kind, station: String?, reply: ClockTicket)
        throws(ClockError)
    {
        if let refusal = downloadRefusal() { throw ClockError(.refused, "The calendar is not downloaded: \(refusal)") }
        try checkCalendarLoader()
        let known = context.catalogue.calendarSources.first { $0.kind == kind && $0.location == url.text }
        handOff(
            .loadCalendar(
                .url(url), kind: kind, station: station, zone: runner.scheduler.defaultZone, at: now.wall,
                known: known),
            then: .calendar(reply: reply, .importing))
    }

    /// Starts refreshing the calendar sources that are due, one after the other (`RefreshService.calendars` sends
    /// the turn); the turn is answered with when to look again once they are done. A URL source is fetched again
    /// every `[calendars] refresh` since its last attempt; any source whose open-ended recurrences reach less than
    /// half the horizon ahead is expanded again from its cached copy (no download). A failure — the network,
    /// Wi-Fi-only, a calendar that became invalid — is a standing warning, and the source stays as last imported:
    /// its last good copy keeps serving.
    mutating func refreshCalendars(reply: ClockTicket) {
        let plan = CalendarRefreshPlan(options: context.options.calendars, zone: runner.scheduler.defaultZone)
        let due = plan.due(context.catalogue.calendarSources, attempts: calendarAttempts, at: now.wall)
        startRefresh(
            RefreshRun(kind: .calendars, items: due.map { .calendar($0.source, download: $0.download, expand: $0.expand) }),
            reply: reply)
    }

    /// How long until the next calendar source is due.
    func calendarWait() -> Duration {
        CalendarRefreshPlan(options: context.options.calendars, zone: runner.scheduler.defaultZone)
            .wait(context.catalogue.calendarSources, attempts: calendarAttempts, after: now.wall)
    }

    /// Downloads a URL source again (`download`) and, when that fails or is refused, or when only the expansion
    /// is due (`expand`), imports its cached copy again, read now (its recurrences reach further; no network).
    mutating func refreshCalendar(_ source: CalendarSource, download: Bool, expand: Bool, reply: ClockTicket) {
        calendarAttempts[source.id] = now.wall
        guard download else { return expandCalendar(source, reply: reply) }
        do throws(ClockError) {
            if let refusal = downloadRefusal() { throw ClockError(.refused, refusal) }
            try loadCalendar(
                source, from: .url(try CalendarOrigin.url(of: source)), step: .download(source, expand: expand), reply: reply)
        } catch {
            downloadFailed(source, error, expand: expand, reply: reply)
        }
    }

    private mutating func expandCalendar(_ source: CalendarSource, reply: ClockTicket) {
        do throws(ClockError) {
            try loadCalendar(source, from: .cached(source), step: .expand(source), reply: reply)
        } catch {
            copyFailed(source, error, reply: reply)
        }
    }

    private mutating func loadCalendar(_ source: CalendarSource, from: CalendarOrigin, step: CalendarStep, reply: ClockTicket)
        throws(ClockError)
    {
        try checkCalendarLoader()
        let station = source.stationID.flatMap { context.catalogue.stations[$0]?.name }
        handOff(
            .loadCalendar(
                from, kind: source.kind, station: station, zone: runner.scheduler.defaultZone, at: now.wall,
                known: source),
            then: .calendar(reply: reply, step))
    }

    /// A calendar came back loaded (or not): an import's goes to the edit path; a refreshed source's too — unless
    /// its bytes are those imported and the expansion is not due: then nothing is written (R29), whatever the date.
    mutating func calendarLoaded(
        _ result: Result<CalendarImport, ClockError>, _ step: CalendarStep, reply: ClockTicket, _ now: SchedulerTime
    ) {
        switch (step, result) {
        case (.importing, .failure(let error)):
            respond(to: reply, failure: error)
        case (.importing, .success(let calendar)):
            edit(.importCalendar(calendar), reply: reply, then: .answer)
        case (.download(let source, let expand), .failure(let error)):
            downloadFailed(source, error, expand: expand, reply: reply)
        case (.expand(let source), .failure(let error)):
            copyFailed(source, error, reply: reply)
        case (.download(let source, let expand), .success(let calendar)):
            if !expand, calendar.contentHash == source.contentHash {
                let count = source.kind == .programmes ? "programme rows" : "days off"
                context.effects.emit(
                    "calendar",
                    [
                        "source": source.location, "unchanged": true,
                        "message": "\(source.location) has not changed; its \(count) stay as imported.",
                    ])
                context.warn("calendar-\(source.id)", nil)
                return refreshItemDone(reply)
            }
            edit(.importCalendar(calendar), reply: reply, then: .calendar(step))
        case (.expand, .success(let calendar)):
            edit(.importCalendar(calendar), reply: reply, then: .calendar(step))
        }
    }

    /// A refreshed calendar's import came back from the store.
    mutating func calendarImported(_ result: Result<EditResult, ClockError>, _ step: CalendarStep, reply: ClockTicket) {
        switch (step, result) {
        case (.importing, _):
            break  // an import's edit answers as any edit does
        case (.download(let source, let expand), .failure(let error)):
            downloadFailed(source, error, expand: expand, reply: reply)
        case (.expand(let source), .failure(let error)):
            copyFailed(source, error, reply: reply)
        case (.download(let source, _), .success(let edited)), (.expand(let source), .success(let edited)):
            context.warn("calendar-\(source.id)-copy", nil)
            if case .download = step { context.warn("calendar-\(source.id)", nil) }
            if case .imported(let summary) = edited.outcome {
                context.effects.emit(
                    "calendar", ["source": source.location, "unchanged": summary.unchanged, "message": summary.sentence])
            }
            refreshItemDone(reply)
        }
    }

    private mutating func downloadFailed(_ source: CalendarSource, _ error: ClockError, expand: Bool, reply: ClockTicket) {
        let since = source.importedAt.formatted(.iso8601)
        context.warn(
            "calendar-\(source.id)",
            "The calendar \(source.location) was not refreshed: \(error.message) What was imported on \(since) stays in use.")
        context.effects.emit("calendar", ["source": source.location, "error": error.message])
        if expand { expandCalendar(source, reply: reply) } else { refreshItemDone(reply) }
    }

    private mutating func copyFailed(_ source: CalendarSource, _ error: ClockError, reply: ClockTicket) {
        context.warn(
            "calendar-\(source.id)-copy",
            "The cached copy of the calendar \(source.location) cannot be read again: \(error.message)")
        refreshItemDone(reply)
    }

    /// Why a download may not happen now (Wi-Fi-only and the route), or nil.
    func downloadRefusal() -> String? {
        if case .refuse(let reason) = NetworkPolicy.streaming(
            wifiOnly: context.catalogue.settings.isWifi, network: context.world.network)
        {
            return reason
        }
        return nil
    }

    private func checkCalendarLoader() throws(ClockError) {
        guard context.caps.calendars else {
            throw context.caps.noCalendars
        }
    }
}

/// Which calendar sources are due for a refresh, and when the next one is: pure, so the schedule is tested with
/// chosen instants.
struct CalendarRefreshPlan {
    let options: CalendarOptions
    let zone: TimeZone
    /// A source that failed is tried again no sooner than this (a failing expansion is not redone every turn).
    static let retry: TimeInterval = 3600

    /// The sources due at `now`, each with whether it is downloaded (a URL source whose refresh is due) and
    /// whether its expansion is due (its cached copy is read again if the download does not happen).
    func due(_ sources: [CalendarSource], attempts: [Int64: Date], at now: Date)
        -> [(source: CalendarSource, download: Bool, expand: Bool)]
    {
        sources.compactMap { source in
            let download = source.isURL && now >= downloadDue(source, attempts)
            let expand = now >= expansionDue(source, attempts)
            return download || expand ? (source, download, expand) : nil
        }
    }

    /// How long until the next source is due (at least a minute, at most six hours: the loop also notices a
    /// source imported meanwhile).
    func wait(_ sources: [CalendarSource], attempts: [Int64: Date], after now: Date) -> Duration {
        let next = sources.flatMap { s in [s.isURL ? downloadDue(s, attempts) : .distantFuture, expansionDue(s, attempts)] }.min()
        let seconds = (next ?? .distantFuture).timeIntervalSince(now)
        return .seconds(Int(min(max(seconds, 60), 6 * 3600).rounded(.up)))
    }

    private func downloadDue(_ s: CalendarSource, _ attempts: [Int64: Date]) -> Date {
        (attempts[s.id] ?? s.importedAt).addingTimeInterval(TimeInterval(options.refresh / .seconds(1)))
    }

    /// When the expansion reaches only half the horizon ahead: the start of that local date; never sooner than
    /// `retry` after the last attempt.
    private func expansionDue(_ s: CalendarSource, _ attempts: [Int64: Date]) -> Date {
        guard let through = s.expandedThrough else { return .distantFuture }
        let date = through.adding(days: -options.horizonDays / 2)
        let due = ZoneCalendar(zone).instant(of: date, at: .midnight)
        guard let last = attempts[s.id] else { return due }
        return max(due, last.addingTimeInterval(CalendarRefreshPlan.retry))
    }
}

extension CalendarOrigin {
    /// The URL of a stored URL source.
    static func url(of source: CalendarSource) throws(ClockError) -> StreamURL {
        do throws(ValidationError) {
            return try StreamURL(stored: source.location)
        } catch {
            throw ClockError(.failed, error.message)
        }
    }
}
