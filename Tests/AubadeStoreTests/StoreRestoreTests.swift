import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import GRDB
import Synchronization
import Testing

/// R27: a database file that was deleted, emptied or never got its tables, with the schedule backup copy beside
/// it, comes back with the copy's alarms, stations, settings and reserved programmes — same ids.
@Suite("Store restore from the backup copy")
struct StoreRestoreTests {
    /// A store with two stations, three alarms (one playing a station), changed settings and a reserved and an
    /// unreserved programme; closed, so only the file and its backup copy remain.
    struct Saved {
        let dir: TemporaryDirectory
        let path: String
        let alarms: [Alarm]
        let stations: [Station]
        let settings: AppSettings
        let reserved: Programme

        init() throws {
            dir = try TemporaryDirectory("restore")
            path = dir.file("aubade.sqlite")
            let store = try Store.open(path: path)
            let fip = try store.insert(try Station(name: "FIP", url: try StreamURL(parsing: "https://fip.example/live")))
            let jazz = try store.insert(
                try Station(
                    name: "Jazz", url: try StreamURL(parsing: "https://jazz.example/a"),
                    alternateURL: try StreamURL(parsing: "https://jazz.example/b")))
            let utc = TimeZone(identifier: "UTC")!
            _ = try store.insertAlarm(zone: utc, now: Date(), AlarmPatch(name: "Gone", time: "05:00", days: "daily"))
            let work = try store.insertAlarm(
                zone: utc, now: Date(),
                AlarmPatch(
                    name: "Work", time: "06:45", days: "mon-fri", source: "FIP", volume: 70, shake: true))
            let nap = try store.insertAlarm(
                zone: utc, now: Date(),
                AlarmPatch(
                    name: "Nap", time: "14:00", days: "once", date: "2030-01-02", tz: "Europe/Berlin", enabled: false))
            try store.deleteAlarm(id: 1)  // so the ids kept are 2, 3 and 4, not 1...3
            let weekend = try store.insertAlarm(
                zone: utc, now: Date(),
                AlarmPatch(
                    name: "Weekend", time: "09:00", days: "sat,sun"))
            settings = try store.updateSettings {
                $0.defaultVolume = 45; $0.isWifi = true
            }
            let programmes = try store.insert([
                Programme(
                    name: "Night Jazz", begin: try LocalTime(parsing: "22:00"), end: try LocalTime(parsing: "23:00"),
                    stationID: jazz.id, weekday: .friday),
                Programme(
                    name: "Matin", begin: try LocalTime(parsing: "07:00"), end: try LocalTime(parsing: "09:00"),
                    stationID: fip.id),
            ])
            reserved = try store.setReserved(true, programmeID: programmes[0].id!)
            store.close()
            alarms = [work, nap, weekend]
            stations = [fip, jazz]
        }

