import AubadeConfig
import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// R36: a bad value in the config never stops the clock. In `.lenient` mode each one is a problem naming
/// the key, its line and the default used instead, and the rest of the file is still read; in `.strict` mode
/// the same sentence (without the fallback) refuses the file.
@Suite("Config file: lenient and strict")
struct LenientConfigTests {
    /// Read after every bad fragment: proves the reading went on past the problem.
    static let rest = "\n[paths]\ndatabase = \"/tmp/rest.sqlite\"\n"

    static var defaultsAndRest: Configuration {
        var c = Configuration()
        c.paths.database = "/tmp/rest.sqlite"
        return c
    }

    static let buttons = "the buttons are snooze, stop, play_pause, sleep, volume_up and volume_down"
    static let actions =
        #""none", "snooze", "stop", "play-pause", "sleep+N" (N from 1 to 120 minutes), "sleep-cancel", "volume-up", "volume-down""#
    static let lineSpec = #"must be a line name like "GPIO17", a chip and offset like "gpiochip0:17", or """#

    /// (fragment, key, line, the strict sentence, what the lenient sentence adds): every kind of value error.
    @Test(arguments: [
        // wrong type: whole number, string, boolean, number
        (
            "[http]\nport = \"eighty\"", "http.port", 2,
            "Config file t.toml: http.port at line 2 must be a whole number.", "the default 8080 is used"
        ),
        (
            "[audio]\ndevice = 5", "audio.device", 2,
            "Config file t.toml: audio.device at line 2 must be a string in quotes.", "the default \"default\" is used"
        ),
        (
            "[audio]\nallow_local_streams = \"yes\"", "audio.allow_local_streams", 2,
            "Config file t.toml: audio.allow_local_streams at line 2 must be true or false.", "the default false is used"
        ),
        (
            "[shake]\nthreshold = true", "shake.threshold", 2,
            "Config file t.toml: shake.threshold at line 2 must be a number.", "the default 4.0 is used"
        ),
        (
            "[buttons]\ndebounce_ms = 2.5", "buttons.debounce_ms", 2,
            "Config file t.toml: buttons.debounce_ms at line 2 must be a whole number.", "the default 30 is used"
        ),
        // out of range, empty
        (
            "[http]\n\nport = 70000", "http.port", 3,
            "Config file t.toml: http.port at line 3 must be from 1 to 65535, not 70000.", "the default 8080 is used"
        ),
        (
            "[shake]\npulse_window_seconds = 3", "shake.pulse_window_seconds", 2,
            "Config file t.toml: shake.pulse_window_seconds at line 2 must be from 0.1 to 2.0, not 3.0.",
            "the default 0.5 is used"
        ),
        (
            "[audio]\nhls_max_kbps = 8", "audio.hls_max_kbps", 2,
            "Config file t.toml: audio.hls_max_kbps at line 2 must be from 16 to 10000, not 8.", "the default 128 is used"
        ),
        (
            "[http]\nbind = \"\"", "http.bind", 2,
            "Config file t.toml: http.bind at line 2 must not be empty.", "the default \"127.0.0.1\" is used"
        ),
        (
            "[calendars]\nrefresh = \"5m\"", "calendars.refresh", 2,
            "Config file t.toml: calendars.refresh at line 2 must be a duration from 15m to 720h, like \"24h\".",
            "the default 86400 is used"
        ),
        (
            "[calendars]\nhorizon_days = 7", "calendars.horizon_days", 2,
            "Config file t.toml: calendars.horizon_days at line 2 must be from 14 to 3660, not 7.", "the default 400 is used"
        ),
        (
            "[mqtt]\nbroker = \"http://broker:1883\"", "mqtt.broker", 2,
            "Config file t.toml: mqtt.broker at line 2 must be mqtt://host:port or mqtts://host:port, like \"mqtt://192.168.1.10:1883\".",
            "the default \"\" is used"
        ),
        (
            "[mqtt]\npre_alarm = [\"15m\", \"10s\"]", "mqtt.pre_alarm", 2,
            "Config file t.toml: mqtt.pre_alarm at line 2 must be a lead from 1m to 6h, or a list of them, like \"15m\" or [\"30m\", \"10m\"].",
            "the default [900] is used"
        ),
        (
            "[mqtt]\ntopic_prefix = \"aubade/#\"", "mqtt.topic_prefix", 2,
            "Config file t.toml: mqtt.topic_prefix at line 2 must be a topic without + or # and without a / at either end.",
            "the default \"\" is used"
        ),
        // unknown choice
        (
            "[buttons]\nbias = \"up\"", "buttons.bias", 2,
            "Config file t.toml: buttons.bias at line 2 must be one of \"pull-up\", \"pull-down\", \"disable\", \"as-is\", not \"up\".",
            "the default \"pull-up\" is used"
        ),
        (
            "[shake]\non_other_alarm = \"dismiss\"", "shake.on_other_alarm", 2,
            "Config file t.toml: shake.on_other_alarm at line 2 must be one of \"stop\", \"snooze\", \"none\", not \"dismiss\".",
            "the default \"snooze\" is used"
        ),
        (
            "[shake]\nsource = \"gyro\"", "shake.source", 2,
            "Config file t.toml: shake.source at line 2 must be one of \"none\", \"iio\", \"evdev\", \"gpio\", not \"gyro\".",
            "the default \"none\" is used"
        ),
        // bad time zone, bad GPIO line spec
        (
            "[clock]\ntime_zone = \"Moon/Base\"", "clock.time_zone", 2,
            "Config file t.toml: clock.time_zone at line 2 is not a known time zone; use a tz database name such as \"Europe/Berlin\".",
            "the default \"\" is used"
        ),
        (
            "[buttons]\nstop = \"GPIO 27\"", "buttons.stop", 2,
            "Config file t.toml: buttons.stop at line 2 \(lineSpec).", "the default \"GPIO27\" is used"
        ),
        // a section that is not a table
        (
            "http = 5", "http", 1,
            "Config file t.toml: http at line 1 must be a table like [http].", "every key of [http] uses its default"
        ),
        (
            "[buttons]\nshort_press = \"stop\"", "buttons.short_press", 2,
            "Config file t.toml: buttons.short_press at line 2 must be a table like [buttons.short_press].",
            "every key of [buttons.short_press] uses its default"
        ),
        // bad button actions, a misspelt button
        (
            "[buttons.short_press]\n\nstop = \"halt\"", "buttons.short_press.stop", 3,
            "Config file t.toml: buttons.short_press.stop at line 3 must be one of \(actions), not \"halt\".",
            "the default \"stop\" is used"
        ),
        (
            "[buttons.long_press]\nsleep = 7", "buttons.long_press.sleep", 2,
            "Config file t.toml: buttons.long_press.sleep at line 2 must be a string in quotes.",
            "the default \"sleep-cancel\" is used"
        ),
        (
            "[buttons.long_press]\nsnooze = \"snoozzz\"", "buttons.long_press.snooze", 2,
            "Config file t.toml: buttons.long_press.snooze at line 2 must be one of \(actions), or \"\" for the short press's action, not \"snoozzz\".",
            "the default is used: a long press does what the short press does"
        ),
        (
            "[buttons.short_press]\nsnoze = \"stop\"", "buttons.short_press.snoze", 2,
            "Config file t.toml: buttons.short_press.snoze at line 2 is not a button; \(buttons).", "this entry is ignored"
        ),
        (
            "[buttons]\nactive_low = true\nlong_press.stopp = \"stop\"", "buttons.long_press.stopp", 3,
            "Config file t.toml: buttons.long_press.stopp at line 3 is not a button; \(buttons).", "this entry is ignored"
        ),
    ])
    func eachBadValueIsAProblemWithItsDefault(text: String, key: String, line: Int, refusal: String, fallback: String) throws {
        let lenient = try ConfigLoader.parse(text + Self.rest, name: "t.toml", mode: .lenient)
        let problem = try #require(lenient.problems.first)
        #expect(lenient.problems.count == 1, "\(lenient.problems)")
        #expect(problem.key == key && problem.line == line)
        #expect(problem.refusal == refusal)
        #expect(problem.message == refusal.dropLast() + "; " + fallback + ".")
        #expect(lenient.problemMessages == [problem.message])
        // the key kept its default, and the key after it was read; the bad key is not also "unknown"
        #expect(lenient.configuration == Self.defaultsAndRest)
        #expect(lenient.warnings.isEmpty, "\(lenient.warnings)")

        let strict = #expect(throws: ConfigError.self) { try ConfigLoader.parse(text + Self.rest, name: "t.toml", mode: .strict) }
        #expect(strict?.message == refusal)
        #expect(strict?.problems == [problem])
    }

