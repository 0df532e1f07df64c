import ArgumentParser
import AubadeApp
import AubadeConfig
import AubadeCore
import AubadeStore
import Foundation

/// The root command. Errors are reported here, once: one sentence on stderr and an exit code —
/// 2 for bad input (a value, an unknown id, a bad config), 1 when the machine or the file failed.
struct Aubade: ParsableCommand {
    static let version = Product.version

    static let configuration = CommandConfiguration(
        commandName: "aubade",
        abstract: "A bedside radio alarm clock that never fails to wake you.",
        version: version,
        subcommands: [
            RunCommand.self, PlayCommand.self, RingCommand.self, AlarmCommand.self, StationCommand.self, PodcastCommand.self,
            ProgramCommand.self, DaysOffCommand.self, SettingsCommand.self, SleepCommand.self, StatusCommand.self,
            StopCommand.self, SnoozeCommand.self, TokenCommand.self, DoctorCommand.self, OutputsCommand.self,
            VerifyCommand.self,
            VersionCommand.self,
        ])

    static func main(arguments: [String]) async {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            if let changer = command as? any ChangesSchedule {
                // A running clock picks the change up at once (it would also notice within a minute).
                ControlClient.notifyChanged(databasePath: try changer.global.context(quiet: true).databasePath)
            }
        } catch {
            Foundation.exit(report(error))
        }
    }

    /// Prints `error` the way a user should see it and returns the exit code.
    static func report(_ error: any Error) -> Int32 {
        switch error {
        case let e as CLIError:
            printError(e.message)
            return e.code
        case let e as AubadeCore.ValidationError:
            printError(e.message)
            return 2
        case let e as ConfigError:
            for line in e.message.split(separator: "\n") { printError(String(line)) }  // one sentence per problem
            return 2
        case let e as StoreError:
            printError(e.description)
            return e.isUserMistake ? 2 : 1
        default:
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                return 0
            }
            let message = self.message(for: error)
            if !message.isEmpty { printError(message.hasSuffix(".") ? message : message + ".") }
            return code == .validationFailure ? 2 : code.rawValue
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("aubade: \(message)\n".utf8))
    }
}

/// A refusal or failure the CLI itself detected, with its exit code.
struct CLIError: Error {
    let message: String
    let code: Int32

    static func badInput(_ message: String) -> CLIError { CLIError(message: message, code: 2) }
    static func failed(_ message: String) -> CLIError { CLIError(message: message, code: 1) }
}

extension StoreError {
    /// True when the user asked for something impossible, false when the file or the machine failed.
    var isUserMistake: Bool {
        switch self {
        case .notFound, .conflict, .invalid, .unprocessable: true
        case .unreadable, .schemaTooNew, .cannotOpen, .invalidRow, .sqlite, .readOnly: false
        }
    }
}

/// A command that changes what the clock does (alarms, stations, settings, programmes, tokens): after it
/// succeeds, a running daemon is told to reload (edits already went through it when it runs; tokens are
/// written directly and picked up by that reload).
protocol ChangesSchedule {
    var global: GlobalOptions { get }
}

extension AlarmAdd: ChangesSchedule {}
extension AlarmEdit: ChangesSchedule {}
extension AlarmRemove: ChangesSchedule {}
extension AlarmEnable: ChangesSchedule {}
extension AlarmDisable: ChangesSchedule {}
extension AlarmSkipNext: ChangesSchedule {}
extension ProgramAdd: ChangesSchedule {}
extension ProgramReserve: ChangesSchedule {}
extension ProgramUnreserve: ChangesSchedule {}
extension ProgramRemove: ChangesSchedule {}
extension ProgramImport: ChangesSchedule {}
extension DaysOffAdd: ChangesSchedule {}
extension DaysOffImport: ChangesSchedule {}
extension DaysOffRemove: ChangesSchedule {}
extension StationAdd: ChangesSchedule {}
extension StationRemove: ChangesSchedule {}
extension SettingsSet: ChangesSchedule {}
extension TokenNew: ChangesSchedule {}
extension TokenRevoke: ChangesSchedule {}
