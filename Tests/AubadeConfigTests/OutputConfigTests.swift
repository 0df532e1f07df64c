import AubadeConfig
import AubadeCore
import Testing

/// `[outputs.shaker]` and `[outputs.lamp]`: each output's line, polarity and pattern, read as every other key
/// (a bad value is a problem naming key and line, the key keeps its default, R36), the shorthand that names the
/// line alone, and the outputs' own rules: a misspelt output is a problem, and an output never takes a button's
/// line or the other output's.
@Suite("Config file: outputs")
struct OutputConfigTests {
    static func lenient(_ text: String) throws -> ConfigLoader.Loaded {
        try ConfigLoader.parse(text, name: "t.toml", mode: .lenient)
    }

    @Test func theDefaultsAreNoLineAPulsingShakerAndASteadyLamp() {
        let o = Configuration().outputs
        #expect(o.shaker == .init(line: "", activeLow: false, pattern: .pulse(onMilliseconds: 500, offMilliseconds: 500)))
        #expect(o.lamp == .init(line: "", activeLow: false, pattern: .steady))
    }

    @Test func tablesAreRead() throws {
        let loaded = try Self.lenient(
            """
            [outputs.shaker]
            line = "GPIO16"
            active_low = true
            pattern = "250/750"

            [outputs.lamp]
            line = "gpiochip0:20"
            pattern = "steady"
            """)
        #expect(loaded.isClean, "\(loaded.problemMessages) \(loaded.warnings)")
        let o = loaded.configuration.outputs
        #expect(o.shaker == .init(line: "GPIO16", activeLow: true, pattern: .pulse(onMilliseconds: 250, offMilliseconds: 750)))
        #expect(o.lamp == .init(line: "gpiochip0:20", activeLow: false, pattern: .steady))
    }

    @Test func theShorthandNamesTheLineAlone() throws {
        let loaded = try Self.lenient(
            """
            [outputs]
            shaker = "GPIO16"
            lamp = "GPIO20"
            """)
        #expect(loaded.isClean, "\(loaded.problemMessages) \(loaded.warnings)")
        #expect(loaded.configuration.outputs.shaker.line == "GPIO16")
        #expect(loaded.configuration.outputs.shaker.pattern == .pulse(onMilliseconds: 500, offMilliseconds: 500))
        #expect(loaded.configuration.outputs.lamp.line == "GPIO20")
    }

    @Test func badValuesAreProblemsWithTheirLinesAndKeepTheirDefaults() throws {
        let loaded = try Self.lenient(
            """
            [outputs.shaker]
            line = "GPIO 16"
            active_low = "yes"
            pattern = "buzz"

            [outputs.lamp]
            line = "GPIO20"
            pattern = "10/10"
            """)
        #expect(
            loaded.problemMessages == [
                "Config file t.toml: outputs.shaker.line at line 2 must be a line name like \"GPIO17\", a chip and offset like \"gpiochip0:17\", or \"\"; the default \"\" is used.",
                "Config file t.toml: outputs.shaker.active_low at line 3 must be true or false; the default false is used.",
                "Config file t.toml: outputs.shaker.pattern at line 4 must be \"steady\" or on/off milliseconds from 50 to 60000, like \"500/500\"; the default \"500/500\" is used.",
                "Config file t.toml: outputs.lamp.pattern at line 8 must be \"steady\" or on/off milliseconds from 50 to 60000, like \"500/500\"; the default \"steady\" is used.",
            ])
        let o = loaded.configuration.outputs
        #expect(o.shaker == Configuration().outputs.shaker)
        #expect(o.lamp == .init(line: "GPIO20", pattern: .steady), "the lamp's good line is still read")
        #expect(throws: ConfigError.self) { try ConfigLoader.parse("[outputs.lamp]\npattern = 5", name: "t.toml") }
    }

    @Test func aMisspeltOutputIsAProblemNotAnUnknownKey() throws {
        let loaded = try Self.lenient(
            """
            [outputs.shakr]
            line = "GPIO16"

            [outputs]
            lamp = "GPIO20"
            bell = "GPIO21"
            """)
        #expect(
            loaded.problemMessages == [
                "Config file t.toml: outputs.shakr at line 1 is not an output; the outputs are shaker and lamp; this entry is ignored.",
                "Config file t.toml: outputs.bell at line 6 is not an output; the outputs are shaker and lamp; this entry is ignored.",
            ])
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        #expect(loaded.configuration.outputs.shaker.line == "")
        #expect(loaded.configuration.outputs.lamp.line == "GPIO20")
    }

    @Test func anOutputNeverTakesAButtonsLineOrTheOtherOutputs() throws {
        let loaded = try Self.lenient(
            """
            [buttons]
            stop = "GPIO27"

            [outputs]
            shaker = "GPIO27"

            [outputs.lamp]
            line = "GPIO16"
            """)
        #expect(
            loaded.problemMessages == [
                "Config file t.toml: outputs.shaker at line 5 is the stop button's line; the output is off."
            ])
        #expect(loaded.configuration.outputs.shaker.line == "")
        #expect(loaded.configuration.outputs.lamp.line == "GPIO16")

        let both = try Self.lenient(
            """
            [outputs.shaker]
            line = "GPIO16"
            [outputs.lamp]
            line = "GPIO16"
            """)
        #expect(
            both.problemMessages == ["Config file t.toml: outputs.lamp.line at line 4 is the shaker's line; the output is off."])
        #expect(both.configuration.outputs.shaker.line == "GPIO16" && both.configuration.outputs.lamp.line == "")
    }

    @Test func unknownKeysInAnOutputAreWarnings() throws {
        let loaded = try Self.lenient(
            """
            [outputs.lamp]
            line = "GPIO20"
            colour = "red"
            """)
        #expect(loaded.problems.isEmpty)
        #expect(loaded.warnings == ["Config file t.toml: unknown key outputs.lamp.colour at line 3 is ignored."])
    }
}
