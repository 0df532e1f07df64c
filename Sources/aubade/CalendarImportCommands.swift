import ArgumentParser
import AubadeApp
import AubadeConfig
import AubadeCore
import AubadeDaemon
import AubadeHardware
import AubadeStore
import Foundation

/// `aubade program import` and `aubade days-off import`: a calendar read here — the file, or the URL downloaded
/// (Wi-Fi-only applies) — checked and staged beside the database (`CalendarLoader`), then imported through the
/// running clock when one runs, else into the file: one transaction either way (`Store.apply`), so a bad
/// calendar imports nothing and says which line is wrong.
enum CalendarImporting {
    static func run(
        _ text: String, kind: CalendarImport.Kind, station: String?, now nowText: String?, allowLocal: Bool,
        global: GlobalOptions
    ) throws {
        let context = try global.context()
        let source: CalendarLoader.Source
        do throws(ClockError) {
            source = try CalendarLoader.Source.parse(text, directory: FileManager.default.currentDirectoryPath)
        } catch {
            throw CLIError(error)
        }
        let now = try AlarmNext.instant(parsing: nowText) ?? Date()
        if case .url = source, let refusal = try downloadRefusal(context) {
            throw CLIError.failed("The calendar is not downloaded: \(refusal)")
        }
        let loader = CalendarLoader(
            cache: CalendarCache(databasePath: context.databasePath),
            allowLoopback: allowLocal || context.configuration.audio.allowLocalStreams,
            horizonDays: context.configuration.calendars.horizonDays)
        let zone = try context.defaultZone()
        let calendar: CalendarImport
        do throws(CalendarFetchError) {
            calendar = try loader.load(source, kind: kind, station: station, zone: zone, now: now)
        } catch {
            throw CLIError(ClockError(error))
        }
        let result: EditResult
        do {
            result = try Edits.apply(.importCalendar(calendar), context: context)
        } catch {
            if let staged = calendar.staged { loader.cache.discard(staged) }
            throw error
        }
        guard case .imported(let summary) = result.outcome else { throw Edits.unexpected }
        if context.json {
            Output.json(ImportDocument(summary))
        } else {
            print(summary.sentence)
            if source.location.hasPrefix("http") {
                print(
                    "It is fetched again every \(DurationText.format(context.configuration.calendars.refreshSeconds)) while the clock runs."
                )
            }
        }
    }

    /// Wi-Fi-only and the default route now: why a download must not happen, or nil.
    static func downloadRefusal(_ context: CommandContext) throws -> String? {
        let store = try context.openStoreForReading(quietWhenEmpty: true)
        defer { store.close() }
        let settings = try store.settings()
        if case .refuse(let reason) = NetworkPolicy.streaming(wifiOnly: settings.isWifi, network: SysfsNetworkStatus().current())
        {
            return reason
        }
        return nil
    }
}

