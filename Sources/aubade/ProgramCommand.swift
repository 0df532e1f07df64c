import ArgumentParser
import AubadeApp
import AubadeCore
import AubadeStore
import Foundation

/// `aubade program …`: a station's programmes, and reserving one (at its start a chime plays and the radio
/// tunes to its station).
struct ProgramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "program", abstract: "Import, list, add, reserve and remove radio programmes; what is on now.",
        subcommands: [
            ProgramListCommand.self, ProgramImport.self, ProgramNow.self, ProgramAdd.self, ProgramReserve.self,
            ProgramUnreserve.self, ProgramRemove.self, CalendarSourcesCommand.self,
        ])
}

struct ProgramListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Show every programme.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let store = try global.context().openStoreForReading { "the \($0.programmes.count) reserved programme(s)" }
        let names = AlarmDocument.stationNames(try store.stations())
        let docs = try store.programmes().map { ProgramDocument($0, stationNames: names) }
        if global.json {
            Output.json(AubadeApp.ProgramList(docs))
        } else if docs.isEmpty {
            print(
                "No programmes. Add one with: aubade program add --name 'Night Jazz' --begin 22:00 --end 23:00 --station FIP --weekday fri"
            )
        } else {
            Output.table(
                ["ID", "NAME", "BEGIN", "END", "WHEN", "ZONE", "STATION", "RESERVED"],
                docs.map {
                    [
                        $0.id.map(String.init) ?? "-", $0.name, $0.begin, $0.end, $0.when, $0.timeZone ?? "-",
                        $0.stationName ?? "-",
                        $0.reserved ? ($0.remindSeconds.map { "yes, remind \(DurationText.format($0)) before" } ?? "yes") : "no",
                    ]
                })
        }
        if store.origin.fault != nil { throw ExitCode(1) }
    }
}

struct ProgramAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a programme: weekly with --weekday, once with --date, else daily.",
        discussion: "Example: aubade program add --name 'Night Jazz' --begin 22:00 --end 23:00 --station FIP --weekday fri")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Its name, e.g. 'Night Jazz'.") var name: String?
    @Option(help: "When it begins, HH:MM (24-hour).") var begin: String?
    @Option(help: "When it ends, HH:MM; earlier than --begin means it runs past midnight.") var end: String?
    @Option(help: "The saved station it is on (see 'aubade station list').") var station: String?
    @Option(help: "The day it is on each week: mon, tue, wed, thu, fri, sat or sun.") var weekday: String?
    @Option(help: "The one date it is on, YYYY-MM-DD.") var date: String?

    func run() throws {
        let fields = ProgrammeFields(name: name, begin: begin, end: end, station: station, weekday: weekday, date: date)
        // Checked before anything is opened: a missing field never creates a database.
        _ = try fields.draft()
        let result = try Edits.apply(.addProgramme(fields), context: try global.context())
        guard case .programme(let saved) = result.outcome else { throw Edits.unexpected }
        let stationName = saved.stationID.flatMap { result.stationNames[$0] } ?? station ?? ""
        if global.json {
            Output.json(ProgramDocument(saved, stationNames: result.stationNames))
        } else {
            print(
                "Added programme \(saved.id ?? 0): \(saved.name), \(saved.begin)-\(saved.end), \(ProgramDocument.when(saved)), on \(stationName)."
            )
        }
    }
}

struct ProgramReserve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reserve", abstract: "At the programme's start, play a chime and tune to its station.",
        discussion: "Example: aubade program reserve 12 --remind 5m   (the chime 5 minutes before, the radio at the start)")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The programme's id (see 'aubade program list').") var id: Int64
    @Option(help: "Chime this long before the start instead (e.g. 5m); the radio still tunes in at the start.")
    var remind: String?

    func run() throws {
        let lead = try remind.map { try DurationText.seconds(parsing: $0, field: "Reminder lead") }
        try setReserved(true, id: id, remindSeconds: lead, global: global)
    }
}

struct ProgramUnreserve: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unreserve", abstract: "Drop a programme's reservation.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The programme's id.") var id: Int64

    func run() throws { try setReserved(false, id: id, global: global) }
}

/// Sets or clears a reservation; the store refuses one for a programme without a station (nothing to tune to).
private func setReserved(_ on: Bool, id: Int64, remindSeconds: Int? = nil, global: GlobalOptions) throws {
    let result = try Edits.apply(
        .reserveProgramme(id: id, reserved: on, remindSeconds: remindSeconds), context: try global.context())
    guard case .programme(let programme) = result.outcome else { throw Edits.unexpected }
    let names = result.stationNames
    if global.json {
        Output.json(ProgramDocument(programme, stationNames: names))
    } else if on {
        let station = ProgramDocument(programme, stationNames: names).stationName ?? "its station"
        if let lead = programme.remindSeconds, lead > 0 {
            print(
                "Reserved programme \(id) (\(programme.name)): a chime \(DurationText.format(lead)) before \(programme.begin), and at \(programme.begin) the radio tunes to \(station)."
            )
        } else {
            print(
                "Reserved programme \(id) (\(programme.name)): at \(programme.begin) a chime plays and the radio tunes to \(station)."
            )
        }
    } else {
        print("Programme \(id) (\(programme.name)) is no longer reserved.")
    }
}

struct ProgramRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a programme.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The programme's id.") var id: Int64

    func run() throws {
        let result = try Edits.apply(.removeProgramme(id: id), context: try global.context())
        guard case .programmeRemoved(let programme) = result.outcome else { throw Edits.unexpected }
        if global.json {
            Output.json(["deleted": id])
        } else {
            print("Deleted programme \(id) (\(programme.name)).")
        }
    }
}
