import AubadeCore
import AubadeTesting
import Foundation
import GRDB
import Testing

@testable import AubadeStore

/// Schema version 3 (night dimming in `appSet`), the settings edit that takes the three dimming keys as one,
/// and the backup copy's device tokens (format 3).
@Suite("Store: night-dimming settings and the backup copy's tokens")
struct StoreDimmingAndTokenCopyTests {
    func set(_ f: StoreFixture, _ changes: [(String, SettingValue)]) throws(StoreError) -> AppSettings {
        let edit = ClockEdit.setSettings(changes.map { SettingChange(key: $0.0, value: $0.1) })
        guard case .settings(let s) = try f.store.apply(edit, zone: .gmt, now: Date(timeIntervalSince1970: 1_795_503_000)) else {
            throw .invalid("not a settings outcome")
        }
        return s
    }

    @Test func aNewClockDoesNotDimAndTheKeysAreSavedAndReadBack() throws {
        let f = try StoreFixture()
        let fresh = try f.store.settings().nightDimming
        let seven = try LocalTime(parsing: "07:00")
        #expect(!fresh.isOn && fresh.until == seven && fresh.level == 10)
        let saved = try set(f, [("dimFrom", .text("22:30")), ("dimLevel", .number(5))])
        #expect(saved.nightDimming.isOn && saved.nightDimming.level == 5)
        let reopened = try Store.open(path: f.path)
        defer { reopened.close() }
        let read = try reopened.settings().nightDimming
        #expect(read == saved.nightDimming)
        #expect(read.window?.description == "22:30–07:00")
        let row = try reopened.queue.read { db in try Row.fetchOne(db, sql: "SELECT dimFrom, dimUntil, dimLevel FROM appSet") }
        #expect(row?["dimFrom"] as String? == "22:30" && row?["dimUntil"] as String? == "07:00" && row?["dimLevel"] as Int? == 5)
    }

    @Test func theThreeKeysAreCheckedTogetherSoAWindowTurnsAroundInOneEdit() throws {
        let f = try StoreFixture()
        _ = try set(f, [("dimFrom", .text("22:00"))])
        // From 22:00–07:00 to 07:00–22:00: setting dimFrom 07:00 first would make the two equal on the way.
        let turned = try set(f, [("dimFrom", .text("07:00")), ("dimUntil", .text("22:00"))])
        #expect(turned.nightDimming.window?.description == "07:00–22:00")
        #expect(
            throws: StoreError.unprocessable(
                "dimFrom and dimUntil are both 22:00; night dimming needs two different times, or set dimFrom off.")
        ) {
            try set(f, [("dimFrom", .text("22:00"))])
        }
        #expect(
            throws: StoreError.invalid(
                "Setting dimLevel cannot be 0%: many screens go dark at 0, and the clock must stay readable at night; use 1% to 100%."
            )
        ) {
            try set(f, [("dimLevel", .number(0)), ("defaultVolume", .number(20))])
        }
        #expect(try f.store.settings().nightDimming.window?.description == "07:00–22:00", "a refused edit changes nothing")
        #expect(try f.store.settings().defaultVolume == 60)
        #expect(try set(f, [("dimFrom", .text("off"))]).nightDimming.isOn == false)
    }

    @Test func aHandEditedPairOfEqualTimesFallsBackToOffAndIsNamed() throws {
        let f = try StoreFixture()
        try f.store.queue.write { db in try db.execute(sql: "UPDATE appSet SET dimFrom = '07:00', dimUntil = '07:00'") }
        let (settings, invalid) = try f.store.settingsWithProblems()
        #expect(!settings.nightDimming.isOn)
        #expect(invalid == ["dimFrom/dimUntil/dimLevel"])
        #expect(throws: (any Error).self) {
            try f.store.queue.write { db in try db.execute(sql: "UPDATE appSet SET dimLevel = 0") }
        }
    }

    @Test func theBackupCopyKeepsTokenHashesDimmingAndRestoresThem() throws {
        let f = try StoreFixture()
        _ = try set(f, [("dimFrom", .text("23:00")), ("dimLevel", .text("20%"))])
        let (kiosk, secret) = try f.store.createToken(name: "kiosk")
        let (phone, _) = try f.store.createToken(name: "phone")
        try f.store.revokeToken("phone")
        let copy = try ScheduleSnapshot(databasePath: f.path).load()
        #expect(copy.formatVersion == 4)
        #expect(copy.tokens.map(\.name) == ["kiosk"], "a revoked token leaves the copy at once")
        #expect(copy.tokens.first?.hash == TokenSecret.hash(secret) && copy.tokens.first?.id == kiosk.id)
        #expect(copy.settings.nightDimming.window?.description == "23:00–07:00" && copy.settings.nightDimming.level == 20)
        let text = try String(contentsOfFile: f.path + ".schedule.json", encoding: .utf8)
        #expect(!text.contains(secret), "only the hash is in the copy")
        f.store.close()
        try FileManager.default.removeItem(atPath: f.path)
        let opened = try Store.openRestoringBackup(path: f.path)
        defer { opened.store.close() }
        #expect(try opened.store.tokens().map(\.hash) == [TokenSecret.hash(secret)])
        #expect(try opened.store.settings().nightDimming.level == 20)
        #expect(phone.id != kiosk.id)
    }

    @Test func pairingAgainUnderANameReplacesThatDevicesToken() throws {
        let f = try StoreFixture()
        let (first, oldSecret) = try f.store.createToken(name: "kiosk")
        let (second, newSecret) = try f.store.createToken(name: "Kiosk", replacing: true)
        let tokens = try f.store.tokens()
        #expect(tokens.count == 1 && tokens[0].id == second.id && second.id != first.id)
        #expect(tokens[0].hash == TokenSecret.hash(newSecret) && tokens[0].hash != TokenSecret.hash(oldSecret))
        #expect(throws: StoreError.self) { try f.store.createToken(name: "kiosk") }
    }
}
