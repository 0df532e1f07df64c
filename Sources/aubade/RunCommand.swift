import ArgumentParser
import AubadeAudio
import AubadeConfig
import AubadeCore
import AubadeHardware
import AubadeStore
import Foundation

/// `aubade run`: the daemon. Until the scheduler, player, inputs and web page exist (their own issues), it
/// checks what it can — config, database, sound device, GPIO — and says plainly what is not built yet.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the clock (the daemon).")
    @OptionGroup var global: GlobalOptions
    @Option(help: "HTTP address to listen on, addr:port (default: the config's http.bind and http.port).")
    var http: String?

    func run() throws {
        let context = try global.context()
        let loaded = context.loaded
        let config = loaded.configuration
        let (alarms, stationNames, fault) = try context.alarmsOrBackup()
        print("Aubade \(Aubade.version)")
        print("config:   \(loaded.path ?? "built-in defaults")")
        print("database: \(context.databasePath) (schema \(Store.schemaVersion), \(alarms.count) alarm(s)\(fault == nil ? "" : " from the backup copy"))")
        let audio = AudioLibraries.probePlayback(device: config.audio.device).map { "not usable: \($0)" } ?? "opens"
        print("sound:    \(config.audio.device) \(audio)")
        let chips = GPIOLibrary.chipNames()
        print("gpio:     \(chips.isEmpty ? "no GPIO chip on this machine; buttons are off" : chips.joined(separator: ", "))")
        print("web page: http://\(http ?? "\(config.http.bind):\(config.http.port)") (not served yet)")
        print("")
        AlarmList.print(alarms, stationNames, json: context.json)
        print("")
        print("Not built yet: the scheduler that rings alarms, the radio player, the buttons and shake input,")
        print("and the web page. Alarms, stations and settings can already be managed with the CLI (aubade --help).")
    }
}
