public import AubadeCore
public import Foundation
import GRDB

/// The second copy of the effective schedule (R27): every alarm, the stations, the settings and the reserved
/// programmes, as JSON beside the database (`<database>.schedule.json`). Rewritten after each change — to a temp
/// file, fsync'd, renamed over the old copy, folder fsync'd — under an advisory lock, so two processes changing
/// alarms at once leave the newer state. When the database is unreadable, the clock runs from this copy and says
/// so; when the database is missing or empty, `Store.openRestoringBackup` restores it from this copy.
///
/// Format versions: 1 had `clocks`, `stations`, `appSet`; 2 (`formatVersion: 2`) adds `programs`, the reserved
/// programmes only (they act at a time, like alarms; the unreserved listings can be imported again and would
/// make every rewrite large). A version-1 copy still loads, with no programmes. 3 adds `tokens`, the device
/// tokens' hashes (never a token itself), so that a clock running from the copy still takes a Stop from the
/// kiosk or a phone, and a restored database keeps its paired devices; and the `appSet` night-dimming keys.
/// 4 adds what an alarm needs to ring right without the database (issue 13): `daysOff` (an alarm that skips
/// them must not ring on a holiday), the alarms' new columns (skipping days off; the programme an alarm follows,
/// its last known time and dates being the alarm's own), and in `programs` also the programmes alarms follow.
/// Copies of formats 1–3 still load (no days off; their alarms skip none).
public struct ScheduleSnapshot: Sendable {
    /// The format this binary writes.
    public static let formatVersion = 4

    public let path: String
    private let lockPath: String

    public init(databasePath: String) {
        path = databasePath + ".schedule.json"
        lockPath = databasePath + ".schedule.lock"
    }

    /// What a backup copy holds.
    public struct Contents: Sendable {
        public var writtenAt: Date
        /// The database schema version of the binary that wrote it.
        public var schemaVersion: Int
        /// The copy's own format (1 for copies written before programmes were kept).
        public var formatVersion: Int
        public var alarms: [Alarm]
        public var stations: [Station]
        public var settings: AppSettings
        /// The reserved programmes and those alarms follow (none in a format-1 copy; only reserved ones before 4).
        public var programmes: [Programme]
        /// The device tokens (none before format 3).
        public var tokens: [AccessToken]
        /// The days off (none before format 4).
        public var daysOff: [DayOff]
    }

    /// The JSON document, rows as the tables hold them (so a restore keeps ids and timestamps).
    struct File: Codable {
        var formatVersion: Int?
        var writtenAt: Date
        var schemaVersion: Int
        var clocks: [ClockRow]
        var stations: [StationRow]
        var appSet: AppSetRow?
        var programs: [ProgramRow]?
        var tokens: [TokenRow]?
        var daysOff: [DayOffRow]?
    }

    var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// Reads the database and replaces the copy. Failing to write the copy is an error: the change itself
    /// is already committed, and the caller reports that the backup is stale.
    func write(from store: Store) throws(StoreError) {
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw failure("cannot open its lock file") }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { throw failure("cannot lock it") }
        defer { flock(lock, LOCK_UN) }

        let file = try store.read { db in
            File(
                formatVersion: Self.formatVersion, writtenAt: store.now(), schemaVersion: Schema.latestVersion,
                clocks: try ClockRow.order(sql: "clockId").fetchAll(db),
                stations: try StationRow.order(sql: "stationId").fetchAll(db), appSet: try AppSetRow.fetchOne(db, key: 1),
                programs: try ProgramRow.filter(sql: "isOrdered = 1 OR progId IN (SELECT programId FROM clocks)")
                    .order(sql: "progId").fetchAll(db),
                tokens: try TokenRow.order(sql: "tokenId").fetchAll(db),
                daysOff: try DayOffRow.order(sql: "dayOffId").fetchAll(db))
        }
        let data: Data
        do { data = try Self.encoder.encode(file) } catch { throw failure("cannot encode it: \(error)") }
        try replaceAtomically(with: data)
    }

    private func replaceAtomically(with data: Data) throws(StoreError) {
        let temp = path + ".tmp-\(getpid())"
        do {
            try DurableFile.replace(path, with: data, temp: temp)
        } catch {
            switch error {
            case .cannotCreate(let temp, _): throw failure("cannot create \(temp)")
            case .cannotWrite(let reason): throw failure("cannot write it (\(reason))")
            }
        }
    }

    /// Loads the copy. Throws when it is missing or unreadable.
    public func load() throws(StoreError) -> Contents {
        try loadFile().contents
    }

    /// The copy's rows, and what they hold once every row passed validation.
    func loadFile() throws(StoreError) -> (file: File, contents: Contents) {
        let file: File
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            file = try Self.decoder.decode(File.self, from: data)
        } catch {
            throw .unreadable(path: path, reason: "the schedule backup copy cannot be read")
        }
        var alarms: [Alarm] = []
        for row in file.clocks { alarms.append(try row.alarm()) }
        var stations: [Station] = []
        for row in file.stations { stations.append(try row.station()) }
        var programmes: [Programme] = []
        for row in file.programs ?? [] { programmes.append(try row.programme()) }
        var daysOff: [DayOff] = []
        for row in file.daysOff ?? [] { daysOff.append(try row.dayOff()) }
        let contents = Contents(
            writtenAt: file.writtenAt, schemaVersion: file.schemaVersion, formatVersion: file.formatVersion ?? 1,
            alarms: alarms, stations: stations, settings: file.appSet?.settings().0 ?? AppSettings(),
            programmes: programmes, tokens: (file.tokens ?? []).map(\.token), daysOff: daysOff)
        return (file, contents)
    }

    /// Inserts the copy's rows — same ids, same timestamps — into the blank, migrated database `db`, inside the
    /// caller's transaction. Stations first, so alarms and programmes find theirs.
    func restore(_ file: File, into db: Database) throws {
        for var row in file.stations { try row.insert(db) }
        for var row in file.clocks { try row.insert(db) }
        for var row in file.programs ?? [] { try row.insert(db) }
        for var row in file.tokens ?? [] { try row.insert(db) }
        for var row in file.daysOff ?? [] { try row.insert(db) }
        if let settings = file.appSet { try settings.upsert(db) }
    }

    private func failure(_ what: String) -> StoreError {
        .cannotOpen(path: path, reason: "the schedule backup copy \(what)")
    }

    private static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .iso8601
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return e
    }

    private static var decoder: JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return d
    }
}
