import ArgumentParser
import AubadeApp
import AubadeAudio
import AubadeDaemon
import AubadeHTTP
import AubadeHardware
import AubadeStore
import Foundation

struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: "Show the version, the schema and the C libraries in use.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let info: [String: String] = [
            "aubade": Aubade.version,
            "schema": String(Store.schemaVersion),
            "libcurl": HTTPLibrary.curlVersion,
            "libmpg123": AudioLibraries.mpg123Description,
            "alsa-lib": AudioLibraries.alsaVersion,
            "libgpiod": GPIOLibrary.version,
            "libical": CalendarLoader.libicalVersion,
        ]
        if global.json {
            Output.json(info)
        } else {
            Output.table(["PART", "VERSION"], info.keys.sorted().map { [$0, info[$0]!] })
        }
    }
}
