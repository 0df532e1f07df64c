import ArgumentParser
import AubadeApp
import AubadeCore
import AubadeStore
import Foundation

struct AlarmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alarm", abstract: "List, add, change and remove alarms.",
        subcommands: [
            AlarmList.self, AlarmNext.self, AlarmAdd.self, AlarmEdit.self, AlarmRemove.self, AlarmEnable.self,
            AlarmDisable.self, AlarmSkipNext.self,
        ])
}

struct AlarmList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Show every alarm.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try AlarmList.show(try global.context())
    }

    /// Prints every alarm; when the database is unreadable, the backup copy's alarms and a warning,
    /// then exits 1 (R27: never a silently empty list).
    /// Each alarm's next ring and the programme on air then come from the running clock when one runs (its
    /// time, its days off: the same bytes as `GET /alarms`), else from the file at this machine's time.
    static func show(_ context: CommandContext) throws {
        let schedule = try context.scheduleOrBackup()
        if schedule.fault == nil,
            case .success(.answer(.alarms(let fromClock)))? =
                try? ControlClient.send(.query(.alarms), databasePath: context.databasePath)
        {
            print(schedule.alarms, fromClock.alarms, schedule.stationNames, json: context.json)
            return
        }
        let zone = try context.defaultZone()
        let guide = ProgrammeGuide(programmes: schedule.programmes, zone: zone)
        let daysOff = DaysOff(schedule.daysOff)
        let now = Date()
        let docs = schedule.alarms.map { a in
            AlarmDocument(
                a, stationNames: schedule.stationNames,
                next: a.enabled
                    ? AlarmSchedule.next(
                        of: a, after: now, defaultZone: zone, honouringSkip: true, daysOff: daysOff)?.instant : nil, guide: guide)
        }
        print(schedule.alarms, docs, schedule.stationNames, json: context.json)
        if schedule.fault != nil { throw ExitCode(1) }
    }

    /// Prints `docs` (as given, for JSON); the text table shows `alarms` with each one's document by id.
    static func print(_ alarms: [Alarm], _ docs: [AlarmDocument], _ names: [Int64: String], json: Bool) {
        if json {
            Output.json(AubadeApp.AlarmList(docs))
            return
        }
        let byID = Dictionary(docs.compactMap { d in d.id.map { ($0, d) } }, uniquingKeysWith: { a, _ in a })
        guard !alarms.isEmpty else {
            Swift.print("No alarms. Add one with: aubade alarm add --name Work --time 06:45 --days mon-fri")
            return
        }
        Output.table(
            ["ID", "NAME", "TIME", "DAYS", "SOUND", "DURATION", "SHAKE", "ENABLED", "PROGRAMME"],
            alarms.map { a in
                [
                    a.id.map(String.init) ?? "-", a.name, a.time.description,
                    a.recurrence.summary
                        + (a.skipDate.map { " (skip \($0))" } ?? "")
                        + (a.skipDaysOff && a.recurrence.onceDate == nil ? ", not on days off" : ""),
                    AlarmDocument.soundName(a.sound, names) + (a.soundAfter.map { " (after \(SoundAfter.text($0)))" } ?? ""),
                    DurationText.format(a.durationSeconds),
                    a.shakeToStop ? "yes" : "no", a.enabled ? "yes" : "no", programmeColumn(a, a.id.flatMap { byID[$0] }),
                ]
            })
    }

    /// "follows Jazz (12)", "follows Jazz (12), gone", or the programme on air at the next ring, or "-".
    static func programmeColumn(_ a: Alarm, _ doc: AlarmDocument?) -> String {
        if let tie = a.programme { return "follows \(tie.name) (\(tie.id))" + (tie.gone ? ", gone: last known time" : "") }
        return doc?.onAir.map { "on air: \($0)" } ?? "-"
    }
}

struct AlarmRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete an alarm.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The alarm's id (see 'aubade alarm list').") var id: Int64

    func run() throws {
        let result = try Edits.apply(.removeAlarm(id: id), context: try global.context())
        guard case .alarmRemoved(let alarm) = result.outcome else { throw Edits.unexpected }
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
        let result = try Edits.apply(.skipNext(id: id, undo: undo), context: context)
        guard case .alarm(let alarm) = result.outcome else { throw Edits.unexpected }
        if context.json {
            Output.json(AlarmDocument(alarm, stationNames: result.stationNames))
        } else if let date = alarm.skipDate {
            print("Alarm \(id) (\(alarm.name)) will not ring on \(date); it rings again after that.")
        } else {
            print("Alarm \(id) (\(alarm.name)) rings at its next occurrence again.")
        }
    }
}

private func setEnabled(_ on: Bool, id: Int64, global: GlobalOptions) throws {
    let result = try Edits.apply(.editAlarm(id: id, AlarmPatch(enabled: on)), context: try global.context())
    guard case .alarm(let alarm) = result.outcome else { throw Edits.unexpected }
    if global.json {
        Output.json(AlarmDocument(alarm, stationNames: result.stationNames))
    } else {
        print("Alarm \(id) (\(alarm.name)) is \(on ? "enabled" : "disabled").")
    }
}
