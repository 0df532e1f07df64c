import AubadeCore
import AubadeTesting
import Foundation
import GRDB
import Testing

@testable import AubadeStore

/// Schema version 2 (R28: every past version migrated, one transaction per step) and the device tokens.
@Suite("Store: migrations to version 2 and device tokens")
struct StoreMigrationAndTokenTests {
    /// A file left at `version` by an older binary: its steps applied, with an alarm and a station in it.
    static func file(at version: Int, in dir: TemporaryDirectory) throws -> String {
        let path = dir.file("v\(version).sqlite")
        let q = try DatabaseQueue(path: path)
        try q.write { db in
            try Schema.applySteps(from: 0, through: version, db)
            try db.execute(
                sql: """
                    INSERT INTO stations (name, url, createdAt, updatedAt) VALUES ('FIP', 'http://radio.example/fip', '2026-01-01', '2026-01-01');
                    INSERT INTO clocks (clockName, startTime, durationTime, repeated, clockMusic, volume, fadeInSeconds,
                                        snoozeMinutes, maxSnoozes, createdAt, updatedAt)
                    VALUES ('Work', '06:45', 900, 'mon,tue,wed,thu,fri', 'station:1', 60, 30, 9, 3, '2026-01-01', '2026-01-01');
                    """)
        }
        try q.close()
        return path
    }

    @Test(arguments: Array(1..<Schema.latestVersion))
    func everyPastVersionMigratesToTheLatestKeepingItsRows(version: Int) throws {
        let dir = try TemporaryDirectory()
        let path = try Self.file(at: version, in: dir)
        let store = try Store.open(path: path)
        defer { store.close() }
        let (found, tokensTable) = try store.queue.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA user_version"), try db.tableExists("tokens"))
        }
        #expect(found == Schema.latestVersion)
        #expect(tokensTable)
        #expect(try store.alarms().map(\.name) == ["Work"])
        #expect(try store.stations().map(\.name) == ["FIP"])
        #expect(try store.tokens().isEmpty)
    }

    /// Version 11: the `sound_after` column — rows from version 10 read as sounding with the ring (nil), and a
    /// sound-after is stored in seconds and read back.
    @Test func version11AddsSoundAfterAndOlderRowsSoundWithTheRing() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.file(at: 10, in: dir)
        let store = try Store.open(path: path)
        defer { store.close() }
        #expect(try store.queue.read { db in try db.columns(in: "clocks").map(\.name) }.contains("sound_after"))
        var alarm = try #require(try store.alarms().first)
        #expect(alarm.soundAfter == nil)
        alarm.soundAfter = .seconds(90)
        try store.update(alarm)
        #expect(try store.alarms().first?.soundAfter == .seconds(90))
        #expect(try store.queue.read { db in try Int.fetchOne(db, sql: "SELECT sound_after FROM clocks") } == 90)
        #expect(throws: (any Error).self) {
            try store.queue.write { db in try db.execute(sql: "UPDATE clocks SET sound_after = 601") }
        }
    }

    @Test func aStepThatFailsLeavesTheFileAtItsWholeVersion() throws {
        // The version-2 step inside one transaction with its user_version bump: a file that already has a
        // `tokens` table of its own (hand-made) makes the step fail, and nothing of it is committed.
        let dir = try TemporaryDirectory()
        let path = try Self.file(at: 1, in: dir)
        let q = try DatabaseQueue(path: path)
        try q.write { db in try db.execute(sql: "CREATE TABLE tokens (x INTEGER)") }
        try q.close()
        #expect(throws: StoreError.self) { try Store.open(path: path) }
        let check = try DatabaseQueue(path: path)
        defer { try? check.close() }
        #expect(try check.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == 1)
        #expect(try check.read { db in try db.columns(in: "tokens").map(\.name) } == ["x"])
    }

    @Test func aTokenIsStoredOnlyAsItsHashAndChecksInConstantTimeForm() throws {
        let f = try StoreFixture()
        let (token, secret) = try f.store.createToken(name: "phone")
        #expect(secret.hasPrefix("aubade_") && secret.count == 50)
        #expect(token.hash == TokenSecret.hash(secret) && token.hash.count == 64)
        let raw =
            try Data(contentsOf: URL(fileURLWithPath: f.path))
            + ((try? Data(contentsOf: URL(fileURLWithPath: f.path + "-wal"))) ?? Data())
        #expect(raw.range(of: Data(secret.utf8)) == nil, "the token's text is never written")
        #expect(raw.range(of: Data(token.hash.utf8)) != nil)
        #expect(TokenSecret.equal(token.hash, TokenSecret.hash(secret)))
        #expect(!TokenSecret.equal(token.hash, TokenSecret.hash(secret + "x")))
        #expect(!TokenSecret.equal(token.hash, String(token.hash.dropLast())))
    }

    @Test func tokenNamesAreUniqueDefaultedAndRevokedByNameOrID() throws {
        let f = try StoreFixture()
        _ = try f.store.createToken(name: "phone")
        #expect(throws: StoreError.conflict("A token named 'Phone' already exists; pick another name or revoke that one first."))
        {
            try f.store.createToken(name: "Phone")
        }
        #expect(throws: StoreError.invalid("Token name is empty; give it a few words.")) { try f.store.createToken(name: "  ") }
        let unnamed = try f.store.createToken(name: nil).token
        #expect(unnamed.name == "token 2")
        #expect(try f.store.revokeToken("PHONE").name == "phone")
        #expect(try f.store.revokeToken(String(unnamed.id)).id == unnamed.id)
        #expect(throws: StoreError.invalid("No token is named 'tablet'; see 'aubade token list'.")) {
            try f.store.revokeToken("tablet")
        }
        #expect(throws: StoreError.notFound(what: "token", id: 9)) { try f.store.revokeToken("9") }
        #expect(try f.store.tokens().isEmpty)
        let again = try f.store.createToken(name: "phone").token
        let used = Date(timeIntervalSince1970: 1_800_000_000)
        try f.store.tokenUsed(id: again.id, at: used)
        #expect(try f.store.tokens().first?.lastUsedAt == used)
    }
}

