import AubadeCore
import AubadeTesting
import Foundation
import Testing

@testable import AubadeStore

/// `Store.apply`: every kind of user edit through the one function, its refusals with the CLI's sentences,
/// nothing changed by a refused edit.
@Suite("Store: apply(ClockEdit)")
struct StoreApplyTests {
    static let zone = TimeZone(identifier: "UTC")!
    /// Tuesday 2026-11-24 06:50 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_503_000)

    func apply(_ f: StoreFixture, _ edit: ClockEdit) throws(StoreError) -> EditOutcome {
        try f.store.apply(edit, zone: Self.zone, now: Self.now)
    }

    @Test func alarmsAreAddedEditedSkippedAndRemoved() throws {
        let f = try StoreFixture()
        guard case .alarm(let added) = try apply(f, .addAlarm(AlarmPatch(name: "Work", time: "07:00", days: "mon-fri"))) else {
            Issue.record("no alarm")
            return
        }
        let id = try #require(added.id)
        guard case .alarm(let edited) = try apply(f, .editAlarm(id: id, AlarmPatch(volume: 80, enabled: false))) else { return }
        #expect(edited.volume == 80 && !edited.enabled)
        #expect(throws: StoreError.unprocessable("Alarm \(id) is disabled; there is no next occurrence to skip.")) {
            try apply(f, .skipNext(id: id, undo: false))
        }
        _ = try apply(f, .editAlarm(id: id, AlarmPatch(enabled: true)))
        guard case .alarm(let skipped) = try apply(f, .skipNext(id: id, undo: false)) else { return }
        #expect(skipped.skipDate?.description == "2026-11-24")  // today 07:00 is still ahead at 06:50
        guard case .alarm(let undone) = try apply(f, .skipNext(id: id, undo: true)) else { return }
        #expect(undone.skipDate == nil)
        guard case .alarmRemoved(let removed) = try apply(f, .removeAlarm(id: id)) else { return }
        #expect(removed.name == "Work")
        #expect(try f.store.alarms().isEmpty)
    }

    @Test func refusalsCarryTheCLIsSentenceAndChangeNothing() throws {
        let f = try StoreFixture()
        #expect(throws: StoreError.invalid("An alarm needs a time: add --time HH:MM, e.g. --time 06:45.")) {
            try apply(f, .addAlarm(AlarmPatch(name: "Work")))
        }
        #expect(throws: StoreError.invalid("Alarm time '25:00' is not a valid time; use HH:MM from 00:00 to 23:59.")) {
            try apply(f, .addAlarm(AlarmPatch(name: "Work", time: "25:00")))
        }
        #expect(throws: StoreError.notFound(what: "alarm", id: 7)) { try apply(f, .editAlarm(id: 7, AlarmPatch(volume: 50))) }
        #expect(throws: StoreError.invalid("No station is named 'FIP'; see 'aubade station list'.")) {
            try apply(f, .removeStation("FIP"))
        }
        #expect(throws: StoreError.invalid("Setting defaultVolume takes a whole number from 10 to 100, not '5'.")) {
            try apply(f, .setSettings([SettingChange(key: "defaultVolume", value: .number(5))]))
        }
        #expect(try f.store.alarms().isEmpty && f.store.settings() == AppSettings())
    }

    @Test func stationsProgrammesAndReservations() throws {
        let f = try StoreFixture()
        guard case .station(let fip) = try apply(f, .addStation(StationFields(name: "FIP", url: "http://radio.example/fip")))
        else { return }
        #expect(throws: StoreError.conflict("A station named 'fip' already exists; pick another name.")) {
            try apply(f, .addStation(StationFields(name: "fip", url: "http://radio.example/other")))
        }
        #expect(throws: StoreError.unprocessable("No station is named 'Jazz'; see 'aubade station list'.")) {
            try apply(f, .addProgramme(ProgrammeFields(name: "Night", begin: "22:00", end: "23:00", station: "Jazz")))
        }
        guard
            case .programme(let night) = try apply(
                f,
                .addProgramme(
                    ProgrammeFields(
                        name: "Night", begin: "22:00", end: "01:00", station: "FIP", weekday: "fri")))
        else { return }
        #expect(night.stationID == fip.id && night.weekday == .friday && !night.reserved)
        let pid = try #require(night.id)
        guard case .programme(let reserved) = try apply(f, .reserveProgramme(id: pid, reserved: true)) else { return }
        #expect(reserved.reserved)
        guard case .programmeRemoved = try apply(f, .removeProgramme(id: pid)) else { return }
        guard case .stationRemoved(let removed) = try apply(f, .removeStation("FIP")) else { return }
        #expect(try removed.id == fip.id && f.store.stations().isEmpty)
    }

    @Test func settingsTakeTextOrJSONValuesAllOrNone() throws {
        let f = try StoreFixture()
        guard
            case .settings(let s) = try apply(
                f,
                .setSettings([
                    SettingChange(key: "sleepDuration", value: .number(900)), SettingChange(key: "isWifi", value: .bool(true)),
                    SettingChange(key: "fadeIn", value: .text("45s")),
                ]))
        else { return }
        #expect(s.sleepSeconds == 900 && s.isWifi && s.fadeInSeconds == 45)
        #expect(
            throws: StoreError.invalid(
                "Unknown setting 'volume'; known settings are isWifi, defaultVolume, snoozeMinutes, maxSnoozes, alarmDuration, fadeIn, fallbackTone, toneVolume, catchUp, sleepDuration, sleepFade, sleepVolume, dimFrom, dimUntil, dimLevel."
            )
        ) {
            try apply(
                f,
                .setSettings([
                    SettingChange(key: "defaultVolume", value: .number(20)), SettingChange(key: "volume", value: .number(20)),
                ]))
        }
        #expect(try f.store.settings().defaultVolume == 60, "the first change of a refused batch is not kept")
        #expect(throws: StoreError.invalid("Setting sleepDuration '30s' is out of range; use 1m to 12h.")) {
            try apply(f, .setSettings([SettingChange(key: "sleepDuration", value: .number(30))]))
        }
    }
}
