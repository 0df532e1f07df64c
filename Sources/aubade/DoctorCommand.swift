import ArgumentParser
import AubadeApp
import AubadeConfig
import AubadeCore
import AubadeHardware
import AubadeStore
import Foundation

/// `aubade doctor` (first part): what the clock's hardware and network look like from here — the config's
/// problems, GPIO chips and the configured button lines, what each button's presses do, the shake sensor with
/// a live reading and what a shake does, the default route and whether it is wireless, and libgpiod's version.
/// A missing part is reported, not an error. The config is read leniently, as the daemon reads it, so the
/// report shows what the clock would run with; every problem in it and every unknown key is listed, and then
/// the exit code is 2 (R36) — otherwise 0.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor", abstract: "Check the buttons, the shake sensor and the network this clock uses.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let context = try global.context(quiet: true, mode: .lenient)
        let report = DoctorReport.gather(context, gpio: LibGPIOD(), network: SysfsNetworkStatus())
        if context.json {
            Output.json(report)
        } else {
            report.printText()
        }
        let loaded = context.loaded
        guard loaded.isClean else {
            let count = loaded.problems.count + loaded.warnings.count
            throw CLIError.badInput("Config file \(loaded.path ?? "") has \(count) problem\(count == 1 ? "" : "s") "
                                    + "(listed in the report); aubade run starts with the defaults they name.")
        }
    }
}

/// Everything `doctor` found, as printed in JSON.
struct DoctorReport: Encodable {
    struct Line: Encodable {
        var role: String
        var line: String
        /// "found", "in-use" or "missing".
        var status: String
        var chip: String?
        var offset: Int?
        var consumer: String?
        var reason: String?
    }

    /// What a button's presses do, as the config file names the actions.
    struct Mapping: Encodable {
        var role: String
        var short: String
        var long: String
    }

    struct Reading: Encodable {
        var x: Double, y: Double, z: Double, magnitude: Double
    }

    /// What a shake does to the ringing alarm.
    struct Response: Encodable {
        var shakeToStopAlarm: String
        var otherAlarm: String
    }

    struct Shake: Encodable {
        var source: String
        var response: Response
        var sensor: String?
        var reading: Reading?
        var line: Line?
        var problem: String?
    }

    struct Route: Encodable {
        var family: String, interface: String, metric: Int, wireless: Bool, operstate: String
    }

    struct Network: Encodable {
        var routes: [Route]
        var problems: [String]
        /// Present when the database could be read: whether Wi-Fi-only mode allows streaming now.
        var wifiOnly: Bool?
        var streaming: String?
    }

    /// The config file read, what in it could not be used (each with the default used instead) and its
    /// unknown keys.
    struct Config: Encodable {
        struct Problem: Encodable {
            /// The dotted key; absent when the whole file could not be used.
            var key: String?
            var line: Int?
            var message: String
        }

        var path: String?
        var problems: [Problem]
        var unknownKeys: [String]
    }

    var config: Config
    var libgpiod: String
    var chips: [GPIOChipInfo]
    var buttons: [Line]
    /// Every button's effective actions, wired or not: a long press with no entry of its own shows the short one.
    var mapping: [Mapping]
    var shake: Shake
    var network: Network
    /// The second waker (R35): running or not, and the ring it is armed for.
    var waker: DaemonStatus.Waker

    static func gather(_ context: CommandContext, gpio: any GPIOPort, network: any NetworkStatus) -> DoctorReport {
        let config = context.configuration
        let requests = config.buttons.lineRequests()
        let buttons = ButtonRole.allCases.compactMap { role in
            requests[role].map { line($0, role: role.rawValue, gpio: gpio) }
        }
        let mapping = ButtonRole.allCases.map { role in
            Mapping(role: role.rawValue, short: config.buttons.mapping.action(for: role, .short).name,
                    long: config.buttons.mapping.action(for: role, .long).name)
        }
        let loaded = context.loaded
        let configReport = Config(path: loaded.path, problems: loaded.problems.map {
            Config.Problem(key: $0.key, line: $0.line, message: $0.message)
        }, unknownKeys: loaded.warnings)
        return DoctorReport(config: configReport, libgpiod: GPIOLibrary.version, chips: gpio.chips(), buttons: buttons, mapping: mapping,
                            shake: shake(config.shake, gpio: gpio),
                            network: self.network(network.current(), context: context),
                            waker: SecondWaker.status(databasePath: context.databasePath))
    }

    static func line(_ request: GPIOLineRequest, role: String, gpio: any GPIOPort) -> Line {
        var line = Line(role: role, line: request.address.description, status: "missing")
        switch gpio.status(of: request.address) {
        case .found(let chip, let offset, let consumer):
            (line.status, line.chip, line.offset, line.consumer) = (consumer == nil ? "found" : "in-use", chip, offset, consumer)
        case .missing(let reason):
            line.reason = reason
        }
        return line
    }