/// Version 5: a station from the public directory keeps where it was found, through a migration, the backup copy
/// and its removal (which also removes its logo from the logo folder).
@Suite("Store: stations from the directory")
struct StoreDirectoryStationTests {
    static let id = "11111111-1111-1111-1111-111111111111"

    @Test func aDirectoryStationRoundTripsAndAnOlderStationHasNoLink() throws {
        let dir = try TemporaryDirectory()
        let store = try Store.open(path: try StoreMigrationAndTokenTests.file(at: 4, in: dir))
        defer { store.close() }
        #expect(try store.stations().map(\.directory) == [nil])
        let logos = StationLogos(databasePath: store.path)
        let logo = try logos.save([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3], id: Self.id)
        #expect(logo == "\(Self.id).png")
        let link = try DirectoryLink(
            id: Self.id, codec: "MP3", bitrate: 128, homepage: "https://jazz.example", country: "CH", logo: logo)
        let saved = try store.insert(
            try Station(name: "Swiss Jazz", url: try StreamURL(parsing: "http://jazz.example/s.mp3"), directory: link))
        #expect(try store.station(id: saved.id!).directory == link)
        // The same directory station under another name (whoever asks: the API too) is refused.
        #expect(throws: StoreError.conflict("This station of the directory is already saved, as 'Swiss Jazz'.")) {
            try store.insert(try Station(name: "Jazz", url: try StreamURL(parsing: "http://jazz.example/s.mp3"), directory: link))
        }
        // The backup copy (R27) carries it too.
        let copy = try ScheduleSnapshot(databasePath: store.path).load()
        #expect(copy.stations.first { $0.name == "Swiss Jazz" }?.directory == link)
        try store.deleteStation(id: saved.id!)
        #expect(logos.read(logo) == nil)
    }

    @Test func theColumnsRefuseWhatTheModelRefuses() throws {
        #expect(throws: ValidationError.self) { try DirectoryLink(id: Self.id, logo: "../../etc/passwd") }
        #expect(throws: ValidationError.self) { try DirectoryLink(id: Self.id, logo: "\(Self.id).svg") }
        #expect(throws: ValidationError.self) { try DirectoryLink(id: Self.id, country: "France") }
        #expect(throws: ValidationError.self) { try DirectoryLink(id: Self.id, bitrate: -1) }
        #expect(StationLogos.kind(of: Array("<svg/>".utf8)) == nil)
        #expect(StationLogos.kind(of: [0xFF, 0xD8, 0xFF, 0xE0]) == "jpg")
    }
}
