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
        var logo: String?
        if let fromDirectory {
            guard url == nil else {
                throw CLIError.badInput("Give either --url or --from-directory: the directory says where the station streams.")
            }
            (fields, logo) = try DirectoryStationAdd.fields(
                id: fromDirectory, name: name, alternate: alternate, context: context, allowLocal: allowLocal)
        }
        let logos = StationLogos(databasePath: context.databasePath)
        let result: EditResult
        do {
            result = try Edits.apply(.addStation(fields), context: context)
        } catch {
            if let logo { logos.remove(logo) }  // the station was not saved: nor is the logo it brought
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
}

/// `station add --from-directory`: the station as the directory knows it now, refused when this clock cannot
/// play it; its logo fetched and kept beside the database (a logo that cannot be had is a warning, not a failure).
enum DirectoryStationAdd {
    static func fields(
        id text: String, name: String?, alternate: String?, context: CommandContext, allowLocal: Bool
    ) throws -> (StationFields, logo: String?) {  // logo: a file this add created
        let id = try DirectoryQuery.stationID(text)
        let directory = try StationDirectoryFromConfig.make(context.configuration, allowLocal: allowLocal)
        let found: DirectoryStation
        do {
            guard let station = try directory.stations(ids: [id]).first(where: { $0.uuid == id }) else {
                throw CLIError.badInput(
                    "The station directory has no station with id \(id); search again with: aubade station search.")
            }
            found = station
        } catch let error as DirectoryError { throw CLIError.failed(error.message) }
        if let why = found.playability.note {
            throw CLIError.badInput(
                "\(DirectoryStation.plain(found.name, limit: 80)) cannot be saved: this clock \(why) (it plays MP3 streams, not HLS); pick another station."
            )
        }
        // Checked before anything is written: a link the store would refuse leaves no logo behind.
        var link = try found.link()
        if let store = try? context.openStoreForReading(quietWhenEmpty: true) {
            let twin = (try? store.stations())?.first { $0.directory?.id == id }
            store.close()
            if let twin { throw CLIError.badInput("This station of the directory is already saved, as '\(twin.name)'.") }
        }
        var newLogo: String?
        if !found.favicon.isEmpty {
            let logos = StationLogos(databasePath: context.databasePath)
            do {
                let bytes = try directory.logo(at: found.favicon, maxBytes: StationLogos.maxBytes)
                let existed = StationLogos.kind(of: bytes).map { logos.read("\(id).\($0)") != nil } ?? false
                link.logo = try logos.save(bytes, id: id)
                if !existed { newLogo = link.logo }
            } catch let error as DirectoryError {
                Aubade.printError("Saved without its logo: \(error.message)")
            } catch let error as StoreError {
                Aubade.printError("Saved without its logo: \(error.description)")
            }
        }
        let fields = StationFields(
            name: name ?? Self.name(DirectoryStation.plain(found.name, limit: 200)), url: found.url, alternate: alternate,
            directory: link)
        return (fields, newLogo)
    }

    /// The directory's name as a station name: at most 64 characters, cut at a word where it can be.
    static func name(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars.filter { $0.properties.generalCategory != .control })
        guard scalars.count > Names.maxLength else { return String(String.UnicodeScalarView(scalars)) }
        let cut = String(String.UnicodeScalarView(scalars[0..<Names.maxLength]))
        guard let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > 32 else { return cut }
        return String(cut[..<space])
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
