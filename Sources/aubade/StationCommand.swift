import ArgumentParser
import AubadeApp
import AubadeCore
import AubadeDirectory
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
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Save a station: by its address, or found in the public directory.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "The name to call it by (from the directory: its name there unless given).") var name: String?
    @Option(help: "Its http(s) stream or playlist URL.") var url: String?
    @Option(help: "Another URL of the same station, tried before the tone.") var alternate: String?
    @Option(name: .customLong("from-directory"), help: "A station id from 'aubade station search'.") var fromDirectory: String?
    @Flag(name: .customLong("allow-local"), help: "Allow a directory server or logo on this machine.") var allowLocal = false

    func run() throws {
        let context = try global.context()
        var fields = StationFields(name: name, url: url, alternate: alternate)
        var fromTheDirectory: (flow: DirectoryStationAdd, prepared: DirectoryStationAdd.Prepared)?
        if let fromDirectory {
            guard url == nil else {
                throw CLIError.badInput("Give either --url or --from-directory: the directory says where the station streams.")
            }
            let flow = DirectoryStationAdd(
                directory: try StationDirectoryFromConfig.require(context.configuration, allowLocal: allowLocal),
                logos: StationLogos(databasePath: context.databasePath))
            let saved = try savedStations(context)
            let prepared: DirectoryStationAdd.Prepared
            do throws(ClockError) {
                prepared = try flow.prepare(id: fromDirectory, name: name, alternate: alternate, saved: saved)
            } catch { throw CLIError(error) }
            if let warning = prepared.warning { Aubade.printError(warning) }
            fields = prepared.fields
            fromTheDirectory = (flow, prepared)
        }
        let result: EditResult
        do {
            result = try Edits.apply(.addStation(fields), context: context)
        } catch {
            if let (flow, prepared) = fromTheDirectory { flow.discard(prepared) }
            throw error
        }
        guard case .station(let saved) = result.outcome else { throw Edits.unexpected }
        if global.json {
            Output.json(StationDocument(saved))
        } else {
            let from = saved.directory.map { d in
                " (\([d.codec, d.bitrate > 0 ? "\(d.bitrate) kbps" : "", d.country].filter { !$0.isEmpty }.joined(separator: ", ")), from the directory)"
            }
            print("Added station \(saved.id ?? 0): \(saved.name)\(from ?? "").")
        }
    }

    /// The stations saved now, as far as the file can be read (the store refuses a twin in any case).
    private func savedStations(_ context: CommandContext) throws -> [Station] {
        guard let store = try? context.openStoreForReading(quietWhenEmpty: true) else { return [] }
        defer { store.close() }
        return (try? store.stations()) ?? []
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
