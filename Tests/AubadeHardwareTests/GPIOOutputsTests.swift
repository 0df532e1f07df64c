import AubadeCore
import AubadeHardware
import AubadeHardwareTesting
import AubadeTesting
import Foundation
import Logging
import Testing

/// The real libgpiod v1 output driver on a machine without GPIO: every configured output is left out with one
/// sentence naming its line and the reason, switching it does nothing, and the driver still ends (rule 8: the
/// clock rings without them). A folder with a stand-in `gpiochip0` gets past the "no chip" shortcut, so the real
/// libgpiod call fails and is named. (Driving real lines — the pattern, the stop, SIGKILL — is checked on gpio-sim
/// in the hardware-in-the-loop VM: `hardware/hil/scenarios/outputs.sh`.)
@Suite("libgpiod outputs without a chip", .enabled(if: GPIOLibrary.chipNames().isEmpty, "this machine has a GPIO chip"))
struct GPIOOutputsTests {
    let logger = Logger(label: "test")
    let shaker = GPIOOutputRequest(
        output: .shaker, address: .named("GPIO16"), pattern: .pulse(onMilliseconds: 500, offMilliseconds: 500))
    let lamp = GPIOOutputRequest(output: .lamp, address: .chipOffset(chip: "gpiochip0", offset: 20), activeLow: true)

    @Test func everyOutputIsLeftOutWithASentenceAndSwitchingDoesNothing() async {
        let outputs = await GPIOOutputs.open([shaker, lamp], logger: logger)
        #expect(outputs.available.isEmpty)
        #expect(
            outputs.problems == [
                .shaker: "GPIO line GPIO16 (shaker) cannot be driven: this machine has no GPIO chip.",
                .lamp: "GPIO line gpiochip0:20 (lamp) cannot be driven: this machine has no GPIO chip.",
            ])
        outputs.set(.shaker, on: true)
        #expect(!outputs.isOn(.shaker), "an output that is not available is never on")
        await outputs.shutdown()
        await outputs.shutdown()
    }

    @Test func theRealLibraryCallIsNamedWhenAChipCannotBeOpened() async throws {
        let dev = try TemporaryDirectory("outputs-dev")
        #expect(FileManager.default.createFile(atPath: dev.file("gpiochip0"), contents: Data()))
        let outputs = await GPIOOutputs.open([lamp, shaker], logger: logger, devDirectory: dev.path)
        #expect(outputs.available.isEmpty)
        let lampProblem = try #require(outputs.problems[.lamp])
        #expect(
            lampProblem.hasPrefix("GPIO line gpiochip0:20 (lamp) cannot be driven: gpiod_chip_open_lookup(gpiochip0) failed: "))
        let shakerProblem = try #require(outputs.problems[.shaker])
        #expect(
            shakerProblem.hasPrefix("GPIO line GPIO16 (shaker) cannot be driven: gpiod_ctxless_find_line(GPIO16) found no line"))
        await outputs.shutdown()
    }

    @Test func drivingInactiveSaysWhyForEachLine() {
        let results = GPIOOutputs.driveInactive([shaker, lamp])
        #expect(results.map(\.0.output) == [.shaker, .lamp])
        #expect(
            results.map { $0.1?.message } == [
                "GPIO line GPIO16 (shaker) cannot be driven: this machine has no GPIO chip.",
                "GPIO line gpiochip0:20 (lamp) cannot be driven: this machine has no GPIO chip.",
            ])
    }

    @Test func noOutputsConfiguredIsNothingToDoAndEnds() async {
        let outputs = await GPIOOutputs.open([], logger: logger)
        #expect(outputs.available.isEmpty && outputs.problems.isEmpty)
        await outputs.shutdown()
    }

    @Test func theNullAndFakeOutputsKeepThePortsContract() async {
        let null = NullOutputs(configured: [.shaker])
        null.set(.shaker, on: true)
        #expect(null.available.isEmpty && !null.isOn(.shaker) && null.problems[.shaker] != nil)
        let fake = FakeOutputs(available: [.shaker])
        fake.set(.shaker, on: true)
        fake.set(.lamp, on: true)
        #expect(fake.isOn(.shaker) && !fake.isOn(.lamp))
        fake.allOff()
        await fake.shutdown()
        fake.set(.shaker, on: true)
        #expect(fake.events == [.set(.shaker, on: true), .set(.shaker, on: false), .shutdown])
    }
}

