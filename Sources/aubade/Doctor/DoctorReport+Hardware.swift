import AubadeConfig
import AubadeCore
import AubadeHardware
import Foundation

// The hardware and network part of `doctor` (what it had before the alarm checks): the config's problems, GPIO
// chips and the configured button lines, what each button's presses do, the shake sensor with a live reading
// and what a shake does, the default route and whether it is wireless. A missing part is a warning, never a
// problem: an alarm is still heard without buttons or a sensor (rule 8).
extension DoctorReport {
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

    /// The hardware details and an empty list of checks (`gather` adds them). Blocking: sysfs, libgpiod, and
    /// up to 1 s for an accelerometer's reading.
    static func gatherHardware(
        _ context: CommandContext, settings: AppSettings?, gpio: any GPIOPort,
        network: any NetworkStatus
    ) -> DoctorReport {
        let config = context.configuration
        let requests = config.buttons.lineRequests()
        let buttons = ButtonRole.allCases.compactMap { role in
            requests[role].map { line($0, role: role.rawValue, gpio: gpio) }
        }
        let mapping = ButtonRole.allCases.map { role in
            Mapping(
                role: role.rawValue, short: config.buttons.mapping.action(for: role, .short).name,
                long: config.buttons.mapping.action(for: role, .long).name)
        }
        let loaded = context.loaded
        let configReport = Config(
            path: loaded.path,
            problems: loaded.problems.map {
                Config.Problem(key: $0.key, line: $0.line, message: $0.message)
            }, unknownKeys: loaded.warnings)
        let snapshot = network.current()
        var report = DoctorReport(
            checks: [], heard: nil, next: nil,
            daemon: Daemon(running: false, socket: "", status: nil), config: configReport,
            libgpiod: GPIOLibrary.version, chips: gpio.chips(), buttons: buttons, mapping: mapping,
            shake: shake(config.shake, gpio: gpio), network: self.network(snapshot, settings: settings))
        report.networkSnapshot = snapshot
        return report
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
        let response = Response(
            shakeToStopAlarm: shake.response.whenShakeToStop.rawValue,
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

    static func network(_ snapshot: NetworkSnapshot, settings: AppSettings?) -> Network {
        var out = Network(
            routes: snapshot.routes.map {
                Route(
                    family: $0.family.rawValue, interface: $0.interface, metric: $0.metric, wireless: $0.isWireless,
                    operstate: $0.operState)
            }, problems: snapshot.problems)
        // Only when the database could be read (doctor never creates one).
        if let settings {
            out.wifiOnly = settings.isWifi
            switch NetworkPolicy.streaming(wifiOnly: settings.isWifi, network: snapshot) {
            case .allow: out.streaming = "allowed"
            case .refuse(let reason): out.streaming = reason
            }
        }
        return out
    }

}
