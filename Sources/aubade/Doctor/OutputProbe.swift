import AubadeConfig
import AubadeCore
import AubadeHardware

// `doctor`'s outputs: each configured output line found, not held by another program, and requested as an
// output (driven inactive and released at once — what `aubade outputs off` does, so it never switches one on).
extension DoctorReport {
    struct OutputLine: Encodable {
        var output: String
        var line: String
        var activeLow: Bool
        var pattern: String
        /// "ok" (requested as an output and released), "in-use", "missing" or "cannot-drive".
        var status: String
        var chip: String?
        var offset: Int?
        var consumer: String?
        var reason: String?
    }

    /// Blocking briefly: opens the chips and requests each free line for a moment.
    static func probeOutputs(_ config: Configuration.Outputs, gpio: any GPIOPort, drive: Bool) -> [OutputLine] {
        config.requests().map { request in
            var line = OutputLine(
                output: request.output.rawValue, line: request.address.description, activeLow: request.activeLow,
                pattern: request.pattern.description, status: "missing")
            switch gpio.status(of: request.address) {
            case .missing(let reason):
                line.reason = reason
            case .found(let chip, let offset, let consumer):
                (line.chip, line.offset, line.consumer) = (chip, offset, consumer)
                if consumer != nil {
                    line.status = "in-use"
                } else if drive, let error = GPIOOutputs.driveInactive([request]).first?.1 {
                    (line.status, line.reason) = ("cannot-drive", error.message)
                } else {
                    line.status = "ok"
                }
            }
            return line
        }
    }

    /// `daemonRunning`: a line held by "aubade" is then the clock's own. Not a problem when an output cannot be
    /// driven — the sound still wakes — but a warning: a deaf sleeper relies on the shaker.
    func outputsCheck(daemonRunning: Bool) -> DoctorCheck {
        guard !outputs.isEmpty else { return .ok("outputs", "No output is configured ([outputs] lines are \"\").") }
        let ours = outputs.filter { $0.status == "ok" || ($0.status == "in-use" && daemonRunning && $0.consumer == "aubade") }
        let bad = outputs.filter { line in !ours.contains { $0.output == line.output } }
        let good = ours.map { "\($0.output) (\($0.line), \($0.pattern))" }.joined(separator: ", ")
        guard !bad.isEmpty else {
            return .ok("outputs", "\(ours.count == 1 ? "Output" : "Outputs") \(good) can be driven.")
        }
        let parts = bad.map { line -> String in
            switch line.status {
            case "in-use": "\(line.output) (\(line.line)) is held by \(line.consumer ?? "another program")"
            default: "\(line.output) (\(line.line)) cannot be driven: \(line.reason ?? line.status)"
            }
        }
        return .warning(
            "outputs", parts.joined(separator: "; ") + (good.isEmpty ? "." : "; \(good) can be driven."),
            fix:
                "Check the wiring and the [outputs] lines in the config (gpioinfo lists the lines and their holders); the clock's user needs the gpio group."
        )
    }

    func printOutputs() {
        if outputs.isEmpty {
            print("Outputs: none configured.")
            return
        }
        Output.table(
            ["OUTPUT", "LINE", "ACTIVE", "PATTERN", "STATUS"],
            outputs.map { o in
                let place = o.chip.map { " (\($0) \(o.offset.map(String.init) ?? ""))" } ?? ""
                let status =
                    switch o.status {
                    case "ok": "can be driven" + place
                    case "in-use": "in use by \(o.consumer ?? "?")" + place
                    case "missing": "missing: \(o.reason ?? "")"
                    default: "cannot be driven: \(o.reason ?? "")"
                    }
                return [o.output, o.line, o.activeLow ? "low" : "high", o.pattern, status]
            })
    }
}
