import ArgumentParser
import AubadeApp
import AubadeCore
import AubadeStore
import Foundation

/// Sends one request to the running daemon and turns a refusal into the CLI's error sentence.
func askDaemon(_ request: ControlProtocol.Request, context: CommandContext) throws -> ControlProtocol.Reply {
    let reply: ControlProtocol.Reply
    do throws(ControlClient.Failure) {
        reply = try ControlClient.send(request, databasePath: context.databasePath)
    } catch {
        throw CLIError.failed(error.description)
    }
    return reply
}

/// `aubade sleep <duration> [--source ...]` / `aubade sleep cancel`: the sleep timer of the running clock.
struct SleepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sleep", abstract: "Fall asleep to the radio: play for a while, fade out, stop (needs 'aubade run').")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "How long, e.g. 30m or 1h (default: the sleepDuration setting); or 'cancel'.")
    var duration: String?
    @Option(help: "tone, a saved station's name, or a stream URL (default: the first saved station).")
    var source: String?

    func run() throws {
        let context = try global.context()
        let request: ControlProtocol.Request
        if duration == "cancel" {
            request = ControlProtocol.Request(command: "sleep-cancel")
        } else {
            let seconds = try duration.map { try DurationText.seconds(parsing: $0, field: "Sleep duration") }
            if let seconds, !(60...(12 * 3600)).contains(seconds) {
                throw CLIError.badInput("Sleep duration '\(duration!)' must be between 1m and 12h.")
            }
            request = ControlProtocol.Request(command: "sleep", seconds: seconds, source: source)
        }
        let reply = try askDaemon(request, context: context)
        guard reply.ok else { throw CLIError.badInput(reply.message ?? "The clock refused.") }
        Output.say(reply.message ?? "OK.", json: context.json, fields: ["ok": .bool(true)])
    }
}

/// `aubade stop` / `aubade snooze`: the buttons, from a terminal.
struct StopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop the ringing alarm (needs 'aubade run').")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "An alarm id (also ends its snooze); default: the ringing alarm.") var id: Int64?

    func run() throws {
        let context = try global.context()
        let reply = try askDaemon(ControlProtocol.Request(command: "stop", alarm: id), context: context)
        guard reply.ok else { throw CLIError.failed(reply.message ?? "Nothing was stopped.") }
        Output.say(reply.message ?? "Stopped.", json: context.json, fields: ["ok": .bool(true)])
    }
}

struct SnoozeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "snooze", abstract: "Snooze the ringing alarm (needs 'aubade run').")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let context = try global.context()
        let reply = try askDaemon(ControlProtocol.Request(command: "snooze"), context: context)
        guard reply.ok else { throw CLIError.failed(reply.message ?? "Nothing was snoozed.") }
        Output.say(reply.message ?? "Snoozed.", json: context.json, fields: ["ok": .bool(true)])
    }
}

/// `aubade status`: what the running clock is doing; without a daemon, what the database says, plainly
/// marked as not running.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the next alarm, what is playing, warnings and the last morning's report.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let context = try global.context()
        let reply: ControlProtocol.Reply
        do throws(ControlClient.Failure) {
            reply = try ControlClient.send(ControlProtocol.Request(command: "status"), databasePath: context.databasePath)
        } catch {
            return try offline(context, error)
        }
        do {
            guard let status = reply.status else { throw CLIError.failed(reply.message ?? "The clock gave no status.") }
            if context.json {
                let encoder = JSONEncoder()
                encoder.dateEncodingStrategy = .secondsSince1970
                encoder.outputFormatting = [.sortedKeys]
                var object = (try? JSONSerialization.jsonObject(with: encoder.encode(status))) as? [String: Any] ?? [:]
                object["running"] = true
                if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
                    print(String(decoding: data, as: UTF8.self))
                }
            } else {
                print("The clock is running.")
                status.lines.forEach { print($0) }
            }
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
            if let next { print("Next alarm: \(next.0.name) at \(next.1.formatted(date: .abbreviated, time: .shortened))") }
        }
        throw ExitCode(3)
    }
}
