import AubadeConfig
import AubadeCore
import AubadeTesting
import Foundation
import Testing

@Suite("Config file")
struct ConfigLoaderTests {
    /// The example file shipped in config/, found from this source file's location.
    static let examplePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/aubade.toml").path

    @Test func theExampleFileIsAllDefaults() throws {
        let loaded = try ConfigLoader.load(path: Self.examplePath, environment: [:])
        #expect(loaded.configuration == Configuration())
        #expect(loaded.warnings.isEmpty)
    }

    /// Uncommenting every `# key = value` line of the example must give the defaults again, with no unknown
    /// key: the documentation and the code agree on every key and every default.
    @Test func everyDocumentedDefaultMatchesTheCode() throws {
        let text = try String(contentsOfFile: Self.examplePath, encoding: .utf8)
        var uncommented = 0
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("# "), let eq = t.firstIndex(of: "="),
                t[t.index(t.startIndex, offsetBy: 2)..<eq].trimmingCharacters(in: .whitespaces)
                    .allSatisfy({ $0.isLetter || $0 == "_" })
            else { return String(line) }
            uncommented += 1
            return String(t.dropFirst(2))
        }
        #expect(uncommented >= 20)
        let loaded = try ConfigLoader.parse(lines.joined(separator: "\n"), name: "example")
        #expect(loaded.configuration == Configuration())
        #expect(loaded.warnings.isEmpty)
    }

    @Test func noFileMeansDefaults() throws {
        let loaded = try ConfigLoader.load(path: nil, environment: [:])
        if FileManager.default.fileExists(atPath: ConfigLoader.systemPath) { return }
        #expect(loaded.path == nil && loaded.configuration == Configuration())
    }

    @Test func valuesAreRead() throws {
        let loaded = try ConfigLoader.parse(
            """
            [paths]
            database = "/tmp/a.sqlite"
            [http]
            bind = "0.0.0.0"
            port = 9090
            [audio]
            device = "file:'/tmp/out.raw',raw"
            allow_local_streams = true
            hls_max_kbps = 320
            [clock]
            time_zone = "Australia/Lord_Howe"
            [buttons]
            snooze = "gpiochip1:5"
            volume_up = "GPIO5"
            bias = "pull-down"
            [shake]
            source = "evdev"
            threshold = 3
            sustain_seconds = 2.5
            """, name: "t.toml")
        let c = loaded.configuration
        #expect(c.paths.database == "/tmp/a.sqlite" && c.http.bind == "0.0.0.0" && c.http.port == 9090)
        #expect(c.audio.device == "file:'/tmp/out.raw',raw" && c.audio.allowLocalStreams && c.audio.hlsMaxKbps == 320)
        #expect(c.clock.timeZone == "Australia/Lord_Howe")
        #expect(c.buttons.snooze == "gpiochip1:5" && c.buttons.volumeUp == "GPIO5" && c.buttons.bias == "pull-down")
        #expect(c.shake.source == "evdev" && c.shake.threshold == 3.0 && c.shake.sustainSeconds == 2.5)
        #expect(GPIOLineSpec(c.buttons.snooze) == .chipOffset(chip: "gpiochip1", offset: 5))
        #expect(loaded.warnings.isEmpty)
    }

    @Test func theAlarmsLadderIsOnByDefaultAndReadAsOffOrSteps() throws {
        #expect(Configuration().alarm.ladder == .standard && Configuration().alarm.ladder.enabled)
        let off = try ConfigLoader.parse("[alarm]\nladder = \"off\"\n", name: "t.toml")
        #expect(off.configuration.alarm.ladder == .off && off.warnings.isEmpty)
        let own = try ConfigLoader.parse("[alarm]\nladder = \"step=2m,rounds=5\"\n", name: "t.toml")
        #expect(own.configuration.alarm.ladder == LadderPlan(stepSeconds: 120, rounds: 5))
        // A ladder that cannot be used is one problem with its line; the default (on) is kept.
        let bad = try ConfigLoader.parse("[alarm]\n\nladder = \"step=10s\"\n", name: "t.toml", mode: .lenient)
        #expect(bad.configuration.alarm.ladder == .standard)
        #expect(bad.problems.count == 1, "\(bad.problems)")
        let sentence = bad.problemMessages.first ?? ""
        #expect(sentence.contains("ladder") && sentence.contains("line 3") && sentence.contains("30s"), "\(sentence)")
    }

    @Test func unknownKeysAreWarningsWithLines() throws {
        let loaded = try ConfigLoader.parse(
            """
            [http]
            port = 8081
            prot = 8082

            [sound]
            device = "x"
            """, name: "t.toml")
        #expect(loaded.configuration.http.port == 8081)
        #expect(
            loaded.warnings == [
                "Config file t.toml: unknown key http.prot at line 3 is ignored.",
                "Config file t.toml: unknown key [sound] at line 5 is ignored.",
            ])
    }

    @Test(arguments: [
        ("[http]\nport = \"eighty\"", "Config file t.toml: http.port at line 2 must be a whole number."),
        ("[http]\n\nport = 70000", "Config file t.toml: http.port at line 3 must be from 1 to 65535, not 70000."),
        ("[audio]\ndevice = \"\"", "Config file t.toml: audio.device at line 2 must not be empty."),
        (
            "[buttons]\nbias = \"up\"",
            "Config file t.toml: buttons.bias at line 2 must be one of \"pull-up\", \"pull-down\", \"disable\", \"as-is\", not \"up\"."
        ),
        (
            "[buttons]\nstop = \"GPIO 27\"",
            "Config file t.toml: buttons.stop at line 2 must be a line name like \"GPIO17\", a chip and offset like \"gpiochip0:17\", or \"\"."
        ),
        (
            "[clock]\ntime_zone = \"Moon/Base\"",
            "Config file t.toml: clock.time_zone at line 2 is not a known time zone; use a tz database name such as \"Europe/Berlin\"."
        ),
        ("http = 5", "Config file t.toml: http at line 1 must be a table like [http]."),
        ("[shake]\nsustain_seconds = true", "Config file t.toml: shake.sustain_seconds at line 2 must be a number."),
    ])
    func badValuesNameKeyAndLine(text: String, message: String) {
        let error = #expect(throws: ConfigError.self) { try ConfigLoader.parse(text, name: "t.toml") }
        #expect(error?.message == message)
    }

    @Test func syntaxErrorsNameTheLine() {
        let error = #expect(throws: ConfigError.self) { try ConfigLoader.parse("[http]\nport = 80\nbind = \n", name: "t.toml") }
        #expect(error?.message.hasPrefix("Config file t.toml is not valid TOML at line 3") == true)
    }

    @Test func aMissingFileIsOneSentence() throws {
        let dir = try TemporaryDirectory()
        let error = #expect(throws: ConfigError.self) { try ConfigLoader.load(path: dir.file("nope.toml")) }
        #expect(error?.message == "Config file \(dir.file("nope.toml")) cannot be read (no such file).")
        let fromEnv = #expect(throws: ConfigError.self) {
            try ConfigLoader.load(path: nil, environment: ["AUBADE_CONFIG": dir.file("env.toml")])
        }
        #expect(fromEnv?.message.contains("env.toml") == true)
    }
}

