import ArgumentParser
import AubadeApp
import AubadeCore
import AubadeStore
import Foundation

struct StationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "station", abstract: "Save radio stations to use by name.",
        subcommands: [StationList.self, StationSearch.self, StationAdd.self, StationRemove.self])
}

struct StationList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Show saved stations.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let store = try global.context().openStoreForReading { "the \($0.stations.count) station(s)" }
        let stations = try store.stations()
        if global.json {
            Output.json(AubadeApp.StationList(stations.map(StationDocument.init)))
        } else if stations.isEmpty {
            print("No stations. Add one with: aubade station add --name FIP --url https://icecast.radiofrance.fr/fip-midfi.mp3")
        } else {
            Output.table(
                ["ID", "NAME", "URL", "ALTERNATE"],
                stations.map {
                    [$0.id.map(String.init) ?? "-", $0.name, $0.url.text, $0.alternateURL?.text ?? "-"]
                })
        }
        if store.origin.fault != nil { throw ExitCode(1) }
    }
}

struct StationAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Save a station.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "The name to call it by.") var name: String
    @Option(help: "Its http(s) stream or playlist URL.") var url: String
    @Option(help: "Another URL of the same station, tried before the tone.") var alternate: String?

    func run() throws {
        let result = try Edits.apply(
            .addStation(StationFields(name: name, url: url, alternate: alternate)),
            context: try global.context())
        guard case .station(let saved) = result.outcome else { throw Edits.unexpected }
        if global.json {
            Output.json(StationDocument(saved))
        } else {
            print("Added station \(saved.id ?? 0): \(saved.name).")
        }
    }
}

struct StationRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a station and its programmes.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The station's id or name.") var station: String

    func run() throws {
        let result = try Edits.apply(.removeStation(station), context: try global.context())
        guard case .stationRemoved(let found) = result.outcome else { throw Edits.unexpected }
        if global.json {
            Output.json(["deleted": found.id!])
        } else {
            print("Deleted station \(found.id!) (\(found.name)).")
        }
    }
}
