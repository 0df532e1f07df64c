import ArgumentParser
import AubadeApp
import AubadeConfig
import AubadeCore
import AubadeStore
import Foundation

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Option(name: .long, help: "The SQLite database (default: the config's paths.database).")
    var db: String?

    @Option(name: .long, help: "The TOML config file (default: $AUBADE_CONFIG, else /etc/aubade/aubade.toml if present).")
    var config: String?

    /// Loads the config once (printing its problems and unknown keys on stderr unless `quiet`) and resolves
    /// the database path. `.strict` (every command a user types) refuses a file with a bad value; `.lenient`
    /// (the daemon, `doctor`, and the commands that talk to a running clock: a typo must not keep `stop` from
    /// stopping an alarm) carries on with the defaults the problems name (R36).
    ///
    /// Without `--db`, `--config` and `$AUBADE_CONFIG`, a command uses the database (and config) of the clock
    /// running on this machine, as announced in its runtime folder — so `aubade status` next to `make run`
    /// just works. The daemon itself (`forDaemon`) never follows another daemon's announcement.
    func context(quiet: Bool = false, mode: ConfigLoader.Mode = .strict, forDaemon: Bool = false) throws -> CommandContext {
        var configPath = config
        var databasePath = db
        let fromEnvironment = ProcessInfo.processInfo.environment["AUBADE_CONFIG"].map { !$0.isEmpty } ?? false
        if !forDaemon, db == nil, config == nil, !fromEnvironment, let running = RuntimeAnnouncement.running().first {
            databasePath = running.database
            configPath = running.config
        }
        let loaded = try ConfigLoader.load(path: configPath, mode: mode)
        if !quiet { for line in loaded.problemMessages + loaded.warnings { Aubade.printError(line) } }
        return CommandContext(loaded: loaded, databasePath: databasePath ?? loaded.configuration.paths.database, json: json)
    }
}

/// What one command works with: the config read once, the database path, the output format.
struct CommandContext {
    let loaded: ConfigLoader.Loaded
    let databasePath: String
    let json: Bool

    var configuration: Configuration { loaded.configuration }

    /// Opens the store for a command that changes it.
    func openStoreForWriting() throws -> Store {
        let store = try Store.open(path: databasePath)
        if let reason = store.readOnlyReason { throw reason }
        return store
    }

    /// Opens the store for a command that only reads; a newer schema is read with a warning.
    func openStoreForReading() throws -> Store {
        let store = try Store.open(path: databasePath)
        if let reason = store.readOnlyReason { Aubade.printError(reason.description) }
        return store
    }

    /// The alarms and station names from the database. When the file is unreadable, those of the schedule's
    /// backup copy (R27: never a silently empty list), with a warning on stderr; `fault` is then set so the
    /// command can exit 1.
    func alarmsOrBackup() throws -> (alarms: [Alarm], stationNames: [Int64: String], fault: StoreError?) {
        do {
            let store = try openStoreForReading()
            return (try store.alarms(), AlarmDocument.stationNames(try store.stations()), nil)
        } catch let error as StoreError where error.isReadFault {
            guard let copy = try? ScheduleSnapshot(databasePath: databasePath).load() else { throw error }
            Aubade.printError("\(error.description) Showing the \(copy.alarms.count) alarm(s) of the backup copy written \(copy.writtenAt.formatted(.iso8601)).")
            return (copy.alarms, AlarmDocument.stationNames(copy.stations), error)
        }
    }

    /// The zone for alarms that name none: the config's, else the system's.
    func defaultZone() throws -> TimeZone {
        let name = configuration.clock.timeZone
        return name.isEmpty ? TimeZone.current : try Alarm.validTimeZone(name)
    }
}
