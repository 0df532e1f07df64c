import ArgumentParser
import AubadeApp
import AubadeConfig
import AubadeCore
import AubadeDaemon
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

    /// Opens the store for a command that changes it. A database that was missing or emptied is first rebuilt
    /// from the schedule's backup copy (R27), and stderr says so.
    func openStoreForWriting() throws -> Store {
        let opened = try Store.openRestoringBackup(path: databasePath)
        if let copy = opened.restored {
            Aubade.printError(
                "The database \(databasePath) was missing or empty; restored \(copy.alarms.count) alarm(s), \(copy.stations.count) station(s), \(copy.programmes.count) reserved programme(s) and the settings from the backup copy written \(copy.writtenAt.formatted(.iso8601)). Snoozes and history from before were lost."
            )
        }
        if let problem = opened.backupProblem {
            Aubade.printError(
                "\(problem.description) The database \(databasePath) was missing or empty and is now a new, empty one.")
        }
        if let reason = opened.store.readOnlyReason { throw reason }
        return opened.store
    }

    /// Opens the store for a command that only reads: nothing is written, a missing file is not created (R29).
    /// Says on stderr when it reads a newer schema, no database at all, or (R27) the backup copy — then
    /// `store.origin.fault` is set and a listing command exits 1 after its output. `showing` names what the
    /// command shows of the copy ("the 2 alarm(s)").
    /// `quietWhenEmpty`: a command that only looks something up on the side (`play`, `ring` with a URL) says
    /// nothing about a database that does not exist yet.
    func openStoreForReading(showing: ((ScheduleSnapshot.Contents) -> String)? = nil, quietWhenEmpty: Bool = false) throws
        -> Store
    {
        let store = try Store.openForReading(path: databasePath)
        switch store.origin {
        case .database:
            if let reason = store.readOnlyReason, case .schemaTooNew = reason { Aubade.printError(reason.description) }
        case .backupCopy(let copy, let fault):
            let what = showing.map { "Showing \($0(copy)) of the backup copy" } ?? "Using the backup copy"
            Aubade.printError("\(fault.description) \(what) written \(copy.writtenAt.formatted(.iso8601)).")
        case .nothing:
            if !quietWhenEmpty { Aubade.printError("There is no database at \(databasePath) yet; nothing is stored.") }
        }
        return store
    }

    /// The alarms and station names, read without writing. When the file is missing, empty or unreadable,
    /// those of the schedule's backup copy (R27: never a silently empty list), with a warning on stderr;
    /// `fault` is then set so the command can exit 1.
    func alarmsOrBackup() throws -> (alarms: [Alarm], stationNames: [Int64: String], fault: StoreError?) {
        let store = try openStoreForReading { "the \($0.alarms.count) alarm(s)" }
        return (try store.alarms(), AlarmDocument.stationNames(try store.stations()), store.origin.fault)
    }

    /// What `alarm list` and `alarm next` need besides the alarms — the programmes (on air when an alarm rings)
    /// and the days off (skipped) — read as `alarmsOrBackup` reads (the backup copy's when the file is unreadable).
    func scheduleOrBackup() throws -> (
        alarms: [Alarm], stationNames: [Int64: String], programmes: [Programme],
        daysOff: [DayOff], fault: StoreError?
    ) {
        let store = try openStoreForReading { "the \($0.alarms.count) alarm(s)" }
        return (
            try store.alarms(), AlarmDocument.stationNames(try store.stations()), try store.programmes(),
            try store.daysOff(), store.origin.fault
        )
    }

    /// The zone for alarms that name none: the config's, else the system's.
    func defaultZone() throws -> TimeZone {
        let name = configuration.clock.timeZone
        return name.isEmpty ? TimeZone.current : try Alarm.validTimeZone(name)
    }
}
