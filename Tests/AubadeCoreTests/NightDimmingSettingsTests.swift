import AubadeCore
import Testing

@Suite("Night dimming: the settings dimFrom, dimUntil and dimLevel")
struct NightDimmingSettingsTests {
    @Test func aNewClockDoesNotDimAndOneSettingTurnsItOn() throws {
        var settings = NightDimmingSettings()
        #expect(!settings.isOn)
        #expect(settings.window == nil)
        #expect(NightDimmingKey.allCases.map { $0.value(in: settings) } == ["off", "07:00", "10%"])
        try NightDimmingKey.dimFrom.set("22:00", in: &settings)
        #expect(settings.window == (try DimmingWindow(from: try Fixture.time("22:00"), until: try Fixture.time("07:00"))))
        #expect(settings.window?.crossesMidnight == true)
        #expect(settings.window?.description == "22:00–07:00")
        try NightDimmingKey.dimUntil.set("off", in: &settings)
        #expect(!settings.isOn)
    }

    @Test(
        "times in the forms the CLI and the API take",
        arguments: [
            ("22:00", "22:00"), (" 7:30 ", "07:30"), ("00:00", "00:00"), ("23:59", "23:59"),
            ("off", "off"), ("OFF", "off"), (" Off ", "off"),
        ])
    func goodTimes(text: String, stored: String) throws {
        for key in [NightDimmingKey.dimFrom, .dimUntil] {
            var settings = try NightDimmingSettings(from: nil, until: nil, level: 10)
            try key.set(text, in: &settings)
            #expect(key.value(in: settings) == stored)
            #expect(key.jsonValue(in: settings) as? String == stored)
        }
    }

    @Test(
        "bad times are refused with one sentence naming the setting",
        arguments: ["25:00", "22h", "", "noon", "22:00:00", "-1:00", "10 pm", "of"])
    func badTimes(text: String) {
        for key in [NightDimmingKey.dimFrom, .dimUntil] {
            var settings = NightDimmingSettings()
            let before = settings
            #expect(
                throws: ValidationError(
                    "Setting \(key.rawValue) takes a time from 00:00 to 23:59, like 22:00, or off, not '\(text)'.")
            ) {
                try key.set(text, in: &settings)
            }
            #expect(settings == before)
        }
    }

    @Test(
        "levels in the forms the CLI and the API take",
        arguments: [("10%", 10), ("10", 10), (" 10 % ", 10), ("1%", 1), ("100%", 100), ("100", 100), ("007", 7)])
    func goodLevels(text: String, level: Int) throws {
        var settings = NightDimmingSettings()
        try NightDimmingKey.dimLevel.set(text, in: &settings)
        #expect(settings.level == level)
        #expect(NightDimmingKey.dimLevel.value(in: settings) == "\(level)%")
        #expect(NightDimmingKey.dimLevel.jsonValue(in: settings) as? Int == level)
        #expect(try NightDimmingKey.parseLevel(NightDimmingKey.dimLevel.value(in: settings)) == level)
    }

    @Test("bad levels are refused with one sentence", arguments: ["101%", "-5", "abc", "10.5%", "%", "", "1000%", "10%%", "ten"])
    func badLevels(text: String) {
        var settings = NightDimmingSettings()
        #expect(throws: ValidationError("Setting dimLevel takes a brightness from 1% to 100%, like 10%, not '\(text)'.")) {
            try NightDimmingKey.dimLevel.set(text, in: &settings)
        }
        #expect(settings.level == NightDimmingSettings.defaultLevel)
    }

    @Test("zero is refused with its reason", arguments: ["0", "0%", " 0 % ", "00"])
    func zeroLevel(text: String) {
        var settings = NightDimmingSettings()
        #expect(
            throws: ValidationError(
                "Setting dimLevel cannot be 0%: many screens go dark at 0, and the clock must stay readable at night; use 1% to 100%."
            )
        ) {
            try NightDimmingKey.dimLevel.set(text, in: &settings)
        }
        #expect(throws: ValidationError.self) { try NightDimmingSettings(from: nil, until: nil, level: 0) }
        #expect(throws: ValidationError("Setting dimLevel takes a brightness from 1% to 100%, like 10%, not '150'.")) {
            try NightDimmingSettings(from: nil, until: nil, level: 150)
        }
    }

    @Test func equalStartAndEndAreRefusedAndNothingChanges() throws {
        var settings = NightDimmingSettings()
        try NightDimmingKey.dimFrom.set("22:00", in: &settings)
        let before = settings
        #expect(
            throws: ValidationError(
                "dimFrom and dimUntil are both 07:00; night dimming needs two different times, or set dimFrom off.",
                kind: .unprocessable)
        ) {
            try NightDimmingKey.dimFrom.set("7:00", in: &settings)
        }
        #expect(
            throws: ValidationError(
                "dimFrom and dimUntil are both 22:00; night dimming needs two different times, or set dimFrom off.",
                kind: .unprocessable)
        ) {
            try NightDimmingKey.dimUntil.set("22:00", in: &settings)
        }
        #expect(settings == before)
        #expect(throws: ValidationError.self) {
            try DimmingWindow(from: try Fixture.time("05:00"), until: try Fixture.time("05:00"))
        }
        // Off on one side makes equal times harmless.
        try NightDimmingKey.dimFrom.set("off", in: &settings)
        try NightDimmingKey.dimUntil.set("22:00", in: &settings)
        #expect(NightDimmingKey.allCases.map { $0.value(in: settings) } == ["off", "22:00", "10%"])
    }

    @Test func everyValueReadsBackAsTheTextThatSetsIt() throws {
        let settings = try NightDimmingSettings(from: try Fixture.time("21:45"), until: try Fixture.time("06:15"), level: 3)
        var copy = NightDimmingSettings()
        for key in NightDimmingKey.allCases.reversed() {
            try key.set(key.value(in: settings), in: &copy)
        }
        #expect(copy == settings)
        #expect(NightDimmingKey(rawValue: "dimLevel") == .dimLevel)
    }
}