struct ProgramImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import a station's schedule: iCalendar (.ics), or the JSON or CSV form.",
        discussion: """
            Re-importing the same file or URL replaces what it brought before, keeping the reservations (and the alarms \
            tied) of the programmes found again. A URL is fetched again on the [calendars] schedule while the clock runs; \
            a copy is kept beside the database.
            Example: aubade program import https://radio.example/schedule.ics --station FIP
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "A file, or an http(s) URL.") var calendar: String
    @Option(help: "The saved station the programmes are on (see 'aubade station list').") var station: String?
    @Option(
        help:
            "Read the calendar as on this day (ISO-8601 with offset, e.g. 2027-03-01T00:00:00Z): recurrences are expanded from then."
    )
    var now: String?
    @Flag(name: .customLong("allow-local"), help: "Allow an address on this machine.") var allowLocal = false

    func run() throws {
        try CalendarImporting.run(calendar, kind: .programmes, station: station, now: now, allowLocal: allowLocal, global: global)
    }
}

/// `aubade program now`: what is on air and what comes next, from the stored programmes (DST-correct: each date's
/// times resolved in the programme's zone, as alarms are).
struct ProgramNow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now", abstract: "The programme on air and the next one.",
        discussion: "Example: aubade program now --station FIP --now 2027-03-28T07:30:00+02:00")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Only this saved station's programmes.") var station: String?
    @Option(help: "Ask about this instant instead of now: ISO-8601 with a UTC offset.") var now: String?

    func run() throws {
        let at = try AlarmNext.instant(parsing: now) ?? Date()
        let context = try global.context()
        let zone = try context.defaultZone()
        let store = try context.openStoreForReading { "the \($0.programmes.count) reserved programme(s)" }
        let stations = try store.stations()
        var programmes = try store.programmes()
        if let station {
            guard let found = stations.first(where: { $0.name.lowercased() == station.lowercased() }) else {
                throw CLIError.badInput("No station is named '\(station)'; see 'aubade station list'.")
            }
            programmes = programmes.filter { $0.stationID == found.id }
        }
        let names = AlarmDocument.stationNames(stations)
        let guide = ProgrammeGuide(programmes: programmes, zone: zone)
        let onAir = guide.onAir(at: at)
        let next = guide.next(after: at)
        if context.json {
            Output.json(
                OnAirDocument(
                    now: onAir.map { ProgramDocument($0, stationNames: names) },
                    next: next.map { ProgramDocument($0, stationNames: names) }))
        } else {
            print(
                ProgramNow.line("On air", onAir, at: at, zone: zone, names: names)
                    ?? "Nothing is on air\(station.map { " on \($0)" } ?? "").")
            print(ProgramNow.line("Next", next, at: at, zone: zone, names: names) ?? "Nothing else is scheduled.")
        }
        if store.origin.fault != nil { throw ExitCode(1) }
    }

    /// "On air: Morning Show on FIP, 07:00–09:00" / "Next: World News on FIP, Mon 29 Mar 08:00–08:30".
    static func line(_ label: String, _ airing: ProgrammeGuide.Airing?, at: Date, zone: TimeZone, names: [Int64: String])
        -> String?
    {
        guard let a = airing else { return nil }
        let z = a.programme.zone(clockZone: zone)
        let sameDay = ZoneCalendar(z).localDayNumber(of: a.begin) == ZoneCalendar(z).localDayNumber(of: at)
        let station = a.programme.stationID.map { " on \(names[$0] ?? "station \($0)")" } ?? ""
        let span = "\(format(a.begin, z, withDate: !sameDay))–\(format(a.end, z, withDate: false))"
        let zoneText = a.programme.timeZoneID.map { $0 == zone.identifier ? "" : " (\($0))" } ?? ""
        return "\(label): \(a.programme.name)\(station), \(span)\(zoneText) [programme \(a.programme.id ?? 0)]"
    }

    static func format(_ date: Date, _ zone: TimeZone, withDate: Bool) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_GB")
        f.timeZone = zone
        f.dateFormat = withDate ? "EEE d MMM HH:mm" : "HH:mm"
        return f.string(from: date)
    }
}

/// `aubade program sources`: the imported calendars (programme schedules and holiday calendars).
struct CalendarSourcesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sources", abstract: "The calendars imported: where from, when.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let context = try global.context()
        let store = try context.openStoreForReading(quietWhenEmpty: true)
        let names = AlarmDocument.stationNames(try store.stations())
        let docs = try store.calendarSources().map { CalendarSourceDocument($0, stationNames: names, problem: nil) }
        if context.json {
            Output.json(CalendarSourceList(docs))
        } else if docs.isEmpty {
            print("No calendars imported. Import one with: aubade program import <file|url> --station <name>")
        } else {
            Output.table(
                ["ID", "KIND", "FROM", "FORMAT", "STATION", "IMPORTED", "EXPANDED TO"],
                docs.map {
                    [
                        String($0.id), $0.kind == "daysOff" ? "days off" : "programmes", $0.location, $0.format,
                        $0.station ?? "-",
                        $0.importedAt.formatted(.iso8601), $0.expandedThrough ?? "-",
                    ]
                })
        }
    }
}
