import AubadeApp
import AubadeCore
import AubadeStore
import Foundation

/// Carries out a user's edit: through the running clock when one runs on this database — the change takes
/// effect at once, on the one path every client uses (`ClockCommand.edit`) — else on the database directly;
/// both end in `Store.apply`, so the sentences and exit codes are the same either way.
enum Edits {
    static func apply(_ edit: ClockEdit, context: CommandContext) throws -> EditResult {
        let viaClock: Result<ClockReply, ClockError>
        do throws(ControlClient.Failure) {
            viaClock = try ControlClient.send(.edit(edit), databasePath: context.databasePath)
        } catch .notRunning {
            return try direct(edit, context: context)
        } catch {
            throw CLIError.failed(error.description)
        }
        switch viaClock {
        case .success(.edited(let result)): return result
        case .success: throw unexpected
        case .failure(let error): throw CLIError(error)
        }
    }

    /// No clock runs on this database: the edit goes to the file (rebuilt from its backup copy first when it
    /// was missing or emptied, R27).
    private static func direct(_ edit: ClockEdit, context: CommandContext) throws -> EditResult {
        let zone = try context.defaultZone()
        let store = try context.openStoreForWriting()
        let outcome = try store.apply(edit, zone: zone, now: Date())
        return EditResult(outcome, stationNames: AlarmDocument.stationNames(try store.stations()))
    }

    static let unexpected = CLIError.failed("The clock answered the change with something else than what was saved.")
}
