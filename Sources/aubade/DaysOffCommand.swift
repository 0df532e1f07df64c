import ArgumentParser
import AubadeApp
import AubadeCore
import AubadeStore
import Foundation

/// `aubade days-off …`: dates on which alarms that skip days off do not ring — typed, or imported from a
/// public-holiday calendar.
struct DaysOffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "days-off", abstract: "Days off: public holidays and holidays away, which workday alarms skip.",
        subcommands: [DaysOffList.self, DaysOffAdd.self, DaysOffImport.self, DaysOffRemove.self])
}

struct DaysOffList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Show every day off.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let context = try global.context()
        let store = try context.openStoreForReading { "the \($0.daysOff.count) day(s) off" }
        let docs = try store.daysOff().map(DayOffDocument.init)
        if context.json {
            Output.json(DayOffList(docs))
        } else if docs.isEmpty {
            print("No days off. Add one with: aubade days-off add 2026-12-24..2026-12-26 --name Christmas")
        } else {
            Output.table(
                ["ID", "DATES", "NAME", "FROM"],
                docs.map { [$0.id.map(String.init) ?? "-", $0.dates, $0.name, $0.source ?? "typed"] })
        }
        if store.origin.fault != nil { throw ExitCode(1) }
    }
}

struct DaysOffAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a day off, or a range of them.",
        discussion: "Example: aubade days-off add 2026-12-24..2026-12-26 --name Christmas")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "YYYY-MM-DD, or YYYY-MM-DD..YYYY-MM-DD (at most a year).") var dates: String
    @Option(help: "What it is, e.g. Christmas (default: Day off).") var name: String?

    func run() throws {
        let fields = DayOffFields(dates: dates, name: name)
        _ = try fields.dayOff()  // refused before anything is opened
        let result = try Edits.apply(.addDayOff(fields), context: try global.context())
        guard case .dayOff(let day) = result.outcome else { throw Edits.unexpected }
        if global.json {
            Output.json(DayOffDocument(day))
        } else {
            print("Added day off \(day.id ?? 0): \(day.name), \(day.rangeText). Alarms that skip days off do not ring then.")
        }
    }
}

struct DaysOffImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import a public-holiday calendar (iCalendar) as days off.",
        discussion: """
            Re-importing the same file or URL replaces the days it brought before; days typed with 'days-off add' stay. \
            A URL is fetched again on the [calendars] schedule while the clock runs.
            Example: aubade days-off import https://example.org/holidays/de.ics
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "An .ics file, or an http(s) URL.") var calendar: String
    @Option(help: "Read the calendar as on this day (ISO-8601 with offset): yearly holidays are expanded from then.")
    var now: String?
    @Flag(name: .customLong("allow-local"), help: "Allow an address on this machine.") var allowLocal = false

    func run() throws {
        try CalendarImporting.run(calendar, kind: .daysOff, station: nil, now: now, allowLocal: allowLocal, global: global)
    }
}

struct DaysOffRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a day off.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its id (see 'aubade days-off list').") var id: Int64

    func run() throws {
        let result = try Edits.apply(.removeDayOff(id: id), context: try global.context())
        guard case .dayOffRemoved(let day) = result.outcome else { throw Edits.unexpected }
        if global.json {
            Output.json(["deleted": id])
        } else {
            let again = day.importSource.map { " It comes back with the next import of \($0)." } ?? ""
            print("Removed day off \(id) (\(day.name), \(day.rangeText)).\(again)")
        }
    }
}
