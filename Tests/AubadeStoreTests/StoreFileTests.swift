import AubadeCore
import AubadeTesting
import Foundation
import GRDB
import Testing

@testable import AubadeStore

@Suite("Store files: creation, faults, versions, concurrency")
struct StoreFileTests {
    @Test func migrationFromAnEmptyFileCreatesTheLatestVersionWithTheOriginalColumns() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("nested/folder/aubade.sqlite")
        #expect(FileManager.default.createFile(atPath: dir.file("empty.sqlite"), contents: Data()))
        for p in [path, dir.file("empty.sqlite")] {
            let store = try Store.open(path: p)
            store.close()
            let q = try DatabaseQueue(path: p)
            let (version, journal, clocks, programs, appSet, others, settingsRows) = try q.read { db in
                (
                    try Int.fetchOne(db, sql: "PRAGMA user_version"), try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                    try db.columns(in: "clocks").map(\.name), try db.columns(in: "programs").map(\.name),
                    try db.columns(in: "appSet").map(\.name),
                    try ["stations", "alarmState", "events"].allSatisfy { try db.tableExists($0) },
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM appSet")
                )
            }
            #expect(version == Store.schemaVersion)
            #expect(journal == "wal")
            #expect(
                clocks.prefix(8) == [
                    "clockId", "clockName", "startTime", "durationTime", "repeated", "onceDate",
                    "isShaked", "isOpened",
                ])
            #expect(clocks.contains("clockMusic"))
            #expect(programs.prefix(5) == ["progId", "progName", "beginTime", "endTime", "isOrdered"])
            #expect(appSet.contains("isWifi"))
            #expect(others)
            #expect(settingsRows == 1)
        }
    }

    @Test func theStoresOwnConnectionsUseWALAndFullSynchronousWrites() throws {
        let f = try StoreFixture()
        let store2 = try Store.open(path: f.path)
        defer { store2.close() }
        for store in [f.store, store2] {
            let (journal, synchronous) = try store.queue.read { db in
                (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
            }
            #expect(journal == "wal" && synchronous == 2)  // 2 = FULL (R26); GRDB's own WAL setup left 1 = NORMAL
        }
    }

    @Test func openingACurrentFileForWritingCommitsNothing() throws {
        let f = try StoreFixture()
        try f.store.insert(try f.sampleAlarm())
        f.store.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: f.path))
        for _ in 0..<3 {
            let store = try Store.open(path: f.path)
            _ = try store.alarms()
            store.close()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: f.path)) == before)  // R29
        #expect(!FileManager.default.fileExists(atPath: f.path + "-wal"))
    }

    @Test func reopeningKeepsData() throws {
        let f = try StoreFixture()
        try f.store.insert(try f.sampleAlarm())
        f.store.close()
        let again = try Store.open(path: f.path)
        #expect(try again.alarms().count == 1)
    }

    @Test func garbageFileIsUnreadableNotEmpty() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("junk.sqlite")
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StoreError.self) { try Store.open(path: path) }
        guard case .unreadable(let p, _) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(p == path)
        #expect(error!.description.hasPrefix("The database \(path) is unreadable ("))
    }

    @Test func damagedPagesFailTheQuickCheck() throws {
        let f = try StoreFixture()
        for i in 0..<200 { try f.store.insert(try f.sampleAlarm("Alarm \(i)", "06:\(String(format: "%02d", i % 60))")) }
        f.store.close()
        // Overwrite the middle of the file (table/index pages) with garbage, keeping the header intact.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: f.path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: 4096 * 2)
        handle.write(Data(repeating: 0xA5, count: Int(min(size - 8192, 4096 * 4))))
        try handle.close()
        #expect(throws: StoreError.self) {
            let s = try Store.open(path: f.path)
            _ = try s.alarms()
        }
    }

    @Test func aNewerSchemaOpensReadOnlyAndStillReads() throws {
        let f = try StoreFixture()
        try f.store.insert(try f.sampleAlarm())
        f.store.close()
        let q = try DatabaseQueue(path: f.path)
        let newer = Store.schemaVersion + 1
        try q.write { db in try db.execute(sql: "PRAGMA user_version = \(newer)") }
        try q.close()
        let store = try Store.open(path: f.path)
        #expect(store.readOnlyReason == .schemaTooNew(path: f.path, found: newer, known: Store.schemaVersion))
        #expect(try store.alarms().count == 1)
        #expect(throws: StoreError.schemaTooNew(path: f.path, found: newer, known: Store.schemaVersion)) {
            try store.insert(try f.sampleAlarm())
        }
        #expect(try #require(store.readOnlyReason).description.contains("newer than this aubade knows (\(Store.schemaVersion))"))
    }

    @Test func theScheduleBackupCopyFollowsEveryChange() throws {
        let f = try StoreFixture()
        #expect(try f.store.snapshot.load().alarms.isEmpty)
        let fip = try f.store.insert(try Station(name: "FIP", url: try StreamURL(parsing: "https://fip.example/live")))
        let a = try f.store.insert(try f.sampleAlarm())
        var gym = try f.sampleAlarm("Gym", "05:30")
        gym.sound = .station(id: fip.id!)
        var b = try f.store.insert(gym)
        b.enabled = false
        try f.store.update(b)
        var s = AppSettings()
        s.isWifi = true
        try f.store.save(s)
        let copy = try f.store.snapshot.load()
        #expect(copy.alarms == [a, b])
        #expect(copy.settings == s)
        #expect(copy.stations == [fip])  // so a station alarm can still play from the copy
        #expect(copy.schemaVersion == Store.schemaVersion)
        try f.store.deleteAlarm(id: a.id!)
        #expect(try f.store.snapshot.load().alarms == [b])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: f.dir.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func twoConnectionsWritingAtOnceLoseNothing() async throws {
        let f = try StoreFixture()
        let other = try Store.open(path: f.path)
        let perWriter = 40
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (w, store) in [f.store, other].enumerated() {
                group.addTask {
                    for i in 0..<perWriter {
                        try store.insert(
                            Alarm(
                                name: "w\(w)-\(i)", time: try LocalTime(hour: 6, minute: i % 60),
                                recurrence: .weekly(.all)))
                    }
                }
            }
            try await group.waitForAll()
        }
        let names = Set(try f.store.alarms().map(\.name))
        #expect(names.count == 2 * perWriter)
        #expect(try f.store.snapshot.load().alarms.count == 2 * perWriter)
    }
}
