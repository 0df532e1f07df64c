import AubadeApp
import AubadeConfig

/// `aubade run --check-config`: reads the config the daemon would read, strictly, and says whether it is
/// clean, starting nothing. Exit 0 when every key is known and every value usable; otherwise exit 2 with one
/// sentence per problem on stderr (a bad value, a misspelt button, a file that is not TOML or cannot be read,
/// an unknown key). The daemon itself would still start on such a file, with the defaults (R36).
enum ConfigCheck {
    static func run(_ global: GlobalOptions) throws {
        let loaded = try ConfigLoader.load(path: global.config, mode: .strict)
        for warning in loaded.warnings { Aubade.printError(warning) }
        guard let path = loaded.path else {
            return Output.say("No config file: aubade run uses the built-in defaults.", json: global.json)
        }
        guard loaded.warnings.isEmpty else {
            let count = loaded.warnings.count
            throw CLIError.badInput(
                "Config file \(path) has \(count) unknown key\(count == 1 ? "" : "s"), which aubade run ignores.")
        }
        Output.say(
            "Config file \(path) is OK: every key is known and every value can be used.", json: global.json,
            fields: ["config": .string(path)])
    }
}
