import AubadeCore
import Testing

@Suite("Alarm, programme and setting rules")
struct AlarmValidationTests {
    func alarm() throws -> Alarm {
        Alarm(name: "Work", time: try LocalTime(parsing: "06:45"), recurrence: .weekly(.workdays))
    }

    @Test func defaultsAreValid() throws {
        var a = try alarm()
        try a.validate()
        var fromSettings = AppSettings().newAlarm(name: "x", time: a.time, recurrence: .weekly(.all))
        try fromSettings.validate()
        #expect(fromSettings.volume == AppSettings().defaultVolume)
    }

    @Test(arguments: [
        ("volume", 9), ("volume", 101), ("duration", 59), ("duration", 4 * 3600 + 1), ("fadeIn", -1), ("fadeIn", 601),
        ("snooze", 0), ("snooze", 61), ("maxSnoozes", -1), ("maxSnoozes", 21),
    ])
    func outOfRangeNumbersAreRefused(field: String, value: Int) throws {
        var a = try alarm()
        switch field {
        case "volume": a.volume = value
        case "duration": a.durationSeconds = value
        case "fadeIn": a.fadeInSeconds = value
        case "snooze": a.snoozeMinutes = value
        default: a.maxSnoozes = value
        }
        #expect(throws: ValidationError.self) { try a.validate() }
    }

    @Test func silentOrNamelessAlarmsAreRefused() throws {
        var a = try alarm()
        a.name = " \t"
        #expect(throws: ValidationError.self) { try a.validate() }
        a = try alarm()
        a.name = String(repeating: "x", count: 65)
        #expect(throws: ValidationError.self) { try a.validate() }
        a = try alarm()
        a.recurrence = .weekly([])
        #expect(throws: ValidationError.self) { try a.validate() }
        a = try alarm()
        a.fadeInSeconds = 300
        a.durationSeconds = 300
        #expect(throws: ValidationError.self) { try a.validate() }
        a = try alarm()
        a.timeZoneID = "Mars/Olympus_Mons"
        #expect(throws: ValidationError.self) { try a.validate() }
        a.timeZoneID = "Asia/Kathmandu"
        try a.validate()
    }

    @Test func everySettingRoundTripsThroughItsText() throws {
        let defaults = AppSettings()
        for key in SettingKey.allCases {
            var s = AppSettings()
            try key.set(key.value(in: defaults), in: &s)
            #expect(s == defaults, "\(key)")
        }
    }

    @Test func settingsAreCheckedByKey() throws {
        var s = AppSettings()
        try SettingKey(parsing: "isWifi").set("on", in: &s)
        #expect(s.isWifi)
        try SettingKey.catchUp.set("45m", in: &s)
        #expect(s.catchUpSeconds == 2700)
        try SettingKey.fallbackTone.set("Chime", in: &s)
        #expect(s.fallbackTone == .chime)
        #expect(throws: ValidationError.self) { try SettingKey(parsing: "volume") }
        #expect(throws: ValidationError.self) { try SettingKey.catchUp.set("30s", in: &s) }  // G is at least 60 s
        #expect(throws: ValidationError.self) { try SettingKey.defaultVolume.set("loud", in: &s) }
        #expect(throws: ValidationError.self) { try SettingKey.isWifi.set("maybe", in: &s) }
        #expect(throws: ValidationError.self) { try SettingKey.fallbackTone.set("silence", in: &s) }
        #expect(s.catchUpSeconds == 2700 && s.fallbackTone == .chime)
    }

    @Test func programmesNeedALengthAndOneKindOfDay() throws {
        let nine = try LocalTime(parsing: "09:00")
        var p = Programme(name: "Morning show", begin: nine, end: try LocalTime(parsing: "11:00"), weekday: .monday)
        try p.validate()
        p.date = try LocalDate(parsing: "2026-12-01")
        #expect(throws: ValidationError.self) { try p.validate() }
        var zero = Programme(name: "Nothing", begin: nine, end: nine)
        #expect(throws: ValidationError.self) { try zero.validate() }
        var overnight = Programme(name: "Night", begin: try LocalTime(parsing: "23:00"), end: try LocalTime(parsing: "01:00"))
        try overnight.validate()
    }
}
