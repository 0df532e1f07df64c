import ArgumentParser
import AubadeApp
import AubadeAudio
import AubadeConfig
import AubadeCore
import AubadeDaemon
import AubadeHardware
import AubadeHomeAssistant
import AubadeServer
import AubadeStore
import AubadeWakerFiles
import Foundation
import Logging
import ServiceLifecycle

/// `aubade run`: the daemon (scheduler, supervised alarms, sleep timer, reservations, buttons, shake,
/// network policy, control socket; systemd notify + watchdog). See `Daemon` in AubadeDaemon.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the clock (the daemon).")
    @OptionGroup var global: GlobalOptions
    @Option(help: "HTTP address to listen on, addr:port, or off (default: the config's http.bind and http.port).")
    var http: String?
    @Option(
        help: "The MQTT broker for Home Assistant, mqtt://host:port or mqtts://host:port (default: the config's [mqtt] broker).")
    var mqtt: String?
    @Option(
        name: .customLong("fake-time"),
        help: ArgumentHelp(
            "Start the daemon's wall clock at this ISO-8601 instant (it then advances in real time). For tests and demos.",
            visibility: .hidden))
    var fakeTime: String?
    @Option(
        name: .customLong("backlight-root"),
        help: ArgumentHelp(
            "Look for the screen's backlight under this folder's sys/class/backlight instead of /sys (a fake sysfs tree, for tests).",
            visibility: .hidden))
    var backlightRoot: String?
    @Option(
        name: .customLong("simulate-outputs"),
        help: ArgumentHelp(
            "Drive the config's [outputs] as simulated lines, each level a JSON line appended to this file, instead of GPIO (for tests on a machine without GPIO).",
            valueName: "file", visibility: .hidden))
    var simulateOutputs: String?
    @Flag(
        name: .customLong("unpaced"),
        help: ArgumentHelp(
            "Let alsa-lib's null and file plugins take audio as fast as they are given it instead of at a card's pace (for a benchmark whose card is drained faster than real time).",
            visibility: .hidden))
    var unpaced = false
    @Flag(help: "Check the config file strictly, print its problems or OK, and exit (0 or 2) without starting the clock.")
    var checkConfig = false

    func run() async throws {
        if checkConfig { return try ConfigCheck.run(global) }
        let address: (host: String, port: Int)??
        do throws(ServerSettings.AddressError) {
            address = try http.map { text throws(ServerSettings.AddressError) in try ServerSettings.parseAddress(text) }
        } catch {
            throw CLIError.badInput(error.description)
        }
        let broker = try mqtt.map { text -> BrokerAddress in
            guard let address = BrokerAddress(parsing: text) else {
                throw CLIError.badInput("--mqtt '\(text)' \(BrokerAddress.form).")
            }
            return address
        }
        // Lenient: a bad value or even a broken file never stops the clock; each problem is printed (R36).
        let context = try global.context(mode: .lenient, forDaemon: true)
        let config = context.configuration
        let fakeStart = try fakeTime.map { text -> Date in
            guard let date = ISO8601DateFormatter().date(from: text) else {
                throw CLIError.badInput("--fake-time '\(text)' is not an ISO-8601 instant like 2026-01-05T07:59:55Z.")
            }
            return date
        }
        let logger = Logger(label: "aubade")
        let (homeAssistant, mqttWarning) = MQTTFromConfig.settings(config.mqtt, override: broker)
        var options = ClockOptions(
            allowLoopback: config.audio.allowLocalStreams, defaultZone: try context.defaultZone(),
            followsSystemZone: config.clock.timeZone.isEmpty, shakeResponse: config.shake.response,
            primaryDevice: config.audio.device,
            waker: { [setup = WakerSetup(config: config, databasePath: context.databasePath)] in WakerFiles(setup) },
            calendars: CalendarOptions(
                refresh: .seconds(config.calendars.refreshSeconds),
                horizonDays: config.calendars.horizonDays),
            preAlarmLeads: homeAssistant == nil ? [] : config.mqtt.preAlarmSeconds,
            podcastRefresh: .seconds(config.podcasts.refreshSeconds), sunriseSeconds: config.display.sunriseSeconds,
            ladder: config.alarm.ladder)
        // The microphone's daily self-test, run by the clock when there is a microphone.
        options.selfTest = SelfTestSchedule(hour: config.verify.selfTestHour)
        let gpio = LibGPIOD()
        let buttons = await ButtonInput.open(config.buttons.lineRequests(), gpio: gpio, logger: logger)
        let shake = config.shake.sensor(gpio: gpio, logger: logger)
        var parts = Daemon.Parts(
            databasePath: context.databasePath, configPath: context.loaded.path, options: options,
            sink: SinkOptions(device: config.audio.device, alternate: config.audio.alternateDevice, paced: !unpaced),
            json: context.json,
            fakeStart: fakeStart, buttons: buttons, panel: config.buttons.panelSettings,
            shake: shake.0, network: SysfsNetworkStatus(),
            configWarnings: context.loaded.problemMessages + context.loaded.warnings
                + [shake.warning, mqttWarning].compactMap { $0 },
            backlight: Self.backlight(config.display.backlight, root: backlightRoot ?? ""),
            // The web page and the JSON API: --http overrides the config's [http] address; --http off turns them off.
            http: (address ?? (config.http.bind, config.http.port)).map { listen in
                ServerSettings(
                    host: listen.host, port: listen.port, openReads: config.http.openReads,
                    allowedHosts: config.http.allowedHosts)
            },
            homeAssistant: homeAssistant,
            directory: StationDirectoryFromConfig.make(config, allowLocal: false))
        parts.hlsBandwidthCap = config.audio.hlsMaxKbps * 1000
        let outputs = await GPIOOutputs.open(config.outputs.requests(), logger: logger, simulatedTrace: simulateOutputs)
        parts.outputs = outputs
        parts.microphone = config.verify.microphone.isEmpty ? nil : config.verify.microphone
        parts.configWarnings += outputs.problems.sorted { $0.key < $1.key }.map { "Output \($0.key) is off: \($0.value)" }
        do {
            try await Daemon.run(parts, logger: logger)
        } catch let failure as Daemon.StartFailure {
            throw CLIError.failed(failure.description)
        }
    }

    /// The backlight the config's `[display] backlight` names: "none", "auto" (the one found, if any) or a
    /// device's name; with a warning when one was named, or found, but cannot be used. A machine without a
    /// backlight is no problem: only the page dims.
    static func backlight(_ choice: String, root: String) -> (any Backlight, warning: String?) {
        switch choice {
        case "none":
            return (NullBacklight(reason: "The config's [display] backlight is \"none\"."), nil)
        case "auto":
            let found = !SysfsBacklight.present(root: root).isEmpty
            let (backlight, problem) = SysfsBacklight.openOrNull(root: root)
            return (backlight, found ? problem?.message : nil)
        default:
            let (backlight, problem) = SysfsBacklight.openOrNull(root: root, name: choice)
            return (backlight, problem?.message)
        }
    }
}
