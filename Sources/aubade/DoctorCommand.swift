import ArgumentParser
import AubadeConfig
import Foundation

/// `aubade doctor`: everything an alarm needs, one line per check — `ok`, `warning` or `problem` and, unless
/// it is ok, the sentence that says how to fix it — then the details (config problems, GPIO chips and lines,
/// what each button does, the shake sensor with a live reading, the routes). `--json` gives the same as one
/// document; `--play` also plays the built-in tone for 3 s.
///
/// It reads what the daemon reads: the same config (leniently, R36), the database (read-only, never created:
/// R29), and asks a running clock for its status through the control socket rather than working it out again.
/// The sound device is opened only when no clock holds it. Exit codes: 1 when an alarm would not be heard (any
/// `problem`), else 2 when the config has problems (R36), else 0.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor", abstract: "Check everything an alarm needs, and say how to fix each problem.",
        discussion:
            "Exit codes: 0 every alarm would be heard; 1 an alarm would not be heard (a line says problem); 2 the config has problems."
    )
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Also play the built-in tone for 3 s (through the running clock when there is one).") var play = false
    @Option(
        name: .customLong("backlight-root"),
        help: ArgumentHelp(
            "Look for the screen's backlight under this folder's sys/class/backlight instead of /sys (a fake sysfs tree, for tests).",
            visibility: .hidden))
    var backlightRoot: String?
    @Option(
        name: .customLong("proc-root"),
        help: ArgumentHelp(
            "Look for the running clock face and the machine's memory under this folder instead of /proc (a fake tree, for tests).",
            visibility: .hidden))
    var procRoot: String?

    func run() async throws {
        let context = try global.context(quiet: true, mode: .lenient)
        let report = await DoctorReport.gather(
            context, play: play, backlightRoot: backlightRoot ?? "", procRoot: procRoot ?? "/proc")
        if context.json {
            Output.json(report)
        } else {
            report.printText()
        }
        if let problem = report.checks.first(where: { $0.status == .problem }) {
            throw CLIError.failed("An alarm would not be heard (\(problem.check)): \(problem.message)")
        }
        let loaded = context.loaded
        guard loaded.isClean else {
            let count = loaded.problems.count + loaded.warnings.count
            throw CLIError.badInput(
                "Config file \(loaded.path ?? "") has \(count) problem\(count == 1 ? "" : "s") "
                    + "(listed in the report); aubade run starts with the defaults they name.")
        }
    }
}