    @Test func everyProblemIsListedInFileOrderAndEverythingElseIsRead() throws {
        let text = """
            [shake]
            threshold = true
            source = "evdev"
            [http]
            port = "eighty"
            bind = "0.0.0.0"
            [buttons.short_press]
            snoze = "stop"
            stop = "snooze"
            [clock]
            time_zone = "UTC"
            mystery = 1
            """
        let loaded = try ConfigLoader.parse(text, name: "t.toml", mode: .lenient)
        #expect(loaded.problems.map(\.key) == ["shake.threshold", "http.port", "buttons.short_press.snoze"])
        #expect(loaded.problems.map(\.line) == [2, 5, 8])
        #expect(loaded.warnings == ["Config file t.toml: unknown key clock.mystery at line 12 is ignored."])
        #expect(!loaded.isClean)
        var expected = Configuration()
        expected.shake.source = "evdev"
        expected.http.bind = "0.0.0.0"
        expected.buttons.mapping.short[.stop] = .snooze
        expected.clock.timeZone = "UTC"
        #expect(loaded.configuration == expected)

        let strict = #expect(throws: ConfigError.self) { try ConfigLoader.parse(text, name: "t.toml") }
        #expect(strict?.problems == loaded.problems)
        #expect(strict?.message.split(separator: "\n").map(String.init) == loaded.problems.map(\.refusal))
    }

