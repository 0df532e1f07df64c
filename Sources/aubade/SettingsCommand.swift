import ArgumentParser
import AubadeApp
import AubadeCore
import AubadeStore
import Foundation

struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Read or change run-time settings (volume, snooze, Wi-Fi-only...).",
        subcommands: [SettingsGet.self, SettingsSet.self])
}

struct SettingsGet: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "get", abstract: "Show one setting, or all.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "A setting's name; omit for all.") var key: String?

    func run() throws {
        let keys = try key.map { [try SettingKey(parsing: $0)] } ?? SettingKey.allCases
        let store = try global.context().openStoreForReading { _ in "the settings" }
        let (settings, invalid) = try store.settingsWithProblems()
        for name in invalid {
            Aubade.printError("Stored setting \(name) was out of range; its default is used.")
        }
        if global.json {
            Output.json(SettingsDocument.make(settings, keys: keys))
        } else if let only = keys.first, keys.count == 1, key != nil {
            print(only.value(in: settings))
        } else {
            Output.table(["SETTING", "VALUE"], keys.map { [$0.rawValue, $0.value(in: settings)] })
        }
        if store.origin.fault != nil { throw ExitCode(1) }
    }
}

struct SettingsSet: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "set", abstract: "Change a setting.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "A setting's name (see 'aubade settings get').") var key: String
    @Argument(help: "Its new value.") var value: String

    func run() throws {
        let settingKey = try SettingKey(parsing: key)
        let result = try Edits.apply(.setSettings([SettingChange(key: key, value: .text(value))]), context: try global.context())
        guard case .settings(let settings) = result.outcome else { throw Edits.unexpected }
        if global.json {
            Output.json([settingKey.rawValue: JSONScalar(settingKey.jsonValue(in: settings))])
        } else {
            print("\(settingKey.rawValue) = \(settingKey.value(in: settings))")
        }
    }
}
