import AubadeCore
import AubadeHardware
import Foundation

// The text form of `doctor`: one line per check, then the details.
extension DoctorReport {
    func printText() {
        for check in checks { print(check.line) }
        print("")
        print("Details")
        print("")
        printConfig()
        print("")
        print("libgpiod: \(libgpiod)")
        print("")
        if chips.isEmpty {
            print("GPIO chips: none on this machine (no /dev/gpiochip*), so the buttons are off.")
        } else {
            Output.table(
                ["CHIP", "LABEL", "LINES", "PROBLEM"],
                chips.map {
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
        print(
            "Shake response: \(Self.verb(shake.response.shakeToStopAlarm)) an alarm with shake-to-stop on; "
                + "\(Self.verb(shake.response.otherAlarm)) any other.")
        print("")
        printOutputs()
        print("")
        printNetwork()
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
            print(
                "Network: \(route.family) default route via \(route.interface) (metric \(route.metric)), \(kind), state \(route.operstate.isEmpty ? "unknown" : route.operstate)"
            )
        }
        for problem in network.problems { print("Network: \(problem)") }
        if let wifiOnly = network.wifiOnly, let streaming = network.streaming {
            print(
                "Wi-Fi-only: \(wifiOnly ? "on" : "off"); streaming \(streaming == "allowed" ? "is allowed" : "is refused: \(streaming)")"
            )
        }
    }
}
