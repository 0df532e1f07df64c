public import Foundation

/// The fields one request names for an alarm — `aubade alarm add/edit`, the JSON API — each optional, in the
/// form the user gave it. Text is parsed here by the same Core parsers everywhere (`LocalTime`, `Recurrence`,
/// `DurationText`, `SoundSource`, `Alarm.validTimeZone`), so the CLI, the API and the store refuse bad input
/// with the same sentence; the store applies a patch inside its write transaction (R26), so two edits of
/// different fields of one alarm never lose each other.
///
/// JSON field (Codable key) ↔ CLI option, and the form of the value:
/// - `name` ↔ `--name`: text, 1–64 characters.
/// - `time` ↔ `--time`: "HH:MM", 24-hour.
/// - `days` ↔ `--days`: "mon-fri", "sat,sun", "daily", "weekdays", "weekends" or "once".
/// - `date` ↔ `--date`: "YYYY-MM-DD", only with days "once" (or for an alarm that already is one-shot).
/// - `source` ↔ `--source`: "tone", a saved station's name, or an http(s) URL.
/// - `durationSeconds` ↔ `--duration`: seconds, 60–14400 (the CLI takes "15m" and parses it).
/// - `fadeInSeconds` ↔ `--fade-in`: seconds, 0–600, shorter than the duration.
/// - `snoozeMinutes` ↔ `--snooze`: whole minutes, 1–60.
/// - `volume` ↔ `--volume`: a number, 10–100.
/// - `maxSnoozes` ↔ `--max-snoozes`: a number, 0–20.
/// - `shake` ↔ `--shake` / `--no-shake`: true or false.
/// - `tz` ↔ `--tz`: a tz database name such as "Europe/Berlin"; "" clears it (the clock's zone applies).
/// - `enabled` ↔ `alarm enable` / `alarm disable` (and `alarm add --disabled`): true or false.
/// - `skipDaysOff` ↔ `--skip-days-off` / `--no-skip-days-off`: true or false (default for a new alarm: true
///   when it repeats on weekdays only, else false; one-shot alarms always ring).
/// - `sunriseSeconds` ↔ `--sunrise`: seconds, 0–7200: how long before the alarm the kiosk's face starts its
///   sunrise, 0 for none (the CLI takes "20m", or "0" / "off"; a new alarm without it takes `[display] sunrise`).
/// - `ladder` ↔ `--ladder`: how it climbs when nobody answers — "default" (as `[alarm] ladder` says), "off" (it
///   rings for its duration and falls silent), or its own steps such as "step=2m,louder=9dB,rounds=5,gap=10m".
/// - `wakeCheckSeconds` ↔ `--wake-check`: seconds after a Stop it asks "Are you up?", 60–3600, or 0 for none (the CLI
///   takes "5m", or "0" / "off").
/// - `shaker`, `lamp` ↔ `--shaker`, `--lamp`: when that output comes on while it rings — "ladder" (at its ladder's
///   top step, the default), "now", "after:<duration>" (1s to 1h, like "after:2m") or "off" (never for this alarm).
/// - `soundAfterSeconds` ↔ `--sound-after`: "vibrate first, sound after" — its sound starts this many seconds after its
///   ring begins (1–600), the outputs alone until then; 0 for none (the CLI takes "1m", or "off"). Refused (422) when
///   neither the shaker nor the lamp would come on before the sound.
/// - `atProgramme` ↔ `--at-programme`: a programme's id — the alarm then rings when that programme starts and
///   follows it when an import moves it (its time, days and zone come from it) — or "none" to untie it (it
///   keeps the last time it had).
///
/// Decoding refuses a key it does not know (a typo such as `fadein` must not be ignored silently).
public struct AlarmPatch: Sendable, Hashable, Codable {
    public var name: String?
    public var time: String?
    public var days: String?
    public var date: String?
    public var source: String?
    public var durationSeconds: Int?
    public var volume: Int?
    public var fadeInSeconds: Int?
    public var snoozeMinutes: Int?
    public var maxSnoozes: Int?
    public var shake: Bool?
    public var tz: String?
    public var enabled: Bool?
    public var skipDaysOff: Bool?
    public var atProgramme: String?
    public var sunriseSeconds: Int?
    public var ladder: String?
    public var wakeCheckSeconds: Int?
    public var shaker: String?
    public var lamp: String?
    public var soundAfterSeconds: Int?

