import AubadeConfig
import Testing

/// `[verify]`: the microphone that proves the room heard an alarm, and the hour of its daily self-test — read when
/// good, and when bad a problem with its key and line while the default is kept (R36).
@Suite("Config file: [verify]")
struct VerifyConfigTests {
    @Test func theMicrophoneAndTheSelfTestHourAreRead() throws {
        let loaded = try ConfigLoader.parse(
            """
            [verify]
            microphone = "hw:1,0"
            self_test_hour = 9
            """, name: "t.toml")
        #expect(loaded.configuration.verify.microphone == "hw:1,0")
        #expect(loaded.configuration.verify.selfTestHour == 9)
        #expect(loaded.warnings.isEmpty)
    }

    @Test func withoutTheSectionThereIsNoMicrophoneAndTheTestHourIsTwoInTheAfternoon() throws {
        let loaded = try ConfigLoader.parse("", name: "t.toml")
        #expect(loaded.configuration.verify.microphone == "")
        #expect(loaded.configuration.verify.selfTestHour == 14)
    }

    @Test(arguments: [
        ("self_test_hour = 3", "self_test_hour", "must be from 8 to 20, not 3"),
        ("self_test_hour = 21", "self_test_hour", "must be from 8 to 20, not 21"),
        ("self_test_hour = \"noon\"", "self_test_hour", "must be a whole number"),
        ("microphone = 1", "microphone", "must be a string in quotes"),
    ])
    func aBadValueIsAProblemWithItsKeyAndLineAndTheDefaultIsKept(line: String, key: String, reason: String) throws {
        let text = key == "microphone" ? "[verify]\n\(line)\n" : "[verify]\nmicrophone = \"hw:2,0\"\n\(line)\n"
        let lenient = try ConfigLoader.parse(text, name: "t.toml", mode: .lenient)
        let problem = try #require(lenient.problems.first)
        #expect(lenient.problems.count == 1, "\(lenient.problems)")
        #expect(problem.key == "verify.\(key)")
        #expect(problem.line == (key == "microphone" ? 2 : 3))
        #expect(problem.refusal.contains(reason), "\(problem.refusal)")
        let verify = lenient.configuration.verify
        #expect(key == "microphone" ? verify.microphone == "" : verify.selfTestHour == 14, "the default is kept")
        if key != "microphone" { #expect(verify.microphone == "hw:2,0", "the other key is still read") }
        #expect(throws: ConfigError.self) { try ConfigLoader.parse(text, name: "t.toml", mode: .strict) }
    }
}
