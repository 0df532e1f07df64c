import AubadeCore
public import Foundation
import TOMLKit

/// Loads a `Configuration` from TOML text. Nothing in a config file may stop the clock (R36): an unknown key
/// is a warning, and a value that cannot be used (wrong type, out of range, not one of the choices, a
/// misspelt button) is a `ConfigProblem` naming its key and line, with that key's default used instead. The
/// `Mode` decides what a problem does: `.strict` refuses the file, `.lenient` carries on.
public enum ConfigLoader {
    /// What a problem in the file does.
    public enum Mode: Sendable {
        /// Any problem — a bad value, a misspelt button, a file that is not TOML or cannot be read — throws a
        /// `ConfigError` naming every problem. For a user typing a command: they see the mistake at once.
        /// Unknown keys stay warnings.
        case strict
        /// Never throws: each bad value falls back to its key's default, and a file that cannot be read or is
        /// not TOML at all falls back to every default; each is a `ConfigProblem` in `Loaded.problems`. For
        /// the daemon, which must start and ring whatever the file says.
        case lenient
    }

    public struct Loaded: Sendable {
        public var configuration: Configuration
        /// Unknown keys, each as a sentence naming the key and its line ("… is ignored.").
        public var warnings: [String]
        /// Values (or the whole file) that could not be used, in file order; always empty after a `.strict`
        /// load, which throws instead.
        public var problems: [ConfigProblem]
        /// The file read, or nil when the built-in defaults are used because there is none.
        public var path: String?

        /// Every problem as the sentence a running clock shows ("…; the default 8080 is used.").
        public var problemMessages: [String] { problems.map(\.message) }

        /// True when the file has neither problems nor unknown keys.
        public var isClean: Bool { problems.isEmpty && warnings.isEmpty }
    }

    /// The system-wide file read when no path is given and `AUBADE_CONFIG` is not set.
    public static let systemPath = "/etc/aubade/aubade.toml"

    /// Reads `path`, or `$AUBADE_CONFIG`, or the system file when it exists, or returns the defaults. A file
    /// that cannot be read (missing, no permission, not UTF-8) throws in `.strict` mode; in `.lenient` mode
    /// every key uses its default and that is the one problem.
    public static func load(
        path: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        mode: Mode = .strict
    ) throws(ConfigError) -> Loaded {
        let chosen =
            path ?? environment["AUBADE_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (FileManager.default.fileExists(atPath: systemPath) ? systemPath : nil)
        guard let chosen else { return Loaded(configuration: Configuration(), warnings: [], problems: [], path: nil) }
        var loaded: Loaded
        switch read(chosen) {
        case .success(let text):
            loaded = try parse(text, name: chosen, mode: mode)
        case .failure(let reason):
            loaded = try unusable(
                ConfigProblem(wholeFile: "Config file \(chosen) cannot be read (\(reason.text))", line: nil),
                mode: mode)
        }
        loaded.path = chosen
        return loaded
    }

    /// Parses TOML text; `name` labels messages. Text that is not TOML throws in `.strict` mode; in
    /// `.lenient` mode every key uses its default and that is the one problem.
    public static func parse(_ text: String, name: String, mode: Mode = .strict) throws(ConfigError) -> Loaded {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let line = error.source.begin.line
            return try unusable(
                ConfigProblem(
                    wholeFile: "Config file \(name) is not valid TOML at line \(line): \(error.description)",
                    line: line), mode: mode)
        } catch {
            return try unusable(
                ConfigProblem(wholeFile: "Config file \(name) is not valid TOML: \(error)", line: nil), mode: mode)
        }
        var reader = ConfigReader(table: table, text: text, name: name)
        let configuration = reader.read()
        let problems = ConfigProblem.inFileOrder(reader.problems)
        if mode == .strict && !problems.isEmpty { throw ConfigError(problems: problems) }
        return Loaded(configuration: configuration, warnings: reader.unknownKeys(), problems: problems, path: nil)
    }

    /// A file none of which can be used: refused, or all defaults with the one problem.
    private static func unusable(_ problem: ConfigProblem, mode: Mode) throws(ConfigError) -> Loaded {
        guard mode == .lenient else { throw ConfigError(problems: [problem]) }
        return Loaded(configuration: Configuration(), warnings: [], problems: [problem], path: nil)
    }

    /// Why a file could not be read, as words for a sentence ("no such file").
    private struct ReadFailure: Error {
        let text: String
    }

    private static func read(_ path: String) -> Result<String, ReadFailure> {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let e as CocoaError where e.code == .fileReadNoSuchFile {
            return .failure(ReadFailure(text: "no such file"))
        } catch let e as CocoaError where e.code == .fileReadNoPermission {
            return .failure(ReadFailure(text: "permission denied"))
        } catch {
            return .failure(ReadFailure(text: error.localizedDescription))
        }
        guard let text = String(data: data, encoding: .utf8) else { return .failure(ReadFailure(text: "it is not UTF-8 text")) }
        return .success(text)
    }
}