    public init(
        name: String? = nil, time: String? = nil, days: String? = nil, date: String? = nil, source: String? = nil,
        durationSeconds: Int? = nil, volume: Int? = nil, fadeInSeconds: Int? = nil, snoozeMinutes: Int? = nil,
        maxSnoozes: Int? = nil, shake: Bool? = nil, tz: String? = nil, enabled: Bool? = nil,
        skipDaysOff: Bool? = nil, atProgramme: String? = nil, sunriseSeconds: Int? = nil,
        ladder: String? = nil, wakeCheckSeconds: Int? = nil, shaker: String? = nil, lamp: String? = nil,
        soundAfterSeconds: Int? = nil
    ) {
        self.soundAfterSeconds = soundAfterSeconds
        self.wakeCheckSeconds = wakeCheckSeconds
        self.shaker = shaker
        self.lamp = lamp
        self.name = name
        self.time = time
        self.days = days
        self.date = date
        self.source = source
        self.durationSeconds = durationSeconds
        self.volume = volume
        self.fadeInSeconds = fadeInSeconds
        self.snoozeMinutes = snoozeMinutes
        self.maxSnoozes = maxSnoozes
        self.shake = shake
        self.tz = tz
        self.enabled = enabled
        self.skipDaysOff = skipDaysOff
        self.atProgramme = atProgramme
        self.sunriseSeconds = sunriseSeconds
        self.ladder = ladder
    }

    /// "20m", "1h", "90s" → seconds; "0" and "off" → 0 (no sunrise): the CLI's and the config's one reading.
    public static func sunriseSeconds(parsing text: String, field: String = "Sunrise") throws(ValidationError) -> Int {
        let t = text.trimmingSpaces.lowercased()
        if t == "0" || t == "off" { return 0 }
        return try DurationText.seconds(parsing: text, field: field)
    }

    /// "5m", "1h" → seconds, in range (one minute to an hour); "0" and "off" → 0 (no wake-up check).
    public static func wakeCheckSeconds(parsing text: String) throws(ValidationError) -> Int {
        let t = text.trimmingSpaces.lowercased()
        if t == "0" || t == "off" { return 0 }
        return try DurationText.seconds(parsing: text, field: "The wake-up check", in: WakeCheck.afterRange)
    }

    /// True when the patch names no field at all.
    public var isEmpty: Bool { self == AlarmPatch() }