    @Test func aCleanFileHasNoProblemsInEitherMode() throws {
        let text = "[http]\nport = 9000\n[shake]\nsource = \"gpio\"\ndevice = \"GPIO4\"\n"
        let lenient = try ConfigLoader.parse(text, name: "t.toml", mode: .lenient)
        let strict = try ConfigLoader.parse(text, name: "t.toml", mode: .strict)
        #expect(lenient.problems.isEmpty && strict.problems.isEmpty && lenient.isClean)
        #expect(lenient.configuration == strict.configuration)
        #expect(strict.configuration.shake.device == "GPIO4" && strict.configuration.http.port == 9000)
    }

    /// A bad button line falls back to the button's own default line, unless another button already took
    /// that line: then the button is off instead of fighting over one line.
    @Test func aBadButtonLineNeverTakesAnotherButtonsLine() throws {
        let loaded = try ConfigLoader.parse(
            """
            [buttons]
            snooze = "GPIO27"
            stop = "GPIO 5"
            sleep = "gpiochip0:"
            """, name: "t.toml", mode: .lenient)
        let b = loaded.configuration.buttons
        #expect(b.snooze == "GPIO27" && b.stop == "" && b.sleep == "GPIO23")
        #expect(
            loaded.problemMessages == [
                "Config file t.toml: buttons.stop at line 3 \(Self.lineSpec); its default \"GPIO27\" is already the snooze button's line, so this button is off.",
                "Config file t.toml: buttons.sleep at line 4 \(Self.lineSpec); the default \"GPIO23\" is used.",
            ])
    }

    /// `[shake] device` depends on `source`: with a vibration switch it must be a line; a bad one leaves the
    /// switch off. With a bad source (back to "none") the device is not checked as a line.
    @Test func theShakeDeviceFallsBackWithItsSource() throws {
        let gpio = try ConfigLoader.parse(
            "[shake]\nsource = \"gpio\"\ndevice = \"GPIO 4\"\nthreshold = 6\n", name: "t.toml",
            mode: .lenient)
        #expect(gpio.configuration.shake.source == "gpio" && gpio.configuration.shake.device == "")
        #expect(gpio.configuration.shake.threshold == 6)
        #expect(
            gpio.problemMessages == [
                "Config file t.toml: shake.device at line 3 \(Self.lineSpec); the default \"\" is used, so there is no vibration switch."
            ])
        let badSource = try ConfigLoader.parse(
            "[shake]\nsource = \"gyro\"\ndevice = \"/dev/input/event3\"\n", name: "t.toml",
            mode: .lenient)
        #expect(badSource.configuration.shake.source == "none")
        #expect(badSource.configuration.shake.device == "/dev/input/event3")
        #expect(badSource.problems.map(\.key) == ["shake.source"])
    }

    @Test func textThatIsNotTOMLFallsBackToEveryDefaultOnlyWhenLenient() throws {
        let text = "[http]\nport = 9090\nbind = \n"
        let loaded = try ConfigLoader.parse(text, name: "t.toml", mode: .lenient)
        #expect(loaded.configuration == Configuration())
        let problem = try #require(loaded.problems.first)
        #expect(loaded.problems.count == 1 && problem.key == nil && problem.line == 3)
        #expect(problem.message.hasPrefix("Config file t.toml is not valid TOML at line 3: "))
        #expect(problem.message.hasSuffix("; every key uses its default."))
        #expect(problem.refusal == problem.message.replacingOccurrences(of: "; every key uses its default.", with: "."))

        let strict = #expect(throws: ConfigError.self) { try ConfigLoader.parse(text, name: "t.toml", mode: .strict) }
        #expect(strict?.message == problem.refusal)
    }

    @Test func aFileThatCannotBeReadFallsBackToEveryDefaultOnlyWhenLenient() throws {
        let dir = try TemporaryDirectory()
        let missing = dir.file("nope.toml")
        let loaded = try ConfigLoader.load(path: missing, environment: [:], mode: .lenient)
        #expect(loaded.configuration == Configuration() && loaded.path == missing)
        #expect(loaded.problemMessages == ["Config file \(missing) cannot be read (no such file); every key uses its default."])
        let fromEnv = try ConfigLoader.load(path: nil, environment: ["AUBADE_CONFIG": missing], mode: .lenient)
        #expect(fromEnv.problems == loaded.problems)
        let strict = #expect(throws: ConfigError.self) { try ConfigLoader.load(path: missing, environment: [:], mode: .strict) }
        #expect(strict?.message == "Config file \(missing) cannot be read (no such file).")

        let binary = dir.file("binary.toml")
        try Data([0x5B, 0x68, 0x74, 0x74, 0x70, 0x5D, 0x0A, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: binary))
        let garbage = try ConfigLoader.load(path: binary, environment: [:], mode: .lenient)
        #expect(garbage.configuration == Configuration())
        #expect(
            garbage.problemMessages == [
                "Config file \(binary) cannot be read (it is not UTF-8 text); every key uses its default."
            ])
    }

    /// A file read with `.lenient` gives the same values as `.strict` wherever both succeed: the example file.
    @Test func theExampleFileIsCleanInBothModes() throws {
        let lenient = try ConfigLoader.load(path: ConfigLoaderTests.examplePath, environment: [:], mode: .lenient)
        #expect(lenient.isClean && lenient.configuration == Configuration())
    }
}
