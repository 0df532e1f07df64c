import ArgumentParser
import AubadeApp
import AubadeConfig
import AubadeCore
import AubadeStore
import Foundation

/// The fields `alarm add` and `alarm edit` share, as an `AlarmPatch`: values are taken as text and parsed by
/// AubadeCore, so the CLI, the store and the API refuse bad input with the same sentences. The option names are
/// the patch's JSON field names (`--max-snoozes` ↔ `maxSnoozes`); durations are written as text here ("15m") and
/// travel as numbers (`--duration` ↔ `durationSeconds`, `--fade-in` ↔ `fadeInSeconds`, `--snooze` ↔ `snoozeMinutes`).
struct AlarmFields: ParsableArguments {
    @Option(help: "A name, e.g. Work.") var name: String?
    @Option(help: "Time of day, HH:MM (24-hour).") var time: String?
    @Option(help: "mon-fri, sat,sun, daily, weekdays, weekends or once.") var days: String?
    @Option(help: "With --days once: the date, YYYY-MM-DD (default: the next time the alarm's time comes).")
    var date: String?
    @Option(help: "tone, a saved station's name, or an http(s) stream URL.") var source: String?
    @Option(help: "How long it rings before silencing itself when its ladder is off, e.g. 15m.") var duration: String?
    @Option(help: "Volume, 10-100.") var volume: Int?
    @Option(name: .customLong("fade-in"), help: "Fade-in time, e.g. 30s (0s for none).") var fadeIn: String?
    @Option(help: "Snooze length, e.g. 9m.") var snooze: String?
    @Option(name: .customLong("max-snoozes"), help: "How many snoozes are allowed (0-20).") var maxSnoozes: Int?
    @Flag(inversion: .prefixedNo, help: "Shaking the clock stops the alarm.") var shake: Bool?
    @Option(help: "Time-zone id, e.g. Europe/Berlin (default: the clock's zone).") var tz: String?
    @Option(
        name: .customLong("at-programme"),
        help:
            "Ring when this programme starts (its id, see 'aubade program list') and follow it when an import moves it; 'none' unties it."
    )
    var atProgramme: String?
    @Flag(
        inversion: .prefixedNo, help: "Do not ring on days off (default for a new alarm on weekdays only; see 'aubade days-off')."
    )
    var skipDaysOff: Bool?
    @Option(
        help:
            "Light the kiosk's screen as a sunrise this long before the alarm, e.g. 20m (0 for none; default: [display] sunrise)."
    )
    var sunrise: String?
    @Option(
        help: ArgumentHelp(
            "When nobody answers: default ([alarm] ladder), off (ring for --duration, then silence), or its own steps.",
            discussion:
                "Steps: step=2m,louder=9dB,rounds=5,gap=10m (each optional): its sound, louder, the tone at full, the outputs and the unanswered event, then rest and ring again.",
            valueName: "default|off|steps"))
    var ladder: String?
    @Option(
        name: .customLong("wake-check"),
        help: "Ask \"Are you up?\" this long after a Stop, e.g. 5m (0 or off: never); unanswered within a minute, it rings again."
    )
    var wakeCheck: String?
    @Option(
        help: ArgumentHelp(
            "When the bed shaker comes on while it rings: ladder (at the ladder's top step, the default), now, after:2m, or off.",
            valueName: "ladder|now|after:<d>|off"))
    var shaker: String?
    @Option(
        help: ArgumentHelp(
            "When the lamp comes on while it rings: ladder (at the ladder's top step, the default), now, after:2m, or off.",
            valueName: "ladder|now|after:<d>|off"))
    var lamp: String?
    @Option(
        name: .customLong("sound-after"),
        help: ArgumentHelp(
            "Vibrate first, sound after: the sound starts this long after the ring begins (1s to 10m, e.g. 1m), the shaker and lamp alone until then; off for none.",
            valueName: "duration|off"))
    var soundAfter: String?