        func expectRestored(_ opened: Store.Opened) throws {
            let copy = try #require(opened.restored)
            #expect(copy.alarms == alarms && copy.formatVersion == ScheduleSnapshot.formatVersion)
            let store = opened.store
            #expect(try store.alarms().sorted { $0.id! < $1.id! } == alarms)
            #expect(try store.stations() == stations)
            #expect(try store.settings() == settings)
            #expect(try store.programmes() == [reserved])  // only reserved programmes are in the copy
            #expect(try store.runStates().isEmpty)
            let event = try #require(try store.events().first)
            #expect(
                event.kind == "warning"
                    && event.detail.hasPrefix(
                        "The database was missing or empty; 3 alarm(s), 2 station(s), 1 reserved or followed programme(s), 0 day(s) off and the settings were restored"
                    ))
            // New rows continue after the restored ids; the station an alarm plays is still known by id.
            #expect(
                try store.insertAlarm(zone: TimeZone(identifier: "UTC")!, now: Date(), AlarmPatch(name: "New", time: "08:00")).id
                    == 5)
            #expect(throws: StoreError.self) { try store.deleteStation(id: stations[0].id!) }  // Work plays it
        }
    }

    @Test func aDeletedFileComesBackFromTheCopyWithTheSameIDs() throws {
        let saved = try Saved()
        try FileManager.default.removeItem(atPath: saved.path)
        let opened = try Store.openRestoringBackup(path: saved.path)
        defer { opened.store.close() }
        #expect(opened.backupProblem == nil)
        try saved.expectRestored(opened)
    }

    @Test func aFileTruncatedToZeroBytesComesBackFromTheCopy() throws {
        let saved = try Saved()
        #expect(truncate(saved.path, 0) == 0)
        let opened = try Store.openRestoringBackup(path: saved.path)
        defer { opened.store.close() }
        try saved.expectRestored(opened)
    }

    @Test func aDatabaseWithoutOurTablesIsRestoredToo() throws {
        let saved = try Saved()
        try FileManager.default.removeItem(atPath: saved.path)
        let other = try DatabaseQueue(path: saved.path)
        try other.write { db in try db.execute(sql: "CREATE TABLE unrelated (x)") }
        try other.close()
        let opened = try Store.openRestoringBackup(path: saved.path)
        defer { opened.store.close() }
        try saved.expectRestored(opened)
    }

    @Test func aPlainOpenRestoresAsWell() throws {
        let saved = try Saved()
        try FileManager.default.removeItem(atPath: saved.path)
        let store = try Store.open(path: saved.path)
        defer { store.close() }
        #expect(try store.alarms().count == 3)
    }

    @Test func withoutACopyTheFileBecomesANormalEmptyDatabase() throws {
        let saved = try Saved()
        try FileManager.default.removeItem(atPath: saved.path)
        try FileManager.default.removeItem(atPath: saved.path + ".schedule.json")
        let opened = try Store.openRestoringBackup(path: saved.path)
        defer { opened.store.close() }
        #expect(opened.restored == nil && opened.backupProblem == nil)
        #expect(try opened.store.alarms().isEmpty && opened.store.events().isEmpty)
        #expect(try opened.store.settings() == AppSettings())
        #expect(try opened.store.snapshot.load().alarms.isEmpty)  // a fresh, empty copy
    }

    @Test func anUnreadableCopyIsReportedAndTheFileStartsEmpty() throws {
        let saved = try Saved()
        #expect(truncate(saved.path, 0) == 0)
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: saved.path + ".schedule.json"))
        let opened = try Store.openRestoringBackup(path: saved.path)
        defer { opened.store.close() }
        #expect(opened.restored == nil)
        #expect(
            opened.backupProblem
                == .unreadable(
                    path: saved.path + ".schedule.json",
                    reason: "the schedule backup copy cannot be read"))
        #expect(try opened.store.alarms().isEmpty)
    }

    @Test func aFileWithAlarmsIsNeverOverwrittenByTheCopy() throws {
        let saved = try Saved()
        let store = try Store.open(path: saved.path)
        try store.deleteAlarm(id: 2)
        store.close()
        let opened = try Store.openRestoringBackup(path: saved.path)
        defer { opened.store.close() }
        #expect(opened.restored == nil)
        #expect(try opened.store.alarms().compactMap(\.id).sorted() == [3, 4])
    }

    @Test func twoOpensRacingOverADeletedFileRestoreOnce() throws {
        let saved = try Saved()
        try FileManager.default.removeItem(atPath: saved.path)
        let results = ResultBox()
        try StoreEditTests.together(
            (0..<2).map { _ in
                { results.add(try Store.openRestoringBackup(path: saved.path)) }
            })
        let opened = results.all
        #expect(opened.count == 2)
        #expect(opened.filter { $0.restored != nil }.count == 1)
        for o in opened {
            #expect(try o.store.alarms().count == 3)
            o.store.close()
        }
    }

    @Test func aFormat1CopyWithoutProgrammesStillLoadsAndRestores() throws {
        let saved = try Saved()
        let copyPath = saved.path + ".schedule.json"
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: copyPath))) as? [String: Any])
        #expect(object["formatVersion"] as? Int == 4 && (object["programs"] as? [Any])?.count == 1)
        object["formatVersion"] = nil
        object["programs"] = nil
        object["tokens"] = nil
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: copyPath))
        let old = try ScheduleSnapshot(databasePath: saved.path).load()
        #expect(old.formatVersion == 1 && old.programmes.isEmpty && old.alarms == saved.alarms)
        try FileManager.default.removeItem(atPath: saved.path)
        let opened = try Store.openRestoringBackup(path: saved.path)
        defer { opened.store.close() }
        #expect(try opened.store.alarms().count == 3 && opened.store.programmes().isEmpty)
    }
}

/// Values handed back from several threads.
private final class ResultBox: Sendable {
    private let items = Mutex<[Store.Opened]>([])
    func add(_ opened: Store.Opened) { items.withLock { $0.append(opened) } }
    var all: [Store.Opened] { items.withLock { $0 } }
}
