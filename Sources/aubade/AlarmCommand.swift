import ArgumentParser
import AubadeCore
import AubadeStore
import Foundation

struct AlarmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alarm", abstract: "List, add, change and remove alarms.",
        subcommands: [AlarmList.self, AlarmNext.self, AlarmAdd.self, AlarmEdit.self, AlarmRemove.self, AlarmEnable.self,
                      AlarmDisable.self, AlarmSkipNext.self])
}

struct AlarmList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Show every alarm.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try AlarmList.show(try global.context())
    }

    /// Prints every alarm; when the database is unreadable, the backup copy's alarms and a warning,
    /// then exits 1 (R27: never a silently empty list).
    static func show(_ context: CommandContext) throws {
        let (alarms, names, fault) = try context.alarmsOrBackup()
        print(alarms, names, json: context.json)
        if fault != nil { throw ExitCode(1) }
    }

    static func print(_ alarms: [Alarm], _ names: [Int64: String], json: Bool) {
        if json {
            Output.json(["alarms": alarms.map { AlarmDocument($0, stationNames: names) }])
            return
        }
        guard !alarms.isEmpty else {
            Swift.print("No alarms. Add one with: aubade alarm add --name Work --time 06:45 --days mon-fri")
            return
        }
        Output.table(["ID", "NAME", "TIME", "DAYS", "SOUND", "DURATION", "SHAKE", "ENABLED"], alarms.map { a in
            [a.id.map(String.init) ?? "-", a.name, a.time.description, a.recurrence.summary
                + (a.skipDate.map { " (skip \($0))" } ?? ""),
             AlarmDocument.soundName(a.sound, names), DurationText.format(a.durationSeconds),
             a.shakeToStop ? "yes" : "no", a.enabled ? "yes" : "no"]
        })
    }
}

struct AlarmRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete an alarm.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The alarm's id (see 'aubade alarm list').") var id: Int64

    func run() throws {
        let alarm = try global.context().openStoreForWriting().deleteAlarm(id: id)
        if global.json {
            Output.json(["deleted": id])
        } else {
            print("Deleted alarm \(id) (\(alarm.name)).")
        }
    }
}

struct AlarmEnable: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: "Turn an alarm on.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The alarm's id.") var id: Int64

    func run() throws { try setEnabled(true, id: id, global: global) }
}

struct AlarmDisable: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "disable", abstract: "Turn an alarm off.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The alarm's id.") var id: Int64

    func run() throws { try setEnabled(false, id: id, global: global) }
}

/// `alarm skip-next <id> [--undo]`: the next occurrence passes silently (a day off), the ones after ring.
struct AlarmSkipNext: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "skip-next", abstract: "Skip the alarm's next occurrence only.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The alarm's id.") var id: Int64
    @Flag(help: "Ring the next occurrence after all.") var undo = false

    func run() throws {
        let context = try global.context()
        let clockZone = undo ? nil : try context.defaultZone()
        let store = try context.openStoreForWriting()
        let now = Date()
        // Decided from the alarm and its last handled occurrence as stored under the write lock (R26).
        let alarm = try store.updateAlarm(id: id) { [id, undo] alarm, state throws(AubadeCore.ValidationError) in
            guard !undo, let clockZone else {
                alarm.skipDate = nil
                return
            }
            guard alarm.enabled else { throw AubadeCore.ValidationError("Alarm \(id) is disabled; there is no next occurrence to skip.") }
            let zone = try alarm.timeZoneID.map { z throws(AubadeCore.ValidationError) in try Alarm.validTimeZone(z) } ?? clockZone
            guard let date = AlarmSchedule.skipNextDate(of: alarm, after: now, lastHandled: state?.lastHandledOccurrence,
                                                        defaultZone: zone) else {
                throw AubadeCore.ValidationError("Alarm \(id) has no next occurrence to skip.")
            }
            alarm.skipDate = date
        }
        if context.json {
            Output.json(AlarmDocument(alarm, stationNames: AlarmDocument.stationNames(try store.stations())))
        } else if let date = alarm.skipDate {
            print("Alarm \(id) (\(alarm.name)) will not ring on \(date); it rings again after that.")
        } else {
            print("Alarm \(id) (\(alarm.name)) rings at its next occurrence again.")
        }
    }
}

private func setEnabled(_ on: Bool, id: Int64, global: GlobalOptions) throws {
    let store = try global.context().openStoreForWriting()
    let alarm = try store.updateAlarm(id: id) { alarm, _ in alarm.enabled = on }
    if global.json {
        Output.json(AlarmDocument(alarm, stationNames: AlarmDocument.stationNames(try store.stations())))
    } else {
        print("Alarm \(id) (\(alarm.name)) is \(on ? "enabled" : "disabled").")
    }
}
