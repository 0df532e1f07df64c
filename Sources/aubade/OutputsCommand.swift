import ArgumentParser
import AubadeApp
import AubadeConfig
import AubadeCore
import AubadeHardware
import Foundation
import Logging

/// `aubade outputs off | test <name>`: the GPIO outputs of `[outputs]` (a bed shaker, a lamp) by hand.
struct OutputsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outputs", abstract: "Switch the GPIO outputs (shaker, lamp) off, or try one.",
        subcommands: [OutputsOff.self, OutputsTest.self])
}

/// `aubade outputs off`: drives every configured output to its inactive level and releases it. The clock's
/// systemd unit runs it after the daemon ends in any way (`ExecStopPost=`): a daemon that was killed while a
/// shaker buzzed could not do it itself, and a Raspberry Pi's pin keeps its last level once released. Reads
/// the config leniently (R36: a bad key elsewhere never keeps a shaker on). Exit 1 when an output could not be
/// driven (a line another program holds: the running daemon, or a frozen one).
struct OutputsOff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "off", abstract: "Drive every configured output inactive and release it (the unit runs it after any exit).")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let context = try global.context(quiet: true, mode: .lenient)
        let requests = context.configuration.outputs.requests()
        guard !requests.isEmpty else {
            Output.say("No output is configured ([outputs] lines are \"\").", json: context.json, fields: ["outputs": .int(0)])
            return
        }
        var failed: [String] = []
        for (request, error) in GPIOOutputs.driveInactive(requests) {
            if let error {
                failed.append(error.message)
                Output.say(
                    error.message, json: context.json,
                    fields: ["output": .string(request.output.rawValue), "inactive": .bool(false)])
            } else {
                Output.say(
                    "Output \(request.name) is inactive (\(request.activeLow ? "high, active-low" : "low")) and released.",
                    json: context.json, fields: ["output": .string(request.output.rawValue), "inactive": .bool(true)])
            }
        }
        if !failed.isEmpty {
            throw CLIError.failed("\(failed.count) of \(requests.count) outputs could not be driven inactive.")
        }
    }
}

/// `aubade outputs test <shaker|lamp> [--for 10s]`: drives one output with its pattern, then inactive — to check
/// the wiring. Ends at `--for`, on Ctrl-C or SIGTERM (the line then goes inactive and is released).
struct OutputsTest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test", abstract: "Drive one output with its pattern for a while, then inactive.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The output: shaker or lamp.") var name: String
    @Option(name: .customLong("for"), help: "How long, e.g. 10s (default 10s; 1s to 10m).") var length = "10s"

    func run() async throws {
        let context = try global.context()
        guard let output = OutputName(rawValue: name.lowercased()) else {
            throw CLIError.badInput("'\(name)' is not an output; the outputs are shaker and lamp.")
        }
        let seconds = try DurationText.seconds(parsing: length, field: "Test length")
        guard (1...600).contains(seconds) else { throw CLIError.badInput("Test length '\(length)' must be between 1s and 10m.") }
        guard let request = context.configuration.outputs.requests().first(where: { $0.output == output }) else {
            throw CLIError.badInput("The \(output) has no line: set [outputs.\(output)] line in the config.")
        }
        var logger = Logger(label: "aubade.outputs")
        logger.logLevel = .critical
        let outputs = await GPIOOutputs.open([request], logger: logger)
        if let problem = outputs.problems[output] { throw CLIError.failed(problem) }
        let (stop, finish) = AsyncStream<Void>.makeStream()
        let signals = StopOnSignals { finish.finish() }
        defer { signals.cancel() }
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            finish.finish()
        }
        outputs.set(output, on: true)
        Output.say(
            "Output \(request.name) is on (\(request.pattern)) for \(DurationText.format(seconds)).", json: context.json,
            fields: ["event": .string("on"), "output": .string(output.rawValue), "pattern": .string(request.pattern.description)])
        for await _ in stop {}
        timer.cancel()
        await outputs.shutdown()
        Output.say(
            "Output \(request.name) is inactive and released.", json: context.json,
            fields: ["event": .string("off"), "output": .string(output.rawValue)])
    }
}