    /// Applies the named fields to `alarm` and validates the result; throws the first problem as a
    /// `ValidationError` sentence (or what `stationNamed` throws) and leaves `alarm` unusable then.
    /// `zone` is the clock's zone: with the alarm's own zone, it decides the default date of a one-shot alarm
    /// (the next day on which its time is still ahead of `now`). `stationNamed` and `podcastNamed` look a
    /// `source` name up. `programmeWithID` looks an `atProgramme` id up.
    public func apply(
        to alarm: inout Alarm, zone: TimeZone, now: Date,
        stationNamed: (String) throws -> Station?, podcastNamed: (String) throws -> Podcast?,
        programmeWithID: (Int64) throws -> Programme? = { _ in nil }
    ) throws {
        let timing = time != nil || days != nil || date != nil || tz != nil
        if let atProgramme {
            if AlarmPatch.untie(atProgramme) {
                alarm.programme = nil
            } else {
                guard !timing else {
                    throw ValidationError(
                        "An alarm tied to a programme takes its time, days and zone from it; leave out --time, --days, --date and --tz."
                    )
                }
                let id = try AlarmPatch.programmeID(atProgramme)
                guard let programme = try programmeWithID(id) else {
                    throw ValidationError("No programme has id \(id); see 'aubade program list'.", kind: .unprocessable)
                }
                let rule = ProgrammeTie.rule(of: programme)
                alarm.time = rule.time
                alarm.recurrence = rule.recurrence
                alarm.timeZoneID = rule.zone
                alarm.skipDate = nil
                alarm.programme = ProgrammeTie(id: id, name: programme.name)
            }
        } else if timing, let tie = alarm.programme {
            throw ValidationError(
                "Alarm \(alarm.id.map(String.init) ?? "") follows programme \(tie.id) (\(tie.name)), which sets its time; give --at-programme none to set its own.",
                kind: .unprocessable)
        }
        if let name { alarm.name = name }
        if let time { alarm.time = try LocalTime(parsing: time, field: "Alarm time") }
        if let tz {
            if !tz.isEmpty { _ = try Alarm.validTimeZone(tz) }
            alarm.timeZoneID = tz.isEmpty ? nil : tz
        }
        let alarmZone = try alarm.timeZoneID.map { id throws(ValidationError) in try Alarm.validTimeZone(id) } ?? zone
        if let days {
            let time = alarm.time
            alarm.recurrence = try Recurrence(days: days, date: date) {
                LocalDate.nextDate(for: time, after: now, in: alarmZone)
            }
        } else if let date {
            guard case .once = alarm.recurrence else {
                throw ValidationError(
                    "A date only goes with --days once; repeating alarms ring on weekdays.", kind: .unprocessable)
            }
            alarm.recurrence = .once(try LocalDate(parsing: date))
        }
        if let source { alarm.sound = try SoundSource(userText: source, stationNamed: stationNamed, podcastNamed: podcastNamed) }
        if let durationSeconds { alarm.durationSeconds = durationSeconds }
        if let volume { alarm.volume = volume }
        if let fadeInSeconds { alarm.fadeInSeconds = fadeInSeconds }
        if let snoozeMinutes { alarm.snoozeMinutes = snoozeMinutes }
        if let maxSnoozes { alarm.maxSnoozes = maxSnoozes }
        if let shake { alarm.shakeToStop = shake }
        if let enabled { alarm.enabled = enabled }
        if let skipDaysOff { alarm.skipDaysOff = skipDaysOff }
        if let sunriseSeconds { alarm.sunriseSeconds = sunriseSeconds }
        if let ladder {
            // Any text is the document's string: a ladder it cannot use is refused as unprocessable (422), not malformed.
            do throws(ValidationError) {
                alarm.ladder = try AlarmLadder(parsing: ladder)
            } catch {
                throw ValidationError(error.message, kind: .unprocessable)
            }
        }
        if let wakeCheckSeconds { alarm.wakeCheckSeconds = wakeCheckSeconds }
        // As the ladder: any text is the document's string, one it cannot use is unprocessable (422).
        do throws(ValidationError) {
            if let shaker { alarm.shaker = try OutputTiming.alarmValue(parsing: shaker) }
            if let lamp { alarm.lamp = try OutputTiming.alarmValue(parsing: lamp) }
        } catch {
            throw ValidationError(error.message, kind: .unprocessable)
        }
        if let soundAfterSeconds {
            guard soundAfterSeconds == 0 || SoundAfter.range.contains(soundAfterSeconds) else {
                throw ValidationError(
                    "--sound-after is 1s to 10m (or 0 for none), not \(soundAfterSeconds) seconds.", kind: .unprocessable)
            }
            alarm.soundAfter = soundAfterSeconds == 0 ? nil : .seconds(soundAfterSeconds)
        }
        try alarm.validate()
    }

    /// Whether an `atProgramme` value unties the alarm.
    static func untie(_ text: String) -> Bool {
        ["none", "off", ""].contains(text.trimmingSpaces.lowercased())
    }

    /// The programme id an `atProgramme` value names.
    static func programmeID(_ text: String) throws(ValidationError) -> Int64 {
        guard let id = Int64(text.trimmingSpaces), id > 0 else {
            throw ValidationError(
                "--at-programme '\(text)' is not a programme id; give the number 'aubade program list' shows, or none.")
        }
        return id
    }

