import ArgumentParser
import AubadeApp
import AubadeAudio
import AubadeConfig
import AubadeCore
import AubadeStore
import Foundation

/// Sends one command to the running clock; its refusal becomes the CLI's sentence and exit code.
func askDaemon(_ command: ClockCommand, context: CommandContext) throws -> ClockReply {
    let result: Result<ClockReply, ClockError>
    do throws(ControlClient.Failure) {
        result = try ControlClient.send(command, databasePath: context.databasePath)
    } catch {
        throw CLIError.failed(error.description)
    }
    switch result {
    case .success(let reply): return reply
    case .failure(let error): throw CLIError(error)
    }
}

/// `aubade sleep <duration> [--source ...]` / `aubade sleep cancel`: the sleep timer of the running clock.
/// It waits until the station is heard (or cannot be), so it never says "playing" about silence.
struct SleepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sleep", abstract: "Fall asleep to the radio: play for a while, fade out, stop (needs 'aubade run').")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "How long, e.g. 30m or 1h (default: the sleepDuration setting); or 'cancel'.")
    var duration: String?
    @Option(
        help:
            "tone, a saved station's name, podcast:<name> (going on where it stopped), or a stream URL (default: the first saved station)."
    )
    var source: String?
    @Option(
        name: .customLong("until-end-of"),
        help: "Play until this programme ends (its id), or 'now' for the one on air; on its station unless --source.")
    var untilEndOf: String?

    /// How long to wait for the first audio before saying the station cannot be heard yet.
    static let audibleWait: Duration = .seconds(20)

    func run() async throws {
        let context = try global.context(mode: .lenient)
        if duration == "cancel" {
            let reply = try askDaemon(.sleepCancel, context: context)
            return Output.say(reply.message ?? "OK.", json: context.json, fields: ["ok": .bool(true)])
        }
        let seconds = try duration.map { try DurationText.seconds(parsing: $0, field: "Sleep duration") }
        if let seconds, !(60...(12 * 3600)).contains(seconds) {
            throw CLIError.badInput("Sleep duration '\(duration!)' must be between 1m and 12h.")
        }
        var command = ClockCommand.sleep(seconds: seconds, source: source)
        if let untilEndOf {
            guard duration == nil else { throw CLIError.badInput("Give a duration or --until-end-of, not both.") }
            guard untilEndOf == "now" || Int64(untilEndOf) != nil else {
                throw CLIError.badInput("--until-end-of '\(untilEndOf)' is neither a programme's id nor 'now'.")
            }
            command = .sleepUntilEnd(programme: Int64(untilEndOf), source: source)
        }
        let exchange: ControlClient.Exchange
        do throws(ControlClient.Failure) {
            exchange = try ControlClient.open(
                ControlProtocol.Request(command, follow: true),
                databasePath: context.databasePath, timeout: Int(SleepCommand.audibleWait / .seconds(1)))
        } catch {
            throw CLIError.failed(error.description)
        }
        guard let first = exchange.next() else { throw CLIError.failed("The running clock did not answer.") }
        if let error = first.error { throw CLIError(error) }
        let message = first.reply?.message ?? "Sleep timer started."
        // Closing the connection leaves the timer running (only `play` and `ring` stop with their client).
        while let line = exchange.next(), let event = line.event {
            switch event {
            case .audible:
                return Output.say("\(message) Playing.", json: context.json, fields: ["ok": .bool(true), "playing": .bool(true)])
            case .stopped(_, .failed(let reason)), .stream(_, .failed(let reason)):
                throw CLIError.failed("The sleep timer cannot play: \(reason)")
            case .deviceFailed(let problem):
                throw CLIError.failed("The sleep timer cannot be heard: \(problem)")
            case .stream(_, .error(let reason)):
                throw CLIError.failed(
                    "\(message) Not playing yet: \(reason) The clock keeps trying; 'aubade sleep cancel' stops it.")
            default:
                continue
            }
        }
        throw CLIError.failed(
            "\(message) Nothing was heard within \(Int(SleepCommand.audibleWait / .seconds(1))) s; see 'aubade status'.")
    }
}

/// `aubade stop` / `aubade snooze`: the buttons, from a terminal.
struct StopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop the ringing alarm (needs 'aubade run').")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "An alarm id (also ends its snooze); default: the ringing alarm.") var id: Int64?

    func run() throws {
        let context = try global.context(mode: .lenient)
        if SecondWakerCLI.end(.stop(alarm: id, by: .cli), context: context) { return }
        let reply = try askDaemon(.stop(alarm: id, by: .cli), context: context)
        Output.say(reply.message ?? "Stopped.", json: context.json, fields: ["ok": .bool(true)])
    }
}

struct SnoozeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze", abstract: "Snooze the ringing alarm (needs 'aubade run').")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let context = try global.context(mode: .lenient)
        if SecondWakerCLI.end(.snooze(alarm: nil, by: .cli), context: context) { return }
        let reply = try askDaemon(.snooze(alarm: nil, by: .cli), context: context)
        Output.say(reply.message ?? "Snoozed.", json: context.json, fields: ["ok": .bool(true)])
    }
}

/// `aubade status`: what the running clock is doing; without a daemon, what the database says, plainly
/// marked as not running, and exit code 3 (documented: "the clock is not running").
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the next alarm, what is playing, warnings and the last morning's report.",
        discussion: "Exit codes: 0 the clock runs; 3 the clock is not running (nothing will ring); 1 a fault.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let context = try global.context(mode: .lenient)
        let result: Result<ClockReply, ClockError>
        do throws(ControlClient.Failure) {
            result = try ControlClient.send(.status, databasePath: context.databasePath)
        } catch {
            return try offline(context, error)
        }
        guard case .success(.status(let status)) = result else {
            throw CLIError.failed("The clock gave no status.")
        }
        if context.json {
            Output.json(StatusDocument(status))
        } else {
            print("The clock is running.")
            status.lines.forEach { print($0) }
        }
    }

    /// Without a daemon: the next alarm from the database and the warning that nothing will ring.
    private func offline(_ context: CommandContext, _ failure: ControlClient.Failure) throws {
        let (alarms, _, _) = try context.alarmsOrBackup()
        let zone = try context.defaultZone()
        let now = Date()
        let next = alarms.filter(\.enabled).compactMap { a in
            AlarmSchedule.next(of: a, after: now, defaultZone: zone).map { (a, $0.instant) }
        }.min { $0.1 < $1.1 }
        if context.json {
            var object: [String: JSONScalar] = ["running": .bool(false), "message": .string(failure.description)]
            if let next { object["next"] = .string("\(next.0.name) \(next.1.formatted(.iso8601))") }
            Output.json(object)
        } else {
            print("Warning: \(failure.description) No alarm will ring until it runs.")
            if let next {
                let f = DateFormatter()
                f.locale = Locale(identifier: "en_GB")
                f.timeZone = zone
                f.dateFormat = "EEE d MMM HH:mm"
                print("Next alarm: \(next.0.name) at \(f.string(from: next.1))")
            }
        }
        throw ExitCode(3)
    }
}
