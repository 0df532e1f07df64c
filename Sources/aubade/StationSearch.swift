import ArgumentParser
import AubadeApp
import AubadeConfig
import AubadeCore
import AubadeDirectory
import Foundation

/// `aubade station search`: the public station directory, asked from this machine; nothing is stored.
struct StationSearch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search the public station directory (radio-browser) by name.",
        discussion: """
            The most played stations first, each address once. A station this clock cannot play (AAC, Ogg, HLS) is \
            listed with what it is; save one with: aubade station add --from-directory <id>
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Words of the station's name.") var words: [String] = []
    @Option(help: "A two-letter country code, e.g. DE.") var country: String?
    @Option(help: "A tag, e.g. jazz.") var tag: String?
    @Option(help: "A codec, e.g. mp3.") var codec: String?
    @Option(help: "How many results (1–100).") var limit = DirectoryQuery.defaultLimit
    @Flag(name: .customLong("allow-local"), help: "Allow a directory server on this machine.") var allowLocal = false

    func run() throws {
        let query = try DirectoryQuery(
            words: words.joined(separator: " "), country: country, tag: tag, codec: codec, limit: limit)
        let context = try global.context()
        let directory = try StationDirectoryFromConfig.require(context.configuration, allowLocal: allowLocal)
        let found: [DirectoryStation]
        do { found = try directory.search(query) } catch { throw CLIError.failed(error.message) }
        if global.json {
            Output.json(DirectorySearchDocument(found))
        } else if found.isEmpty {
            print("No station in the directory matches.")
        } else {
            Output.table(
                ["ID", "NAME", "COUNTRY", "CODEC", "KBPS", "NOTE"],
                // The directory's text is anyone's: it arrived plain (`DirectoryAnswer`), and is cut to fit the table.
                found.map { s in
                    [
                        OutsideText.clean(s.uuid, limit: 36), OutsideText.clean(s.name, limit: 80),
                        s.countryCode.isEmpty ? "-" : OutsideText.clean(s.countryCode, limit: 2),
                        s.codec.isEmpty ? "-" : s.codec, s.bitrate > 0 ? String(s.bitrate) : "-",
                        OutsideText.clean(s.playability.note ?? "", limit: 40),
                    ]
                })
        }
    }
}
