import ArgumentParser
import AubadeCore
import AubadeStore
import Foundation

/// `aubade program …`: a station's programmes, and reserving one (at its start a chime plays and the radio
/// tunes to its station).
struct ProgramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "program", abstract: "List, add, reserve and remove radio programmes.",
        subcommands: [ProgramList.self, ProgramAdd.self, ProgramReserve.self, ProgramUnreserve.self, ProgramRemove.self])
}

/// A programme as `--json` prints it; `when` is "daily", a weekday ("sun") or a date.
struct ProgramDocument: Encodable {
    var id: Int64?
    var name: String
    var begin: String
    var end: String
    var weekday: String?
    var date: String?
    var when: String
    var stationId: Int64?
    var stationName: String?
    var reserved: Bool
    var host: String?
    var description: String?

    init(_ p: Programme, stationNames: [Int64: String]) {
        id = p.id
        name = p.name
        begin = p.begin.description
        end = p.end.description
        weekday = p.weekday?.shortName
        date = p.date?.description
        when = ProgramDocument.when(p)
        stationId = p.stationID
        stationName = p.stationID.map { stationNames[$0] ?? "station \($0)" }
        reserved = p.reserved
        host = p.host
        description = p.details
    }

    static func when(_ p: Programme) -> String {
        p.weekday?.shortName ?? p.date?.description ?? "daily"
    }
}

struct ProgramList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Show every programme.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let store = try global.context().openStoreForReading { "the \($0.programmes.count) reserved programme(s)" }
        let names = AlarmDocument.stationNames(try store.stations())
        let docs = try store.programmes().map { ProgramDocument($0, stationNames: names) }
        if global.json {
            Output.json(["programmes": docs])
        } else if docs.isEmpty {
            print("No programmes. Add one with: aubade program add --name 'Night Jazz' --begin 22:00 --end 23:00 --station FIP --weekday fri")
        } else {
            Output.table(["ID", "NAME", "BEGIN", "END", "WHEN", "STATION", "RESERVED"], docs.map {
                [$0.id.map(String.init) ?? "-", $0.name, $0.begin, $0.end, $0.when, $0.stationName ?? "-",
                 $0.reserved ? "yes" : "no"]
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
        guard let name else { throw CLIError.badInput("A programme needs a name: add --name, e.g. --name 'Night Jazz'.") }
        guard let begin else { throw CLIError.badInput("A programme needs a begin time: add --begin HH:MM, e.g. --begin 22:00.") }
        guard let end else { throw CLIError.badInput("A programme needs an end time: add --end HH:MM, e.g. --end 23:00.") }
        guard let station else {
            throw CLIError.badInput("A programme needs a station: add --station with a saved station's name (see 'aubade station list').")
        }
        var programme = Programme(name: name, begin: try LocalTime(parsing: begin, field: "Begin time"),
                                  end: try LocalTime(parsing: end, field: "End time"))
        programme.weekday = try weekday.map(ProgramAdd.weekday(parsing:))
        programme.date = try date.map { try LocalDate(parsing: $0, field: "Programme date") }
        let store = try global.context().openStoreForWriting()
        guard let found = try store.station(named: station), let stationID = found.id else {
            throw CLIError.badInput("No station is named '\(station)'; see 'aubade station list'.")
        }
        programme.stationID = stationID
        guard let saved = try store.insert([programme]).first else {
            throw CLIError.failed("The programme was not saved.")
        }
        if global.json {
            Output.json(ProgramDocument(saved, stationNames: [stationID: found.name]))
        } else {
            print("Added programme \(saved.id ?? 0): \(saved.name), \(saved.begin)-\(saved.end), \(ProgramDocument.when(saved)), on \(found.name).")
        }
    }

    static func weekday(parsing text: String) throws -> Weekday {
        guard let day = Weekday(name: text.trimmingCharacters(in: .whitespaces)) else {
            throw CLIError.badInput("Weekday '\(text)' is unknown; use mon, tue, wed, thu, fri, sat or sun.")
        }
        return day
    }
}

struct ProgramReserve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reserve", abstract: "At the programme's start, play a chime and tune to its station.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The programme's id (see 'aubade program list').") var id: Int64

    func run() throws { try setReserved(true, id: id, global: global) }
}

struct ProgramUnreserve: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unreserve", abstract: "Drop a programme's reservation.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The programme's id.") var id: Int64

    func run() throws { try setReserved(false, id: id, global: global) }
}

/// Sets or clears a reservation; the store refuses one for a programme without a station (nothing to tune to).
private func setReserved(_ on: Bool, id: Int64, global: GlobalOptions) throws {
    let store = try global.context().openStoreForWriting()
    let programme = try store.setReserved(on, programmeID: id)
    let names = AlarmDocument.stationNames(try store.stations())
    if global.json {
        Output.json(ProgramDocument(programme, stationNames: names))
    } else if on {
        let station = ProgramDocument(programme, stationNames: names).stationName ?? "its station"
        print("Reserved programme \(id) (\(programme.name)): at \(programme.begin) a chime plays and the radio tunes to \(station).")
    } else {
        print("Programme \(id) (\(programme.name)) is no longer reserved.")
    }
}

struct ProgramRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a programme.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The programme's id.") var id: Int64

    func run() throws {
        let programme = try global.context().openStoreForWriting().deleteProgramme(id: id)
        if global.json {
            Output.json(["deleted": id])
        } else {
            print("Deleted programme \(id) (\(programme.name)).")
        }
    }
}
