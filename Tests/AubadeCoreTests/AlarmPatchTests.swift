import AubadeCore
import Foundation
import Testing

@Suite("AlarmPatch: one alarm request's fields")
struct AlarmPatchTests {
    static let utc = TimeZone(identifier: "UTC")!
    static func noStations(_ name: String) -> Station? { nil }

    @Test func jsonKeysAreTheCLIOptionNamesAndUnknownKeysAreRefused() throws {
        let json =
            #"{"name":"Work","time":"06:45","days":"mon-fri","fadeInSeconds":45,"maxSnoozes":2,"shake":true,"tz":"","enabled":false}"#
        let patch = try JSONDecoder().decode(AlarmPatch.self, from: Data(json.utf8))
        #expect(
            patch
                == AlarmPatch(
                    name: "Work", time: "06:45", days: "mon-fri", fadeInSeconds: 45, maxSnoozes: 2, shake: true,
                    tz: "", enabled: false))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(
            String(decoding: try encoder.encode(AlarmPatch(volume: 50, fadeInSeconds: 10)), as: UTF8.self)
                == #"{"fadeInSeconds":10,"volume":50}"#)
        #expect(try JSONDecoder().decode(AlarmPatch.self, from: try encoder.encode(patch)) == patch)
        let error = #expect(throws: ValidationError.self) {
            try JSONDecoder().decode(AlarmPatch.self, from: Data(#"{"name":"Work","fadein":"30s"}"#.utf8))
        }
        #expect(
            error?.message
                == "Unknown alarm field 'fadein'; known fields are name, time, days, date, source, durationSeconds, volume, fadeInSeconds, snoozeMinutes, maxSnoozes, shake, tz, enabled, skipDaysOff, atProgramme, sunriseSeconds, ladder, wakeCheckSeconds, shaker, lamp, soundAfterSeconds."
        )
        #expect(try JSONDecoder().decode(AlarmPatch.self, from: Data("{}".utf8)).isEmpty)
    }

    @Test func applyChangesOnlyTheNamedFields() throws {
        var alarm = Alarm(
            name: "Work", time: try LocalTime(parsing: "06:45"), recurrence: .weekly(.workdays),
            volume: 70, timeZoneID: "Europe/Berlin")
        let before = alarm
        try AlarmPatch(volume: 40).apply(to: &alarm, zone: Self.utc, now: Date(), stationNamed: Self.noStations)
        var expected = before
        expected.volume = 40
        #expect(alarm == expected)
        try AlarmPatch(tz: "").apply(to: &alarm, zone: Self.utc, now: Date(), stationNamed: Self.noStations)
        #expect(alarm.timeZoneID == nil)
        let radio = try Station(id: 7, name: "FIP", url: try StreamURL(parsing: "https://fip.example/live"))
        try AlarmPatch(source: "fip").apply(to: &alarm, zone: Self.utc, now: Date()) { name in
            name.lowercased() == "fip" ? radio : nil
        }
        #expect(alarm.sound == .station(id: 7))
    }

    @Test func aOneShotWithoutDateTakesTheNextDayItsTimeComesInTheAlarmsZone() throws {
        // 2026-05-04 23:30 UTC is 2026-05-05 01:30 in Berlin: 06:00 Berlin is still ahead that day.
        let now = try #require(ISO8601DateFormatter().date(from: "2026-05-04T23:30:00Z"))
        var alarm = Alarm(name: "Trip", time: try LocalTime(parsing: "06:00"), recurrence: .weekly(.all))
        try AlarmPatch(days: "once", tz: "Europe/Berlin").apply(
            to: &alarm, zone: Self.utc, now: now,
            stationNamed: Self.noStations)
        #expect(alarm.recurrence == .once(try LocalDate(parsing: "2026-05-05")))
        try AlarmPatch(date: "2026-06-01").apply(to: &alarm, zone: Self.utc, now: now, stationNamed: Self.noStations)
        #expect(alarm.recurrence == .once(try LocalDate(parsing: "2026-06-01")))
    }

    @Test func newAlarmNeedsNameAndTimeAndTakesTheSettingsDefaults() throws {
        var settings = AppSettings()
        settings.defaultVolume = 35
        settings.snoozeMinutes = 5
        let now = try #require(ISO8601DateFormatter().date(from: "2026-05-04T08:00:00Z"))
        let a = try AlarmPatch(name: "Dentist", time: "09:15", enabled: false)
            .newAlarm(settings: settings, zone: Self.utc, now: now, stationNamed: Self.noStations)
        #expect(a.volume == 35 && a.snoozeMinutes == 5 && !a.enabled && a.id == nil)
        #expect(a.recurrence == .once(try LocalDate(parsing: "2026-05-04")))
        let noName = #expect(throws: ValidationError.self) {
            try AlarmPatch(time: "09:15").newAlarm(settings: settings, zone: Self.utc, now: now, stationNamed: Self.noStations)
        }
        #expect(noName?.message == "An alarm needs a name: add --name, e.g. --name Work.")
        let noTime = #expect(throws: ValidationError.self) {
            try AlarmPatch(name: "X").newAlarm(settings: settings, zone: Self.utc, now: now, stationNamed: Self.noStations)
        }
        #expect(noTime?.message == "An alarm needs a time: add --time HH:MM, e.g. --time 06:45.")
        // The CLI's text for a snooze is whole minutes (the patch carries minutes).
        let badSnooze = #expect(throws: ValidationError.self) {
            try DurationText.wholeMinutes(parsing: "90s", field: "Snooze length")
        }
        #expect(badSnooze?.message == "Snooze length '90s' must be whole minutes, like 9m.")
        #expect(try DurationText.wholeMinutes(parsing: "1h", field: "Snooze length") == 60)
    }
}
