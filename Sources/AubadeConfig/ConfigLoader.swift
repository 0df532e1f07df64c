import AubadeCore
import Foundation
import TOMLKit

/// Loads a `Configuration` from TOML text. Unknown keys are not fatal: they come back as warnings (a typo
/// must not stop an alarm clock), each naming the key and its line. A value of the wrong type or out of
/// range is fatal and names the key and its line.
public enum ConfigLoader {
    public struct Loaded: Sendable {
        public var configuration: Configuration
        public var warnings: [String]
        /// The file read, or nil when the built-in defaults are used.
        public var path: String?
    }

    /// The system-wide file read when no path is given and `AUBADE_CONFIG` is not set.
    public static let systemPath = "/etc/aubade/aubade.toml"

    /// Reads `path`, or `$AUBADE_CONFIG`, or the system file when it exists, or returns the defaults.
    public static func load(path: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(ConfigError) -> Loaded
    {
        let chosen = path ?? environment["AUBADE_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (FileManager.default.fileExists(atPath: systemPath) ? systemPath : nil)
        guard let chosen else { return Loaded(configuration: Configuration(), warnings: [], path: nil) }
        let text: String
        do {
            text = try String(contentsOfFile: chosen, encoding: .utf8)
        } catch {
            throw ConfigError("Config file \(chosen) cannot be read (\(Self.reason(error))).")
        }
        var loaded = try parse(text, name: chosen)
        loaded.path = chosen
        return loaded
    }

    /// Parses TOML text; `name` labels messages.
    public static func parse(_ text: String, name: String) throws(ConfigError) -> Loaded {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError("Config file \(name) is not valid TOML at line \(error.source.begin.line): \(error.description).")
        } catch {
            throw ConfigError("Config file \(name) is not valid TOML: \(error).")
        }
        var reader = ConfigReader(table: table, text: text, name: name)
        let configuration = try reader.read()
        return Loaded(configuration: configuration, warnings: reader.unknownKeys(), path: nil)
    }

    private static func reason(_ error: any Error) -> String {
        if let e = error as? CocoaError, e.code == .fileReadNoSuchFile { return "no such file" }
        if let e = error as? CocoaError, e.code == .fileReadNoPermission { return "permission denied" }
        return error.localizedDescription
    }
}
