import ArgumentParser
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
            var object: [String: JSONScalar] = [:]
            for k in keys { object[k.rawValue] = JSONScalar(k.jsonValue(in: settings)) }
            Output.json(object)
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
        let store = try global.context().openStoreForWriting()
        let settings = try store.updateSettings { settings throws(AubadeCore.ValidationError) in try settingKey.set(value, in: &settings) }
        if global.json {
            Output.json([settingKey.rawValue: JSONScalar(settingKey.jsonValue(in: settings))])
        } else {
            print("\(settingKey.rawValue) = \(settingKey.value(in: settings))")
        }
    }
}

/// A JSON bool, number or string.
enum JSONScalar: Encodable {
    case bool(Bool), int(Int), double(Double), string(String)

    init(_ value: any Sendable) {
        switch value {
        case let b as Bool: self = .bool(b)
        case let i as Int: self = .int(i)
        default: self = .string("\(value)")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        }
    }
}
