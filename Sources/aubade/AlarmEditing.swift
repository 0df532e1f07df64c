import ArgumentParser
import AubadeCore
import AubadeStore
import Foundation

/// The fields `alarm add` and `alarm edit` share. Values are taken as text and parsed by AubadeCore, so the
/// CLI, the store and the API refuse bad input with the same sentences.
struct AlarmFields: ParsableArguments {
    @Option(help: "A name, e.g. Work.") var name: String?
    @Option(help: "Time of day, HH:MM (24-hour).") var time: String?
    @Option(help: "mon-fri, sat,sun, daily, weekdays, weekends or once.") var days: String?
    @Option(help: "With --days once: the date, YYYY-MM-DD (default: the next time the alarm's time comes).")
    var date: String?
    @Option(help: "tone, a saved station's name, or an http(s) stream URL.") var source: String?
    @Option(help: "How long it rings before silencing itself, e.g. 15m.") var duration: String?
    @Option(help: "Volume, 10-100.") var volume: Int?
    @Option(name: .customLong("fade-in"), help: "Fade-in time, e.g. 30s (0s for none).") var fadeIn: String?
    @Option(help: "Snooze length, e.g. 9m.") var snooze: String?
    @Option(name: .customLong("max-snoozes"), help: "How many snoozes are allowed (0-20).") var maxSnoozes: Int?
    @Flag(inversion: .prefixedNo, help: "Shaking the clock stops the alarm.") var shake: Bool?
    @Option(help: "Time-zone id, e.g. Europe/Berlin (default: the clock's zone).") var tz: String?

    /// Applies the given fields to `alarm`; `zone` decides the default date of a one-shot alarm.
    func apply(to alarm: inout Alarm, store: Store, zone: TimeZone, now: Date = Date()) throws {
        if let name { alarm.name = name }
        if let time { alarm.time = try LocalTime(parsing: time, field: "Alarm time") }
        if let tz {
            if !tz.isEmpty { _ = try Alarm.validTimeZone(tz) }
            alarm.timeZoneID = tz.isEmpty ? nil : tz
        }
        let alarmZone = try alarm.timeZoneID.map { try Alarm.validTimeZone($0) } ?? zone
        if let days {
            alarm.recurrence = try Recurrence(days: days, date: date) {
                LocalDate.nextDate(for: alarm.time, after: now, in: alarmZone)
            }
        } else if let date {
            guard case .once = alarm.recurrence else {
                throw AubadeCore.ValidationError("A date only goes with --days once; repeating alarms ring on weekdays.")
            }
            alarm.recurrence = .once(try LocalDate(parsing: date))
        }
        if let source { alarm.sound = try SoundSource(userText: source, stationNamed: store.station(named:)) }
        if let duration { alarm.durationSeconds = try DurationText.seconds(parsing: duration, field: "Duration") }
        if let volume { alarm.volume = volume }
        if let fadeIn { alarm.fadeInSeconds = try DurationText.seconds(parsing: fadeIn, field: "Fade-in") }
        if let snooze { alarm.snoozeMinutes = try AlarmFields.minutes(snooze) }
        if let maxSnoozes { alarm.maxSnoozes = maxSnoozes }
        if let shake { alarm.shakeToStop = shake }
        try alarm.validate()
    }

    private static func minutes(_ text: String) throws -> Int {
        let seconds = try DurationText.seconds(parsing: text, field: "Snooze length")
        guard seconds % 60 == 0 else {
            throw AubadeCore.ValidationError("Snooze length '\(text)' must be whole minutes, like 9m.")
        }
        return seconds / 60
    }
}

struct AlarmAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add an alarm.",
        discussion: "Example: aubade alarm add --name Work --time 06:45 --days mon-fri --source tone --duration 15m --shake")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var fields: AlarmFields
    @Flag(help: "Add it switched off.") var disabled = false

    func run() throws {
        guard let name = fields.name else { throw CLIError.badInput("An alarm needs a name: add --name, e.g. --name Work.") }
        guard let time = fields.time else { throw CLIError.badInput("An alarm needs a time: add --time HH:MM, e.g. --time 06:45.") }
        let context = try global.context()
        let store = try context.openStoreForWriting()
        let zone = try context.defaultZone()
        let settings = try store.settings()
        let parsedTime = try LocalTime(parsing: time, field: "Alarm time")
        var alarm = settings.newAlarm(name: name, time: parsedTime, recurrence: .weekly(.all))
        var withDays = fields
        if withDays.days == nil { withDays.days = "once" }
        try withDays.apply(to: &alarm, store: store, zone: zone)
        alarm.enabled = !disabled
        let saved = try store.insert(alarm)
        if global.json {
            Output.json(AlarmDocument(saved, stationNames: AlarmDocument.stationNames(try store.stations())))
        } else {
            print("Added alarm \(saved.id ?? 0): \(saved.name) at \(saved.time), \(saved.recurrence.summary).")
        }
    }
}

struct AlarmEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change an alarm; fields not given stay as they are.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The alarm's id.") var id: Int64
    @OptionGroup var fields: AlarmFields

    func run() throws {
        let context = try global.context()
        let store = try context.openStoreForWriting()
        var alarm = try store.alarm(id: id)
        try fields.apply(to: &alarm, store: store, zone: try context.defaultZone())
        try store.update(alarm)
        if global.json {
            Output.json(AlarmDocument(alarm, stationNames: AlarmDocument.stationNames(try store.stations())))
        } else {
            print("Changed alarm \(id): \(alarm.name) at \(alarm.time), \(alarm.recurrence.summary).")
        }
    }
}