    /// The fields given, for the store to apply inside its write transaction (R26); a duration that is not one is
    /// refused here with AubadeCore's sentence.
    func patch() throws(AubadeCore.ValidationError) -> AlarmPatch {
        AlarmPatch(
            name: name, time: time, days: days, date: date, source: source,
            durationSeconds: try duration.map { t throws(AubadeCore.ValidationError) in
                try DurationText.seconds(parsing: t, field: "Duration")
            },
            volume: volume,
            fadeInSeconds: try fadeIn.map { t throws(AubadeCore.ValidationError) in
                try DurationText.seconds(parsing: t, field: "Fade-in")
            },
            snoozeMinutes: try snooze.map { t throws(AubadeCore.ValidationError) in
                try DurationText.wholeMinutes(parsing: t, field: "Snooze length")
            },
            maxSnoozes: maxSnoozes, shake: shake, tz: tz, skipDaysOff: skipDaysOff, atProgramme: atProgramme,
            sunriseSeconds: try sunrise.map { t throws(AubadeCore.ValidationError) in try AlarmPatch.sunriseSeconds(parsing: t) },
            ladder: try ladder.map { t throws(AubadeCore.ValidationError) in try AlarmLadder(parsing: t).description },
            wakeCheckSeconds: try wakeCheck.map { t throws(AubadeCore.ValidationError) in
                try AlarmPatch.wakeCheckSeconds(parsing: t)
            },
            shaker: try shaker.map { t throws(AubadeCore.ValidationError) in
                OutputTiming.alarmText(try OutputTiming.alarmValue(parsing: t))
            },
            lamp: try lamp.map { t throws(AubadeCore.ValidationError) in
                OutputTiming.alarmText(try OutputTiming.alarmValue(parsing: t))
            },
            soundAfterSeconds: try soundAfter.map { t throws(AubadeCore.ValidationError) in
                try SoundAfter.value(parsing: t).map(SoundAfter.seconds) ?? 0
            })
    }
}

struct AlarmAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add an alarm.",
        discussion: """
            Example: aubade alarm add --name Work --time 06:45 --days mon-fri --source tone --duration 15m --shake
                     aubade alarm add --at-programme 12 --source FIP    (rings when programme 12 starts, wherever it moves)
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var fields: AlarmFields
    @Flag(help: "Add it switched off.") var disabled = false

    func run() throws {
        let context = try global.context()
        var patch = try fields.patch()
        if disabled { patch.enabled = false }
        if patch.sunriseSeconds == nil { patch.sunriseSeconds = context.configuration.display.sunriseSeconds }
        try patch.checkCanCreate()  // before the store is opened (and a missing file created)
        let result = try Edits.apply(.addAlarm(patch), context: context)
        guard case .alarm(let saved) = result.outcome else { throw Edits.unexpected }
        if global.json {
            Output.json(AlarmDocument(saved, stationNames: result.stationNames))
        } else {
            print(
                "Added alarm \(saved.id ?? 0): \(saved.name) at \(saved.time), \(saved.recurrence.summary)\(AlarmAdd.extras(saved))."
            )
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
        let result = try Edits.apply(.editAlarm(id: id, try fields.patch()), context: try global.context())
        guard case .alarm(let alarm) = result.outcome else { throw Edits.unexpected }
        if global.json {
            Output.json(AlarmDocument(alarm, stationNames: result.stationNames))
        } else {
            print("Changed alarm \(id): \(alarm.name) at \(alarm.time), \(alarm.recurrence.summary)\(AlarmAdd.extras(alarm)).")
        }
    }
}

extension AlarmAdd {
    /// ", following programme 12 (Jazz); not on days off" — what the summary line adds.
    static func extras(_ a: Alarm) -> String {
        var parts: [String] = []
        if let tie = a.programme { parts.append("following programme \(tie.id) (\(tie.name))") }
        if a.skipDaysOff, a.recurrence.onceDate == nil { parts.append("not on days off") }
        if a.sunriseSeconds > 0 { parts.append("a sunrise \(DurationText.format(a.sunriseSeconds)) before") }
        switch a.ladder {
        case .clock: break
        case .own(let plan) where !plan.enabled:
            parts.append("no ladder (silent after \(DurationText.format(a.durationSeconds)))")
        case .own: parts.append("its own ladder \(a.ladder)")
        }
        if a.wakeCheckSeconds > 0 { parts.append("a wake-up check \(DurationText.format(a.wakeCheckSeconds)) after Stop") }
        for name in OutputName.allCases {
            switch a.timing(of: name) {
            case nil: break
            case .off?: parts.append("no \(name)")
            case .now?: parts.append("the \(name) from the start")
            case .after(let seconds)?: parts.append("the \(name) after \(DurationText.format(seconds))")
            }
        }
        if let wait = a.soundAfter { parts.append("vibrate first, the sound after \(SoundAfter.text(wait))") }
        return parts.isEmpty ? "" : ", " + parts.joined(separator: "; ")
    }
}