/// The outputs' driver on simulated lines (`aubade run --simulate-outputs`, for whole-clock tests on a machine
/// without GPIO): the same thread follows the same waves, and each level is a JSON line of the trace, in order.
@Suite("outputs on simulated lines")
struct SimulatedOutputsTests {
    struct Record: Decodable, Equatable {
        var event: String
        var output: String
        var line: String
        var active: Bool
        var t: Double
    }

    let logger = Logger(label: "test")
    let shaker = GPIOOutputRequest(
        output: .shaker, address: .named("GPIO16"), pattern: .pulse(onMilliseconds: 50, offMilliseconds: 50))
    let lamp = GPIOOutputRequest(output: .lamp, address: .chipOffset(chip: "gpiochip0", offset: 20), activeLow: true)

    static func records(_ path: String) -> [Record] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Record.self, from: Data($0.utf8)) }
    }

    /// The trace once `enough` says it is, polled every 20 ms under a generous watchdog (the driver's thread is
    /// starved on a loaded machine; nothing here asserts its timing); as it stands when the watchdog ends.
    static func trace(_ path: String, until enough: ([Record]) -> Bool) async -> [Record] {
        await poll(.seconds(120), every: .milliseconds(20)) { () -> [Record]? in
            let found = records(path)
            return enough(found) ? found : nil
        } ?? records(path)
    }

    @Test func aPatternedOutputTakesItsLevelsInOrderAndEveryLineEndsInactiveAndReleased() async throws {
        let folder = try TemporaryDirectory("outputs-sim")
        let path = folder.file("outputs.jsonl")
        let outputs = await GPIOOutputs.open([shaker, lamp], logger: logger, simulatedTrace: path)
        #expect(outputs.available == [.shaker, .lamp] && outputs.problems.isEmpty)
        #expect(
            Self.records(path).map { [$0.event, $0.output, $0.line, "\($0.active)"] } == [
                ["request", "shaker", "GPIO16", "false"], ["request", "lamp", "gpiochip0:20", "false"],
            ])

        outputs.set(.shaker, on: true)
        outputs.set(.lamp, on: true)
        #expect(outputs.isOn(.shaker) && outputs.isOn(.lamp))
        // The shaker's 50/50 pattern: on, off, on, off…; the steady lamp: on once.
        let shaking = await Self.trace(path) { $0.filter { $0.output == "shaker" && $0.event == "set" }.count >= 4 }
        let shakerLevels = shaking.filter { $0.output == "shaker" && $0.event == "set" }.map(\.active)
        #expect(Array(shakerLevels.prefix(4)) == [true, false, true, false])
        #expect(shaking.filter { $0.output == "lamp" && $0.event == "set" }.map(\.active) == [true])
        let times = shaking.map(\.t)
        #expect(times == times.sorted(), "records are in the order of the monotonic clock")

        outputs.set(.shaker, on: false)
        #expect(!outputs.isOn(.shaker))
        await outputs.shutdown()
        let all = Self.records(path)
        let last = Dictionary(all.map { ($0.output, $0) }, uniquingKeysWith: { _, later in later })
        #expect(last["shaker"].map { [$0.event, "\($0.active)"] } == ["release", "false"])
        #expect(last["lamp"].map { [$0.event, "\($0.active)"] } == ["release", "false"])
        #expect(
            all.filter { $0.output == "lamp" }.map { [$0.event, "\($0.active)"] } == [
                ["request", "false"], ["set", "true"], ["set", "false"], ["release", "false"],
            ], "the lamp is driven inactive before it is let go")
        outputs.set(.shaker, on: true)
        #expect(Self.records(path).count == all.count, "nothing is driven after the end")
    }

    @Test func aTraceThatCannotBeWrittenLeavesEachOutputOutWithASentence() async {
        let outputs = await GPIOOutputs.open([shaker], logger: logger, simulatedTrace: "/nonexistent-folder/outputs.jsonl")
        #expect(outputs.available.isEmpty)
        #expect(
            outputs.problems[.shaker]
                == "Simulated line GPIO16 (shaker) cannot be driven: open(/nonexistent-folder/outputs.jsonl) failed: No such file or directory."
        )
        await outputs.shutdown()
    }
}