    /// A new alarm from this patch, as `alarm add` makes it: `name` and `time` are required — or `atProgramme`,
    /// which gives the time (and the name, when none is given); fields not named take the defaults of `settings`
    /// (duration, volume, fade-in, snooze, maximum snoozes); without `days` the alarm rings once; it is enabled
    /// unless `enabled` is false; it skips days off when it repeats on weekdays only, unless `skipDaysOff` says
    /// otherwise. Validated; has no id yet.
    public func newAlarm(
        settings: AppSettings, zone: TimeZone, now: Date,
        stationNamed: (String) throws -> Station?, podcastNamed: (String) throws -> Podcast?,
        programmeWithID: (Int64) throws -> Programme? = { _ in nil }
    ) throws -> Alarm {
        try checkCanCreate()
        var withDefaults = self
        var alarm: Alarm
        if let at = atProgramme, let programme = try programmeWithID(try AlarmPatch.programmeID(at)) {
            alarm = settings.newAlarm(name: name ?? programme.name, time: programme.begin, recurrence: .weekly(.all))
        } else if let at = atProgramme {
            throw ValidationError(
                "No programme has id \(try AlarmPatch.programmeID(at)); see 'aubade program list'.", kind: .unprocessable)
        } else {
            alarm = settings.newAlarm(
                name: name ?? "", time: try LocalTime(parsing: time ?? "", field: "Alarm time"),
                recurrence: .weekly(.all))
            if withDefaults.days == nil { withDefaults.days = "once" }
        }
        try withDefaults.apply(
            to: &alarm, zone: zone, now: now, stationNamed: stationNamed, podcastNamed: podcastNamed,
            programmeWithID: programmeWithID)
        if skipDaysOff == nil, case .weekly(let days) = alarm.recurrence, days.isSubset(of: .workdays) {
            alarm.skipDaysOff = true
        }
        return alarm
    }

    /// What a new alarm needs: a `name` and a `time`, or a programme to follow (`atProgramme`, which also
    /// names it). Refuses, before anything is read, a patch that lacks them.
    public func checkCanCreate() throws(ValidationError) {
        if let atProgramme {
            guard !AlarmPatch.untie(atProgramme) else {
                throw ValidationError(
                    "A new alarm cannot be untied from a programme; give --at-programme with a programme's id, or --time.")
            }
            _ = try AlarmPatch.programmeID(atProgramme)
            return
        }
        guard name != nil else { throw ValidationError("An alarm needs a name: add --name, e.g. --name Work.") }
        guard time != nil else { throw ValidationError("An alarm needs a time: add --time HH:MM, e.g. --time 06:45.") }
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, time, days, date, source, durationSeconds, volume, fadeInSeconds, snoozeMinutes, maxSnoozes, shake, tz
        case enabled
        case skipDaysOff, atProgramme, sunriseSeconds, ladder, wakeCheckSeconds, shaker, lamp, soundAfterSeconds
    }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.refuseUnknown(in: decoder, known: CodingKeys.allCases.map(\.rawValue), what: "alarm field")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decodeIfPresent(String.self, forKey: .name), time: try c.decodeIfPresent(String.self, forKey: .time),
            days: try c.decodeIfPresent(String.self, forKey: .days), date: try c.decodeIfPresent(String.self, forKey: .date),
            source: try c.decodeIfPresent(String.self, forKey: .source),
            durationSeconds: try c.decodeIfPresent(Int.self, forKey: .durationSeconds),
            volume: try c.decodeIfPresent(Int.self, forKey: .volume),
            fadeInSeconds: try c.decodeIfPresent(Int.self, forKey: .fadeInSeconds),
            snoozeMinutes: try c.decodeIfPresent(Int.self, forKey: .snoozeMinutes),
            maxSnoozes: try c.decodeIfPresent(Int.self, forKey: .maxSnoozes),
            shake: try c.decodeIfPresent(Bool.self, forKey: .shake), tz: try c.decodeIfPresent(String.self, forKey: .tz),
            enabled: try c.decodeIfPresent(Bool.self, forKey: .enabled),
            skipDaysOff: try c.decodeIfPresent(Bool.self, forKey: .skipDaysOff),
            atProgramme: try AlarmPatch.decodeProgramme(c),
            sunriseSeconds: try c.decodeIfPresent(Int.self, forKey: .sunriseSeconds),
            ladder: try c.decodeIfPresent(String.self, forKey: .ladder),
            wakeCheckSeconds: try c.decodeIfPresent(Int.self, forKey: .wakeCheckSeconds),
            shaker: try c.decodeIfPresent(String.self, forKey: .shaker), lamp: try c.decodeIfPresent(String.self, forKey: .lamp),
            soundAfterSeconds: try c.decodeIfPresent(Int.self, forKey: .soundAfterSeconds))
    }

    /// `atProgramme` as a number or as text ("none").
    private static func decodeProgramme(_ c: KeyedDecodingContainer<CodingKeys>) throws -> String? {
        if let id = try? c.decodeIfPresent(Int64.self, forKey: .atProgramme) { return String(id) }
        return try c.decodeIfPresent(String.self, forKey: .atProgramme)
    }
}
