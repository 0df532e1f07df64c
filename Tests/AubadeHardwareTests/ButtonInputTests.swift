import AubadeCore
import AubadeHardware
import AubadeHardwareTesting
import AubadeTesting
import Logging
import Testing

/// Buttons above the C calls, driven through `FakeGPIO`: line selection, partial failures with one warning,
/// edges mapped to roles, and the whole path through the pure `ButtonPanel`.
@Suite("Buttons through the GPIO port")
struct ButtonInputTests {
    static let logger = Logger(label: "test")

    static func request(_ role: ButtonRole, _ address: GPIOLineAddress) -> GPIOLineRequest {
        GPIOLineRequest(label: role.rawValue, address: address)
    }

    let gpio = FakeGPIO(lines: [
        .init(offset: 17, name: "GPIO17"), .init(offset: 27, name: "GPIO27"),
        .init(offset: 22, name: "GPIO22", level: true), .init(offset: 23, name: "GPIO23", consumer: "gpio-keys"),
    ])

    @Test func edgesArriveAsButtonEdgesAfterTheInitialLevels() async {
        let input = await ButtonInput.open(
            [
                .snooze: Self.request(.snooze, .named("GPIO17")),
                .playPause: Self.request(.playPause, .chipOffset(chip: "gpiochip0", offset: 22)),
            ],
            gpio: gpio, logger: Self.logger)
        #expect(input.warning == nil)
        #expect(input.roles == [.snooze, .playPause])
        gpio.emit(label: "snooze", active: true, at: .milliseconds(100))
        gpio.emit(label: "snooze", active: false, at: .milliseconds(180))
        let edges = await collect(input.edges, count: 4)
        #expect(
            edges == [
                ButtonEdge(role: .snooze, pressed: false, time: .zero, isInitial: true),
                ButtonEdge(role: .playPause, pressed: true, time: .zero, isInitial: true),
                ButtonEdge(role: .snooze, pressed: true, time: .milliseconds(100)),
                ButtonEdge(role: .snooze, pressed: false, time: .milliseconds(180)),
            ])
        input.stop()
        #expect(gpio.watches.last?.isStopped == true)
    }

    @Test func missingAndBusyLinesTurnOnlyTheirButtonsOffWithOneWarning() async {
        let input = await ButtonInput.open(
            [
                .snooze: Self.request(.snooze, .named("GPIO17")),
                .stop: Self.request(.stop, .named("GPIO99")),
                .sleep: Self.request(.sleep, .named("GPIO23")),
                .volumeUp: Self.request(.volumeUp, .chipOffset(chip: "gpiochip7", offset: 1)),
            ], gpio: gpio, logger: Self.logger)
        #expect(input.roles == [.snooze])
        let warning = input.warning ?? ""
        #expect(warning.hasPrefix("Button(s) stop, sleep, volume-up are off: "))
        #expect(warning.contains("GPIO line GPIO99 (stop) is not available: no line named GPIO99"))
        #expect(
            warning.contains(
                "GPIO line GPIO23 (sleep) is not available: request failed: Device or resource busy (in use by gpio-keys)."))
        #expect(warning.contains("GPIO line gpiochip7:1 (volume-up) is not available: gpiod_chip_open_lookup(gpiochip7) failed"))
        gpio.emit(label: "snooze", active: true, at: .milliseconds(5))
        let edges = await collect(input.edges, count: 2)
        #expect(edges.map(\.role) == [.snooze, .snooze])
        input.stop()
    }

    @Test func noLineAtAllMeansButtonsOffAndASilentStream() async {
        let input = await ButtonInput.open([.stop: Self.request(.stop, .named("GPIO99"))], gpio: gpio, logger: Self.logger)
        #expect(input.roles.isEmpty)
        #expect(input.warning == "Buttons are off: GPIO line GPIO99 (stop) is not available: no line named GPIO99 (fake GPIO).")
        input.stop()
        #expect(await finishes(input.edges))
    }

    @Test func noGPIOAtAllIsAWarningToo() async {
        let input = await ButtonInput.open(
            [.stop: Self.request(.stop, .named("GPIO27"))], gpio: NullGPIO(),
            logger: Self.logger)
        #expect(
            input.warning
                == "Buttons are off: GPIO line(s) GPIO27 (stop) cannot be watched: GPIO is not available on this machine.")
        input.stop()
    }

    @Test func noButtonConfiguredIsNotAWarning() async {
        let input = await ButtonInput.open([:], gpio: gpio, logger: Self.logger)
        #expect(input.warning == nil && input.roles.isEmpty)
        input.stop()
    }

    @Test func cancellingTheListenerReleasesTheLines() async {
        let input = await ButtonInput.open([.snooze: Self.request(.snooze, .named("GPIO17"))], gpio: gpio, logger: Self.logger)
        // Listening for sure: an edge went through. Then the listener goes away.
        let listener = StreamRecorder(input.edges)
        gpio.emit(label: "snooze", active: true, at: .milliseconds(10))
        #expect(await listener.wait { !$0.isEmpty })
        #expect(gpio.watches.last?.isStopped == false)
        listener.cancel()
        #expect(await eventually { gpio.watches.last?.isStopped == true })
    }

    @Test func aFailingDeviceEndsTheEdges() async {
        let input = await ButtonInput.open([.snooze: Self.request(.snooze, .named("GPIO17"))], gpio: gpio, logger: Self.logger)
        gpio.watches.last?.fail(GPIOError("GPIO line GPIO17 (snooze) stopped: gpiod_line_event_read failed: No such device."))
        #expect(await finishes(input.edges))
    }

    @Test func bouncyPressesThroughThePanelBecomeCommands() async {
        let input = await ButtonInput.open(
            [
                .snooze: Self.request(.snooze, .named("GPIO17")),
                .stop: Self.request(.stop, .named("GPIO27")),
            ], gpio: gpio, logger: Self.logger)
        // Snooze: a bouncy press; stop: held 1.5 s (a long press).
        for (label, active, ms) in [
            ("snooze", true, 10), ("snooze", false, 12), ("snooze", true, 14), ("snooze", false, 200),
            ("stop", true, 1000), ("stop", false, 2500),
        ] {
            gpio.emit(label: label, active: active, at: .milliseconds(ms))
        }
        let edges = await collect(input.edges, count: 8)
        input.stop()
        var panel = ButtonPanel()
        var commands: [ButtonPanel.Command] = []
        for edge in edges {
            while let d = panel.nextDeadline, d < edge.time { commands += panel.tick(at: d) }
            commands += panel.handle(edge)
        }
        while let d = panel.nextDeadline { commands += panel.tick(at: d) }
        #expect(commands.map(\.action) == [.snooze, .stop])
        #expect(commands.map(\.kind) == [.short, .long])
    }
}
