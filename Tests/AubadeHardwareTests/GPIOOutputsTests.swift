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
