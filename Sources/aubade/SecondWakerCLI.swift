import AubadeApp
import AubadeCore
import AubadeWakerFiles

/// `aubade stop` and `aubade snooze` while the second waker rings (R35): its ring ends first (a signal to
/// that process), then the daemon is told too — briefly, since it may be the part that failed (frozen, it
/// would never answer). The waker's ring ends whatever the daemon says.
enum SecondWakerCLI {
    /// True when the waker's ring was ended and the user told so.
    static func end(_ command: ClockCommand, context: CommandContext) -> Bool {
        let (snooze, alarm): (Bool, Int64?) =
            switch command {
            case .snooze(let id, _): (true, id)
            case .stop(let id, _): (false, id)
            default: (false, nil)
            }
        guard SecondWaker.interrupt(databasePath: context.databasePath, snooze: snooze, alarm: alarm) else { return false }
        var message = snooze ? "The second waker's ring was snoozed." : "The second waker's ring was stopped."
        if case .success(let reply)? = try? ControlClient.send(command, databasePath: context.databasePath, timeout: 3),
            let said = reply.message
        {
            message += " The clock: \(said)"
        }
        Output.say(message, json: context.json, fields: ["ok": .bool(true), "waker": .bool(true)])
        return true
    }
}
