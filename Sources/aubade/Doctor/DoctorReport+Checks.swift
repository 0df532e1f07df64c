import AubadeApp
import AubadeCore
import Foundation

// The check lines made from the hardware details. None of these is a problem: without buttons, a shake sensor
// or a network, an alarm is still heard (the tone plays, auto-silence ends it, the kiosk and CLI stop it).
extension DoctorReport {
    func configCheck() -> DoctorCheck {
        guard let path = config.path else { return .ok("config", "No config file; the built-in defaults are used.") }
        let count = config.problems.count + config.unknownKeys.count
        guard count > 0 else { return .ok("config", "\(path): every key known, every value usable.") }
        return .warning(
            "config",
            "\(path) has \(count) problem\(count == 1 ? "" : "s") (listed below); the clock runs with the defaults they name (R36).",
            fix: "Correct them (aubade run --check-config lists them), then restart the clock: sudo systemctl restart aubade.")
    }

    /// `daemonRunning`: a line held by "aubade" is then the clock's own, not another program's.
    func buttonsCheck(daemonRunning: Bool) -> DoctorCheck {
        guard !buttons.isEmpty else { return .ok("buttons", "No buttons are configured ([buttons] lines are \"\").") }
        let wiring =
            "Check the wiring and the [buttons] lines in the config (hardware/README.md has the pin table; gpioinfo lists the lines)."
        if chips.isEmpty {
            return .warning(
                "buttons",
                "There is no GPIO chip on this machine (no /dev/gpiochip* this user can see), so the \(buttons.count) configured buttons are off.",
                fix:
                    "On a Pi, the clock's user needs the gpio group (the package's 60-aubade.rules gives it the chips); elsewhere set the [buttons] lines to \"\"."
            )
        }
        let ours = buttons.filter { $0.status == "found" || ($0.status == "in-use" && daemonRunning && $0.consumer == "aubade") }
        let held = buttons.filter { $0.status == "in-use" && !ours.map(\.role).contains($0.role) }
        let absent = buttons.filter { $0.status != "found" && $0.status != "in-use" }
        let found = ours.map { "\($0.role) (\($0.line))" }.joined(separator: ", ")
        if absent.isEmpty && held.isEmpty {
            let by = daemonRunning && ours.contains { $0.status == "in-use" } ? ", held by the running clock" : ""
            return .ok("buttons", "\(ours.count) button\(ours.count == 1 ? "" : "s") found: \(found)\(by).")
        }
        var parts: [String] = []
        if !absent.isEmpty { parts.append("not found: " + absent.map { "\($0.role) (\($0.line))" }.joined(separator: ", ")) }
        if !held.isEmpty {
            parts.append(
                "held by another program: "
                    + held.map { "\($0.role) (\($0.line), by \($0.consumer ?? "?"))" }.joined(separator: ", "))
        }
        if !found.isEmpty { parts.append("found: \(found)") }
        let fix = held.isEmpty ? wiring : "Stop the program holding the line (gpioinfo names it); " + wiring
        return .warning("buttons", "Buttons " + parts.joined(separator: "; ") + ".", fix: fix)
    }

    /// `alarms`: a shake-to-stop alarm with no working sensor is worth saying (the buttons still stop it).
    func shakeCheck(alarms: [Alarm], daemonRunning: Bool) -> DoctorCheck {
        let shaken = alarms.filter { $0.enabled && $0.shakeToStop }.map(\.name)
        let fix = "Check the sensor's wiring and [shake] in the config (hardware/README.md: MPU-6050, ADXL345, SW-420)."
        if shake.source == "none" {
            if shaken.isEmpty { return .ok("shake", "Shake to stop is off ([shake] source = \"none\").") }
            return .warning(
                "shake",
                "Alarm\(shaken.count == 1 ? "" : "s") \(shaken.joined(separator: ", ")) \(shaken.count == 1 ? "has" : "have") shake-to-stop on, but [shake] source is \"none\": a button, the kiosk or the CLI must stop \(shaken.count == 1 ? "it" : "them").",
                fix: "Fit a sensor and set [shake] source, or turn shake-to-stop off: aubade alarm edit ID --no-shake.")
        }
        if let line = shake.line {
            let ours = line.status == "in-use" && daemonRunning && line.consumer == "aubade"
            if line.status == "found" || ours {
                return .ok(
                    "shake", "\(shake.sensor ?? "The vibration switch") found\(ours ? ", held by the running clock" : "").")
            }
            return .warning(
                "shake",
                "\(shake.sensor ?? "The vibration switch"): \(line.status == "in-use" ? "held by \(line.consumer ?? "another program")" : "not found (\(line.reason ?? ""))").",
                fix: fix)
        }
        if let r = shake.reading {
            return .ok("shake", "\(shake.sensor ?? "The accelerometer") reads |a| \(String(format: "%.2f", r.magnitude)) m/s².")
        }
        return .warning(
            "shake", "\(shake.sensor.map { "\($0): " } ?? "")shake to stop is off: \(shake.problem ?? "no reading").",
            fix: fix)
    }

    func networkCheck() -> DoctorCheck {
        let policy =
            network.wifiOnly.map { on in
                on ? (network.streaming == "allowed" ? " Wi-Fi-only is on and allows streaming." : "") : " Wi-Fi-only is off."
            } ?? ""
        guard let route = network.routes.first else {
            let problems = network.problems.isEmpty ? "" : " (\(network.problems.joined(separator: " ")))"
            return .warning(
                "network", "There is no default route\(problems): stations cannot be reached, so station alarms ring the tone.",
                fix: "Connect the network (nmcli, or raspi-config's Wi-Fi settings), or use tone alarms.")
        }
        let kind = route.wireless ? "wireless" : "not wireless"
        let via =
            "Default route via \(route.interface) (\(kind), \(route.operstate.isEmpty ? "state unknown" : route.operstate))."
        if let streaming = network.streaming, streaming != "allowed" {
            return .warning(
                "network", "\(via) Wi-Fi-only is on and refuses streaming: \(streaming)",
                fix: "Connect over Wi-Fi, or turn Wi-Fi-only off: aubade settings set isWifi false.")
        }
        return .ok("network", via + policy)
    }
}

extension DoctorReport {
    /// The second waker (R35). Without it an alarm is still rung by the clock, so its absence is a warning only
    /// while an alarm is set.
    static func wakerCheck(_ waker: DaemonStatus.Waker, alarmsSet: Bool) -> DoctorCheck {
        let line = waker.line(zone: .current)
        guard waker.running else {
            guard alarmsSet else { return .ok("waker", "The second waker is not running; no alarm is set.") }
            return .warning(
                "waker", "The second waker is not running, so nothing rings if the clock itself fails.",
                fix: "Start it: sudo systemctl enable --now aubade-waker.")
        }
        if waker.problem != nil {
            return .warning("waker", line, fix: "See its log (journalctl -u aubade-waker -n 50).")
        }
        return .ok("waker", line)
    }
}
