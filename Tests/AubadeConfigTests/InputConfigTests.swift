import AubadeConfig
import AubadeCore
import Testing

/// `[buttons.short_press]`, `[buttons.long_press]` and the shake response and vibration-switch keys of
/// `[shake]`: read into the Core types the daemon runs with, validated like every other key.
@Suite("Config file: button mapping and shake response")
struct InputConfigTests {
    static func parse(_ text: String) throws -> ConfigLoader.Loaded {
        try ConfigLoader.parse(text, name: "t.toml")
    }

    /// A mapping written out as config text with the Core names ("" for a long press with no entry of its
    /// own) comes back as the same value.
    static func toml(_ mapping: ButtonMapping) -> String {
        let short = ButtonRole.allCases.compactMap { role in
            mapping.short[role].map { "\(role.configKey) = \"\($0.name)\"" }
        }
        let long = ButtonRole.allCases.map { "\($0.configKey) = \"\(mapping.long[$0]?.name ?? "")\"" }
        return (["[buttons.short_press]"] + short + ["", "[buttons.long_press]"] + long).joined(separator: "\n")
    }

    @Test func theDefaultsAreTheCoreDefaults() {
        let c = Configuration()
        #expect(c.buttons.mapping == .standard)
        #expect(c.buttons.panelSettings == ButtonPanel.Settings())
        #expect(c.shake.response == ShakeResponse())
        #expect(c.shake.detectorSettings == ShakeSettings())
    }

    @Test(arguments: [
        ButtonMapping(
            short: [
                .snooze: .stop, .stop: .snooze, .playPause: .sleep(addMinutes: 30), .sleep: .sleepCancel,
                .volumeUp: .volumeDown, .volumeDown: .none,
            ],
            long: [.snooze: .stop, .playPause: .none, .sleep: .sleep(addMinutes: 120), .volumeUp: .playPause]),
        ButtonMapping(
            short: [
                .snooze: .sleep(addMinutes: 1), .stop: .stop, .playPause: .playPause, .sleep: .sleep(addMinutes: 15),
                .volumeUp: .volumeUp, .volumeDown: .volumeDown,
            ],
            long: [.stop: .sleepCancel, .volumeDown: .snooze]),
    ])
    func aCustomMappingRoundTrips(_ mapping: ButtonMapping) throws {
        let loaded = try Self.parse(Self.toml(mapping))
        #expect(loaded.configuration.buttons.mapping == mapping)
        #expect(loaded.configuration.buttons.panelSettings.mapping == mapping)
        #expect(loaded.warnings.isEmpty)
    }

    @Test func unlistedButtonsKeepTheStandardActions() throws {
        let loaded = try Self.parse(
            """
            [buttons.short_press]
            stop = "none"
            """)
        var expected = ButtonMapping.standard
        expected.short[.stop] = ButtonAction.none
        #expect(loaded.configuration.buttons.mapping == expected)
        #expect(loaded.configuration.buttons.mapping.action(for: .sleep, .long) == .sleepCancel)
    }

    /// ButtonMapping's rule: a button with no long-press entry does on a long press what its short press does.
    @Test func aLongPressNotListedFallsBackToTheShortPress() throws {
        let mapping = try Self.parse(
            """
            [buttons.short_press]
            snooze = "stop"
            volume_up = "sleep+5"
            [buttons.long_press]
            stop = "none"
            """
        ).configuration.buttons.mapping
        #expect(mapping.long == [.sleep: .sleepCancel, .stop: ButtonAction.none])
        #expect(mapping.action(for: .snooze, .long) == .stop)
        #expect(mapping.action(for: .volumeUp, .long) == .sleep(addMinutes: 5))
        #expect(mapping.action(for: .stop, .short) == .stop)
        #expect(mapping.action(for: .stop, .long) == ButtonAction.none)

        let unset = try Self.parse(
            """
            [buttons.long_press]
            sleep = ""
            """
        ).configuration.buttons.mapping
        #expect(unset.long.isEmpty)
        #expect(unset.action(for: .sleep, .long) == .sleep(addMinutes: 15))
    }

    /// The configured panel settings drive a `ButtonPanel` as they are: a 1.2 s hold of snooze (long press
    /// time 800 ms) asks for what the file says.
    @Test func thePanelRunsWithTheConfiguredMapping() throws {
        let buttons = try Self.parse(
            """
            [buttons]
            long_press_ms = 800
            [buttons.long_press]
            snooze = "stop"
            """
        ).configuration.buttons
        var panel = ButtonPanel(settings: buttons.panelSettings)
        _ = panel.handle(ButtonEdge(role: .snooze, pressed: false, time: .zero, isInitial: true))
        var commands = panel.handle(ButtonEdge(role: .snooze, pressed: true, time: .milliseconds(100)))
        commands += panel.tick(at: .milliseconds(1300))
        commands += panel.handle(ButtonEdge(role: .snooze, pressed: false, time: .milliseconds(1300)))
        commands += panel.tick(at: .milliseconds(1400))
        #expect(commands.map(\.action) == [.stop])
        #expect(commands.map(\.kind) == [.long])
    }

