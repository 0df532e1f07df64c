import AubadeCore
import AubadeSystemAsync
import Foundation

extension RunningClock {
    /// Imports the calendar at `url` as `kind` (`POST /programmes/import`, `/days-off/import`): downloaded,
    /// checked and staged off the clock's thread (`deps.calendars` on a thread of its own), then applied — one
    /// transaction, `Store.apply` — on it. Wi-Fi-only refuses the download, as it refuses streams.
    func importCalendar(from url: StreamURL, kind: CalendarImport.Kind, station: String?) async throws(ClockError) -> EditResult {
        if let refusal = downloadRefusal() { throw ClockError(.refused, "The calendar is not downloaded: \(refusal)") }
        let loader = try calendarLoader()
        let (zone, now) = (runner.scheduler.defaultZone, deps.time.now().wall)
        let known = catalogue.calendarSources.first { $0.kind == kind && $0.location == url.text }
        let calendar = try await runBlocking("aubade-calendar") { () throws(ClockError) -> CalendarImport in
            do throws(CalendarFetchError) {
                return try loader.load(.url(url), kind: kind, station: station, zone: zone, now: now, known: known)
            } catch { throw ClockError(error) }
        }
        return try await apply(.importCalendar(calendar), deps.time.now())
    }

    /// Refreshes the calendar sources that are due, one after the other (`RefreshService.calendars` calls it), and says
    /// when to look again. A URL source is fetched again every `[calendars] refresh` since its last attempt; any
    /// source whose open-ended recurrences reach less than half the horizon ahead is expanded again from its
    /// cached copy (no download). A failure — the network, Wi-Fi-only, a calendar that became invalid — is a
    /// standing warning, and the source stays as last imported: its last good copy keeps serving.
    func refreshCalendars() async -> Duration {
        let now = deps.time.now().wall
        let plan = CalendarRefreshPlan(options: options.calendars, zone: runner.scheduler.defaultZone)
        for due in plan.due(catalogue.calendarSources, attempts: calendarAttempts, at: now) {
            await refresh(due.source, download: due.download, expand: due.expand)
        }
        return plan.wait(catalogue.calendarSources, attempts: calendarAttempts, after: deps.time.now().wall)
    }

    /// Downloads a URL source again (`download`) and, when that fails or is refused, or when only the expansion
    /// is due (`expand`), imports its cached copy again, read now (its recurrences reach further; no network).
    private func refresh(_ source: CalendarSource, download: Bool, expand: Bool) async {
        calendarAttempts[source.id] = deps.time.now().wall
        let key = "calendar-\(source.id)"
        if download {
            do throws(ClockError) {
                if let refusal = downloadRefusal() { throw ClockError(.refused, refusal) }
                try await reimport(source, from: .url(try CalendarOrigin.url(of: source)), expanding: expand)
                board.set(key, nil)
                return
            } catch {
                let since = source.importedAt.formatted(.iso8601)
                board.set(
                    key,
                    "The calendar \(source.location) was not refreshed: \(error.message) What was imported on \(since) stays in use."
                )
                effects.emit("calendar", ["source": source.location, "error": error.message])
            }
        }
        if expand {
            do throws(ClockError) {
                try await reimport(source, from: .cached(source), expanding: true)
            } catch {
                board.set(
                    key + "-copy", "The cached copy of the calendar \(source.location) cannot be read again: \(error.message)")
            }
        }
    }

    /// Loads `from` off the clock's thread and applies it — unless its bytes are those imported and the expansion
    /// is not due (`expanding`): then nothing is written (R29), whatever the date.
    private func reimport(_ source: CalendarSource, from: CalendarOrigin, expanding: Bool) async throws(ClockError) {
        let loader = try calendarLoader()
        let (zone, now) = (runner.scheduler.defaultZone, deps.time.now().wall)
        let station = source.stationID.flatMap { catalogue.stations[$0]?.name }
        let calendar = try await runBlocking("aubade-calendar") { () throws(ClockError) -> CalendarImport in
            do throws(CalendarFetchError) {
                return try loader.load(from, kind: source.kind, station: station, zone: zone, now: now, known: source)
            } catch { throw ClockError(error) }
        }
        if !expanding, calendar.contentHash == source.contentHash {
            let count = source.kind == .programmes ? "programme rows" : "days off"
            effects.emit(
                "calendar",
                [
                    "source": source.location, "unchanged": true,
                    "message": "\(source.location) has not changed; its \(count) stay as imported.",
                ])
            return
        }
        let result = try await apply(.importCalendar(calendar), deps.time.now())
        board.set("calendar-\(source.id)-copy", nil)
        if case .imported(let summary) = result.outcome {
            effects.emit("calendar", ["source": source.location, "unchanged": summary.unchanged, "message": summary.sentence])
        }
    }

    /// Why a download may not happen now (Wi-Fi-only and the route), or nil.
    func downloadRefusal() -> String? {
        if case .refuse(let reason) = NetworkPolicy.streaming(
            wifiOnly: catalogue.settings.isWifi, network: deps.network.current())
        {
            return reason
        }
        return nil
    }

    private func calendarLoader() throws(ClockError) -> any CalendarFetcher {
        guard let loader = deps.calendars else {
            throw ClockError(.failed, deps.store.readOnlyReason ?? "This clock's store keeps no calendars.")
        }
        return loader
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