    static func shake(_ shake: Configuration.Shake, gpio: any GPIOPort) -> Shake {
        let response = Response(shakeToStopAlarm: shake.response.whenShakeToStop.rawValue,
                                otherAlarm: shake.response.otherwise.rawValue)
        var out = Shake(source: shake.source, response: response)
        if let request = shake.vibrationSwitchLine() {
            out.sensor = "vibration switch on GPIO line \(request.address)"
            out.line = line(request, role: "shake", gpio: gpio)
            return out
        }
        switch shake.accelerometer() {
        case .notConfigured:
            return out
        case .missing(let problem):
            out.problem = problem
        case .found(let sensor):
            out.sensor = sensor.description
            switch sensor.readOnce(timeout: .seconds(1)) {
            case .sample(let s): out.reading = Reading(x: s.x, y: s.y, z: s.z, magnitude: s.magnitude)
            case .failed(_, let reason): out.problem = reason
            }
        }
        return out
    }

    static func network(_ snapshot: NetworkSnapshot, context: CommandContext) -> Network {
        var out = Network(routes: snapshot.routes.map {
            Route(family: $0.family.rawValue, interface: $0.interface, metric: $0.metric, wireless: $0.isWireless,
                  operstate: $0.operState)
        }, problems: snapshot.problems)
        // Only an existing database is read: doctor must not create one.
        if FileManager.default.fileExists(atPath: context.databasePath),
           let settings = try? context.openStoreForReading().settings() {
            out.wifiOnly = settings.isWifi
            switch NetworkPolicy.streaming(wifiOnly: settings.isWifi, network: snapshot) {
            case .allow: out.streaming = "allowed"
            case .refuse(let reason): out.streaming = reason
            }
        }
        return out
    }

    func printText() {
        printConfig()
        print("")
        print("libgpiod: \(libgpiod)")
        print("")
        if chips.isEmpty {
            print("GPIO chips: none on this machine (no /dev/gpiochip*), so the buttons are off.")
        } else {
            Output.table(["CHIP", "LABEL", "LINES", "PROBLEM"], chips.map {
                [$0.name, $0.label, String($0.lineCount), $0.problem ?? ""]
            })
        }
        print("")
        if buttons.isEmpty {
            print("Buttons: none configured.")
        } else {
            Output.table(["BUTTON", "LINE", "STATUS"], buttons.map { [$0.role, $0.line, Self.statusText($0)] })
        }
        print("")
        Output.table(["BUTTON", "SHORT PRESS", "LONG PRESS"], mapping.map { [$0.role, $0.short, $0.long] })
        print("")
        printShake()
        print("Shake response: \(Self.verb(shake.response.shakeToStopAlarm)) an alarm with shake-to-stop on; "
              + "\(Self.verb(shake.response.otherAlarm)) any other.")
        print("")
        printNetwork()
        print("")
        print(waker.line(zone: .current))
    }

    private static func statusText(_ line: Line) -> String {
        switch line.status {
        case "found": "found (\(line.chip ?? "") \(line.offset.map(String.init) ?? ""))"
        case "in-use": "in use by \(line.consumer ?? "?") (\(line.chip ?? "") \(line.offset.map(String.init) ?? ""))"
        default: "missing: \(line.reason ?? "")"
        }
    }

    /// "stop" → "stops", "snooze" → "snoozes", "none" → "does nothing to".
    private static func verb(_ action: String) -> String {
        action == ShakeResponse.Action.none.rawValue ? "does nothing to" : action + "s"
    }

    private func printShake() {
        guard shake.source != "none" else { return print("Shake: off ([shake] source = \"none\").") }
        if let line = shake.line {
            return print("Shake: \(shake.sensor ?? "") — \(Self.statusText(line))")
        }
        if let r = shake.reading {
            let f = { (v: Double) in String(format: "%.2f", v) }
            print("Shake: \(shake.sensor ?? "") — x \(f(r.x)), y \(f(r.y)), z \(f(r.z)) m/s², |a| \(f(r.magnitude)) m/s²")
        } else {
            print("Shake: \(shake.sensor.map { "\($0) — " } ?? "")not usable: \(shake.problem ?? "no reading")")
        }
    }

    private func printConfig() {
        guard let path = config.path else { return print("Config: none; the built-in defaults are used.") }
        let lines = config.problems.map(\.message) + config.unknownKeys
        guard !lines.isEmpty else { return print("Config: \(path) (every key known, every value usable)") }
        print("Config: \(path) — \(lines.count) problem\(lines.count == 1 ? "" : "s"):")
        for line in lines { print("  \(line)") }
    }

    private func printNetwork() {
        if network.routes.isEmpty { print("Network: no default route.") }
        for route in network.routes {
            let kind = route.wireless ? "wireless" : "not wireless"
            print("Network: \(route.family) default route via \(route.interface) (metric \(route.metric)), \(kind), state \(route.operstate.isEmpty ? "unknown" : route.operstate)")
        }
        for problem in network.problems { print("Network: \(problem)") }
        if let wifiOnly = network.wifiOnly, let streaming = network.streaming {
            print("Wi-Fi-only: \(wifiOnly ? "on" : "off"); streaming \(streaming == "allowed" ? "is allowed" : "is refused: \(streaming)")")
        }
    }
}
