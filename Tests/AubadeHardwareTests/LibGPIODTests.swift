import AubadeCore
import AubadeHardware
import Logging
import Testing

/// The real libgpiod v1 wrapper on a machine without GPIO: a watch fails with one sentence naming every line
/// it cannot have (not one sentence per line, each repeating "no GPIO chip"), a line's status names the
/// libgpiod call and the system's reason — and nothing throws out of `ButtonInput`. (The per-line sentences
/// of a machine with a chip but without the line are checked in the hardware-in-the-loop VM.)
/// (With a chip, as inside the QEMU gpio-sim harness of issue 7, these expectations do not hold, so the
/// suite runs only where /dev has no gpiochip.)
@Suite("libgpiod without a chip", .enabled(if: GPIOLibrary.chipNames().isEmpty, "this machine has a GPIO chip"))
struct LibGPIODTests {
    let gpio = LibGPIOD()

    @Test func thereAreNoChips() {
        #expect(gpio.chips().isEmpty)
    }

    @Test func aNamedLineFailsNamingTheLineAndTheReason() async {
        let request = GPIOLineRequest(label: "snooze", address: .named("GPIO17"))
        await #expect {
            _ = try await gpio.watch([request])
        } throws: { error in
            let message = (error as? GPIOError)?.message ?? ""
            return message == "this machine has no GPIO chip, so GPIO17 (snooze) cannot be requested"
        }
    }

    @Test func aChipAndOffsetFailsNamingTheChipAndTheSystemsReason() async {
        let request = GPIOLineRequest(label: "stop", address: .chipOffset(chip: "gpiochip0", offset: 27))
        await #expect {
            _ = try await gpio.watch([request])
        } throws: { error in
            let message = (error as? GPIOError)?.message ?? ""
            return message == "this machine has no GPIO chip, so gpiochip0:27 (stop) cannot be requested"
        }
    }

    @Test func severalLinesOnAMachineWithoutAChipAreOneSentence() async {
        let requests = [
            GPIOLineRequest(label: "snooze", address: .named("GPIO17")),
            GPIOLineRequest(label: "stop", address: .chipOffset(chip: "gpiochip9", offset: 1)),
        ]
        await #expect {
            _ = try await gpio.watch(requests)
        } throws: { error in
            let message = (error as? GPIOError)?.message ?? ""
            return message == "this machine has no GPIO chip, so GPIO17 (snooze), gpiochip9:1 (stop) cannot be requested"
        }
    }

    @Test func statusSaysWhyALineIsMissing() {
        guard case .missing(let reason) = gpio.status(of: .chipOffset(chip: "gpiochip0", offset: 17)) else {
            Issue.record("a line was found on a machine without GPIO")
            return
        }
        #expect(reason.hasPrefix("gpiod_chip_open_lookup(gpiochip0) failed: "))
        guard case .missing(let named) = gpio.status(of: .named("GPIO17")) else {
            Issue.record("a line was found on a machine without GPIO")
            return
        }
        #expect(named == "gpiod_ctxless_find_line(GPIO17) found no line of that name (this machine has no GPIO chip)")
    }

    @Test func buttonsTurnOffWithOneWarningAndNeverThrow() async {
        let lines: [ButtonRole: GPIOLineRequest] = [
            .snooze: GPIOLineRequest(label: "snooze", address: .named("GPIO17")),
            .stop: GPIOLineRequest(label: "stop", address: .named("GPIO27")),
        ]
        let input = await ButtonInput.open(lines, gpio: gpio, logger: Logger(label: "test"))
        #expect(input.roles.isEmpty)
        #expect(
            input.warning
                == "Buttons are off: this machine has no GPIO chip, so GPIO17 (snooze), GPIO27 (stop) cannot be requested")
        input.stop()
        #expect(await finishes(input.edges))
    }

    @Test func theVersionIsTheV1API() {
        #expect(GPIOLibrary.version.hasPrefix("1."))
    }
}
