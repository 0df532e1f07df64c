import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import GRDB
import Testing

/// R29: opening for reading writes nothing — not the file, not a `-wal`/`-shm` file, not the backup copy —
/// and never creates a missing database.
@Suite("Store opened for reading")
struct StoreReadingTests {
    /// Every file in the folder with its bytes.
    static func files(_ dir: TemporaryDirectory) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
            out[name] = try Data(contentsOf: URL(fileURLWithPath: dir.file(name)))
        }
        return out
    }

    static func work() throws -> Alarm {
        Alarm(name: "Work", time: try LocalTime(parsing: "06:45"), recurrence: .weekly(.workdays))
    }

    @Test func aClosedDatabaseIsReadWithoutChangingOrAddingAnyFile() throws {
        let f = try StoreFixture()
        let saved = try f.store.insert(try Self.work())
        try f.store.updateSettings { $0.isWifi = true }
        f.store.close()
        let before = try Self.files(f.dir)
        #expect(before.keys.sorted() == ["aubade.sqlite", "aubade.sqlite.schedule.json", "aubade.sqlite.schedule.lock"])
        let store = try Store.openForReading(path: f.path)
        #expect(try store.alarms() == [saved] && store.settings().isWifi)
        guard case .database = store.origin else { Issue.record("origin \(store.origin)"); return }
        #expect(throws: StoreError.cannotOpen(path: f.path, reason: "it was opened for reading only")) {
            try store.insert(try Self.work())
        }
        store.close()
        #expect(try Self.files(f.dir) == before)
    }

    @Test func whileAnotherConnectionHoldsPagesInTheWALTheyAreReadAndNothingChanges() throws {
        let f = try StoreFixture()
        // f.store stays open, like the daemon: its commits stay in the -wal file.
        let saved = try f.store.insert(try Self.work())
        let walSize = try #require(try Self.files(f.dir)["aubade.sqlite-wal"]).count
        #expect(walSize > 0)
        let before = try Self.files(f.dir).filter { $0.key != "aubade.sqlite-shm" }  // read marks live in -shm
        let store = try Store.openForReading(path: f.path)
        #expect(try store.alarms() == [saved])
        store.close()
        #expect(try Self.files(f.dir).filter { $0.key != "aubade.sqlite-shm" } == before)
        // The writer still works after the reader left.
        try f.store.updateAlarm(id: saved.id!) { alarm, _ in alarm.volume = 90 }
        #expect(try Store.openForReading(path: f.path).alarm(id: saved.id!).volume == 90)
    }

    @Test func aMissingDatabaseIsNotCreatedAndReadsAsEmpty() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("aubade.sqlite")
        let store = try Store.openForReading(path: path)
        guard case .nothing = store.origin else { Issue.record("origin \(store.origin)"); return }
        #expect(try store.alarms().isEmpty && store.stations().isEmpty && store.programmes().isEmpty)
        #expect(try store.settings() == AppSettings())
        #expect(throws: StoreError.self) { try store.insert(try Self.work()) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test(arguments: [false, true])
    func aMissingOrEmptiedDatabaseReadsTheBackupCopy(truncated: Bool) throws {
        let f = try StoreFixture()
        let saved = try f.store.insert(try Self.work())
        f.store.close()
        if truncated { #expect(truncate(f.path, 0) == 0) } else { try FileManager.default.removeItem(atPath: f.path) }
        let before = try Self.files(f.dir)
        let store = try Store.openForReading(path: f.path)
        guard case .backupCopy(let copy, let fault) = store.origin else { Issue.record("origin \(store.origin)"); return }
        #expect(copy.alarms == [saved])
        #expect(fault == .unreadable(path: f.path, reason: truncated ? "it is empty" : "it does not exist"))
        #expect(try store.alarms() == [saved])
        #expect(try Self.files(f.dir) == before)
    }

    @Test func anUnreadableFileReadsTheCopyOrThrows() throws {
        let f = try StoreFixture()
        let saved = try f.store.insert(try Self.work())
        f.store.close()
        try Data(repeating: 0x42, count: 16384).write(to: URL(fileURLWithPath: f.path))
        let store = try Store.openForReading(path: f.path)
        #expect(store.origin.fault?.description.hasPrefix("The database \(f.path) is unreadable (") == true)
        #expect(try store.alarms() == [saved])
        try FileManager.default.removeItem(atPath: f.path + ".schedule.json")
        let error = #expect(throws: StoreError.self) { try Store.openForReading(path: f.path) }
        guard case .unreadable(let p, _) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(p == f.path)
    }

    @Test func aNewerSchemaIsReadAsItIs() throws {
        let f = try StoreFixture()
        try f.store.insert(try Self.work())
        f.store.close()
        let q = try DatabaseQueue(path: f.path)
        let newer = Store.schemaVersion + 1
        try q.write { db in try db.execute(sql: "PRAGMA user_version = \(newer)") }
        try q.close()
        let before = try Self.files(f.dir)
        let store = try Store.openForReading(path: f.path)
        #expect(store.readOnlyReason == .schemaTooNew(path: f.path, found: newer, known: Store.schemaVersion))
        #expect(try store.alarms().count == 1)
        store.close()
        #expect(try Self.files(f.dir) == before)
    }

    @Test func aWriteBetweenTwoReadsIsSeenByTheSecond() throws {
        let f = try StoreFixture()
        f.store.close()
        #expect(try Store.openForReading(path: f.path).alarms().isEmpty)
        let writer = try Store.open(path: f.path)
        try writer.insert(try Self.work())
        writer.close()
        #expect(try Store.openForReading(path: f.path).alarms().count == 1)
    }
}
