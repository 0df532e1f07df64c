import AubadeCore
import Foundation

extension ClockState {
    /// Answers a query from what the clock runs on (after picking up another process's commit, if any); the history
    /// and the reports are answered when the store has read the events (nil here).
    mutating func answer(_ query: ClockQuery, reply: ClockTicket, _ now: SchedulerTime) throws(ClockError) -> ClockAnswer? {
        let names = stationNames
        switch query {
        case .alarms:
            let guide = ProgrammeGuide(programmes: context.catalogue.programmes, zone: runner.scheduler.defaultZone)
            return .alarms(
                AlarmList(
                    sortedAlarms.map { a in
                        AlarmDocument(
                            a, stationNames: names,
                            next: a.id.flatMap { runner.scheduler.nextRinging(of: $0, after: now.wall)?.instant },
                            guide: guide)
                    }))
        case .alarm(let id):
            guard let alarm = runner.scheduler.alarms[id] else { throw ClockError(StoreError.notFound(what: "alarm", id: id)) }
            return .alarm(AlarmDocument(alarm, stationNames: names))
        case .nextFirings(let count):
            guard ClockQuery.countRange.contains(count) else {
                throw ClockError(.invalid, "--count \(count) is out of range; use 1 to 100.")
            }
            return .next(
                NextFirings.build(
                    sortedAlarms, after: now.wall, count: count, zone: runner.scheduler.defaultZone,
                    daysOff: runner.scheduler.daysOff, programmes: context.catalogue.programmes))
        case .stations:
            let stations = context.catalogue.stations.values.sorted { $0.name.lowercased() < $1.name.lowercased() }
            return .stations(StationList(stations.map(StationDocument.init)))
        case .programmes:
            return .programmes(ProgramList(sortedProgrammes.map { ProgramDocument($0, stationNames: names) }))
        case .programmeNow(let station, let at):
            return .onAir(try onAir(station: station, at: at ?? now.wall))
        case .daysOff:
            return .daysOff(
                DayOffList(
                    context.catalogue.daysOff.sorted { ($0.first, $0.id ?? 0) < ($1.first, $1.id ?? 0) }.map(DayOffDocument.init))
            )
        case .calendars:
            return .calendars(
                CalendarSourceList(
                    context.catalogue.calendarSources.map { s in
                        CalendarSourceDocument(s, stationNames: names, problem: context.board.warnings["calendar-\(s.id)"])
                    }))
        case .settings:
            return .settings(SettingsDocument.make(context.catalogue.settings))
        case .history(let limit):
            guard ClockQuery.historyRange.contains(limit) else {
                throw ClockError(.invalid, "A history limit of \(limit) is out of range; use 1 to 1000.")
            }
            handOff(.history(limit: limit, since: .distantPast), then: .history(reply: reply, .list))
            return nil
        case .reports(let days):
            guard ClockQuery.reportDaysRange.contains(days) else {
                throw ClockError(.invalid, "Reports cover 1 to 31 days, not \(days).")
            }
            let zone = runner.scheduler.defaultZone
            let calendar = ZoneCalendar(zone)
            let today = calendar.localDayNumber(of: now.wall)
            guard let first = LocalDate(dayNumber: today - days + 1) else { return .reports(ReportList([])) }
            let since = calendar.instant(of: first, at: .midnight)
            handOff(
                .history(limit: 5000, since: since.addingTimeInterval(-86_400)),
                then: .history(reply: reply, .reports(days: days, since: since, today: today)))
            return nil
        case .podcasts:
            let sorted = context.catalogue.podcasts.sorted { $0.name.lowercased() < $1.name.lowercased() }
            return .podcasts(PodcastList(podcasts: sorted.map { PodcastDocument($0) }))
        case .podcast(let name, let limit):
            guard (1...PodcastFeed.kept).contains(limit) else {
                throw ClockError(.invalid, "--limit \(limit) is out of range; ask for 1 to \(PodcastFeed.kept) episodes.")
            }
            let key = name.lowercased()
            guard
                let found = context.catalogue.podcasts.first(where: {
                    $0.name.lowercased() == key || $0.id.map(String.init) == name
                })
            else {
                throw ClockError(.notFound, "No podcast is named '\(name)'; see 'aubade podcast list'.")
            }
            return .podcast(PodcastDocument(found, episodes: Array(found.episodes.prefix(limit))))
        }
    }