    @Test func shakeResponseAndVibrationSwitchAreRead() throws {
        let loaded = try Self.parse(
            """
            [shake]
            source = "gpio"
            device = "GPIO4"
            threshold = 5
            sustain_seconds = 2
            pulses_per_window = 6
            pulse_window_seconds = 0.8
            on_shake_to_stop_alarm = "snooze"
            on_other_alarm = "none"
            """)
        let shake = loaded.configuration.shake
        #expect(shake.response == ShakeResponse(whenShakeToStop: .snooze, otherwise: .none))
        #expect(
            shake.detectorSettings
                == ShakeSettings(
                    threshold: 5, sustain: .seconds(2), minimumPulses: 6,
                    pulseWindow: .milliseconds(800)))
        #expect(loaded.warnings.isEmpty)
    }

    static let actionChoices =
        #""none", "snooze", "stop", "play-pause", "sleep+N" (N from 1 to 120 minutes), "sleep-cancel", "volume-up", "volume-down""#

    @Test(arguments: [
        (
            "[buttons.short_press]\nsnoze = \"stop\"",
            "Config file t.toml: buttons.short_press.snoze at line 2 is not a button; the buttons are snooze, stop, play_pause, sleep, volume_up and volume_down."
        ),
        (
            "[buttons.long_press]\nplay-pause = \"none\"",
            "Config file t.toml: buttons.long_press.play-pause at line 2 is not a button; the buttons are snooze, stop, play_pause, sleep, volume_up and volume_down."
        ),
        (
            "[buttons.short_press]\n\nstop = \"halt\"",
            "Config file t.toml: buttons.short_press.stop at line 3 must be one of \(actionChoices), not \"halt\"."
        ),
        (
            "[buttons.short_press]\nsnooze = \"\"",
            "Config file t.toml: buttons.short_press.snooze at line 2 must be one of \(actionChoices), not \"\"."
        ),
        (
            "[buttons.long_press]\nsnooze = \"snoozzz\"",
            "Config file t.toml: buttons.long_press.snooze at line 2 must be one of \(actionChoices), or \"\" for the short press's action, not \"snoozzz\"."
        ),
        (
            "[buttons.short_press]\nsleep = \"sleep+500\"",
            "Config file t.toml: buttons.short_press.sleep at line 2 must be one of \(actionChoices), not \"sleep+500\"."
        ),
        // every problem, one sentence a line, in the order of the file (not alphabetical)
        (
            "[buttons.short_press]\nstop = \"halt\"\nsnoze = \"stop\"",
            "Config file t.toml: buttons.short_press.stop at line 2 must be one of \(actionChoices), not \"halt\".\n"
                + "Config file t.toml: buttons.short_press.snoze at line 3 is not a button; the buttons are snooze, stop, play_pause, sleep, volume_up and volume_down."
        ),
        ("[buttons.short_press]\nstop = 3", "Config file t.toml: buttons.short_press.stop at line 2 must be a string in quotes."),
        (
            "[buttons]\nshort_press = \"stop\"",
            "Config file t.toml: buttons.short_press at line 2 must be a table like [buttons.short_press]."
        ),
        // a dotted key and an inline table are found too
        (
            "[buttons]\nactive_low = true\nlong_press.stopp = \"stop\"",
            "Config file t.toml: buttons.long_press.stopp at line 3 is not a button; the buttons are snooze, stop, play_pause, sleep, volume_up and volume_down."
        ),
        (
            "[buttons]\nshort_press = { stop = \"halt\" }",
            "Config file t.toml: buttons.short_press.stop at line 2 must be one of \(actionChoices), not \"halt\"."
        ),
        (
            "[shake]\non_other_alarm = \"dismiss\"",
            "Config file t.toml: shake.on_other_alarm at line 2 must be one of \"stop\", \"snooze\", \"none\", not \"dismiss\"."
        ),
        (
            "[shake]\non_shake_to_stop_alarm = true",
            "Config file t.toml: shake.on_shake_to_stop_alarm at line 2 must be a string in quotes."
        ),
        ("[shake]\npulses_per_window = 1", "Config file t.toml: shake.pulses_per_window at line 2 must be from 2 to 100, not 1."),
        (
            "[shake]\npulse_window_seconds = 3",
            "Config file t.toml: shake.pulse_window_seconds at line 2 must be from 0.1 to 2.0, not 3.0."
        ),
    ])
    func badValuesNameKeyAndLine(text: String, message: String) {
        let error = #expect(throws: ConfigError.self) { try Self.parse(text) }
        #expect(error?.message == message)
    }

    @Test func unknownNestedKeysAreWarningsWithLines() throws {
        let loaded = try Self.parse(
            """
            [buttons]
            stop = "GPIO5"
            [buttons.double_press]
            stop = "none"
            [buttons.short_press]
            stop = "snooze"
            [shake]
            on_other = "none"
            [shake.extra]
            x = 1
            [audio]
            mixer = { card = 0 }
            """)
        #expect(loaded.configuration.buttons.stop == "GPIO5")
        #expect(loaded.configuration.buttons.mapping.short[.stop] == .snooze)
        #expect(
            loaded.warnings == [
                "Config file t.toml: unknown key [audio.mixer] at line 12 is ignored.",
                "Config file t.toml: unknown key [buttons.double_press] at line 3 is ignored.",
                "Config file t.toml: unknown key [shake.extra] at line 9 is ignored.",
                "Config file t.toml: unknown key shake.on_other at line 8 is ignored.",
            ])
    }
}