/// The `[mqtt]` section read: a broker's address in both forms, several leads, and the defaults when it is absent.
@Suite("Config file: [mqtt]")
struct MQTTConfigTests {
    @Test func theSectionIsReadAndTheBrokerParsed() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("t.toml")
        try """
        [mqtt]
        broker = "mqtts://[::1]:8884"
        username = "clock"
        pre_alarm = ["30m", "5m"]
        client_id = "aubade-bedroom"
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = try ConfigLoader.load(path: path, mode: .strict)
        #expect(loaded.configuration.mqtt.preAlarmSeconds == [1800, 300])
        #expect(loaded.configuration.mqtt.clientID == "aubade-bedroom")
        #expect(BrokerAddress(parsing: loaded.configuration.mqtt.broker) == BrokerAddress(tls: true, host: "::1", port: 8884))
        #expect(BrokerAddress(parsing: "mqtt://clock.local") == BrokerAddress(tls: false, host: "clock.local", port: 1883))
        #expect(BrokerAddress(parsing: "mqtts://10.0.0.2")?.port == 8883)
        for bad in ["mqtt://", "mqtt://host:0", "mqtt://host:x", "tcp://host:1883", "mqtt://us@host", "mqtt://host/path"] {
            #expect(BrokerAddress(parsing: bad) == nil, "\(bad)")
        }
        #expect(Configuration().mqtt.broker.isEmpty && Configuration().mqtt.preAlarmSeconds == [900])
    }
}

/// The `[directory]` section: its own servers (a trailing slash dropped), off, and a bad list as a problem that
/// keeps the default (the servers DNS names).
@Suite("Config file: [directory]")
struct DirectoryConfigTests {
    @Test func theServersAndTheSwitchAreRead() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("t.toml")
        try """
        [directory]
        enabled = false
        servers = ["https://de2.api.radio-browser.info/", "http://127.0.0.1:8099"]
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = try ConfigLoader.load(path: path, mode: .strict)
        #expect(!loaded.configuration.directory.enabled)
        #expect(loaded.configuration.directory.servers == ["https://de2.api.radio-browser.info", "http://127.0.0.1:8099"])
        #expect(Configuration().directory.enabled && Configuration().directory.servers.isEmpty)
    }

    @Test func aBadListIsAProblemAndTheDefaultIsKept() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("t.toml")
        try "[directory]\nservers = \"de2.api.radio-browser.info\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = try ConfigLoader.load(path: path, mode: .lenient)
        #expect(loaded.configuration.directory.servers.isEmpty)
        #expect(
            loaded.problemMessages.first?.hasSuffix(
                "directory.servers at line 2 must be a list of http(s) server addresses, like [\"https://de2.api.radio-browser.info\"]; the default [] is used."
            ) == true, "\(loaded.problemMessages)")
    }
}

/// The `[podcasts]` section: how often the feeds are read again, 15m to 720h like the calendars'.
@Suite("Config file: [podcasts]")
struct PodcastConfigTests {
    @Test func theRefreshIsReadAndABadOneKeepsTheDefault() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("t.toml")
        try "[podcasts]\nrefresh = \"2h\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try ConfigLoader.load(path: path, mode: .strict).configuration.podcasts.refreshSeconds == 7200)
        try "[podcasts]\nrefresh = \"5m\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = try ConfigLoader.load(path: path, mode: .lenient)
        #expect(loaded.configuration.podcasts.refreshSeconds == 21_600)
        #expect(
            loaded.problemMessages.first?.hasSuffix(
                "podcasts.refresh at line 2 must be a duration from 15m to 720h, like \"24h\"; the default 21600 is used.")
                == true, "\(loaded.problemMessages)")
    }
}