    /// The alarms by time of day, then id (as `aubade alarm list` shows them).
    var sortedAlarms: [Alarm] {
        runner.scheduler.alarms.values.sorted { ($0.time, $0.id ?? 0) < ($1.time, $1.id ?? 0) }
    }

    /// The programmes by weekday, date, begin, id (as `aubade program list` shows them).
    var sortedProgrammes: [Programme] {
        context.catalogue.programmes.sorted {
            ($0.weekday?.rawValue ?? 0, $0.date?.description ?? "", $0.begin, $0.id ?? 0)
                < ($1.weekday?.rawValue ?? 0, $1.date?.description ?? "", $1.begin, $1.id ?? 0)
        }
    }

    /// The history came back from the store: the list, or the reports built from it.
    mutating func historyRead(
        _ result: Result<[HistoryEvent], StoreError>, _ use: HistoryUse, reply: ClockTicket, _ now: SchedulerTime
    ) {
        let events: [HistoryEvent]
        do throws(StoreError) { events = try result.get() } catch { return respond(to: reply, failure: ClockError(error)) }
        switch use {
        case .list:
            respond(to: reply, .reply(.answer(.history(HistoryList(events.map(HistoryDocument.init)))), events: nil))
        case .reports(let days, let since, let today):
            respond(to: reply, .reply(.answer(.reports(reports(events, days: days, since: since, today: today))), events: nil))
        }
    }

    /// What is on air on `station` (or any station) at `now`, and what begins next.
    private func onAir(station: String?, at now: Date) throws(ClockError) -> OnAirDocument {
        var programmes = context.catalogue.programmes
        if let station {
            guard let found = context.catalogue.stations.values.first(where: { $0.name.lowercased() == station.lowercased() })
            else {
                throw ClockError(.notFound, "No station is named '\(station)'; see 'aubade station list'.")
            }
            programmes = programmes.filter { $0.stationID == found.id }
        }
        let guide = ProgrammeGuide(programmes: programmes, zone: runner.scheduler.defaultZone)
        let names = stationNames
        return OnAirDocument(
            now: guide.onAir(at: now).map { ProgramDocument($0, stationNames: names) },
            next: guide.next(after: now).map { ProgramDocument($0, stationNames: names) })
    }

    /// One report per local date of the last `days` (today first): each alarm run of that date, a line each.
    private func reports(_ events: [HistoryEvent], days: Int, since: Date, today: Int) -> ReportList {
        let zone = runner.scheduler.defaultZone
        let calendar = ZoneCalendar(zone)
        let names = Dictionary(runner.scheduler.alarms.map { ($0.key, $0.value.name) }, uniquingKeysWith: { a, _ in a })
        let zones = Dictionary(
            runner.scheduler.alarms.compactMap { id, alarm in
                alarm.timeZoneID.flatMap { TimeZone(identifier: $0) }.map { (id, $0) }
            }, uniquingKeysWith: { a, _ in a })
        let report = MorningReport.build(events: events, alarmNames: names, since: since, zone: zone, alarmZones: zones)
        var byDay: [Int: [String]] = [:]
        for run in report.runs {
            let day = calendar.localDayNumber(of: run.scheduled ?? run.firstEventAt)
            byDay[day, default: []].append(report.line(run))
        }
        let documents = stride(from: today, to: today - days, by: -1).compactMap { day -> ReportDocument? in
            guard let date = LocalDate(dayNumber: day) else { return nil }
            return ReportDocument(date: date.description, lines: byDay[day] ?? [])
        }
        return ReportList(documents)
    }
}
