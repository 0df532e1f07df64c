public import Foundation

/// An alarm as the user set it: a local rule (time, days or date, zone) plus how it sounds and stops.
/// Maps one-to-one onto a row of the `clocks` table; `validate()` is the single rule set the CLI, the store
/// and the HTTP API all apply.
public struct Alarm: Hashable, Sendable, Codable {
    public static let durationRange = 60...(4 * 3600)
    public static let volumeRange = 10...100
    public static let fadeInRange = 0...600
    public static let snoozeMinutesRange = 1...60
    public static let maxSnoozesRange = 0...20
    /// The sunrise's lead in seconds: 0 (none) to two hours.
    public static let sunriseRange = 0...(2 * 3600)

    public var id: Int64?
    public var name: String
    public var time: LocalTime
    public var recurrence: Recurrence
    /// Seconds of ringing before auto-silence (`durationTime`).
    public var durationSeconds: Int
    /// Shake to stop (`isShaked`).
    public var shakeToStop: Bool
    /// Enabled (`isOpened`).
    public var enabled: Bool
    /// What plays (`clockMusic`).
    public var sound: SoundSource
    public var volume: Int
    public var fadeInSeconds: Int
    public var snoozeMinutes: Int
    public var maxSnoozes: Int
    /// The one local date whose occurrence is skipped, if any.
    public var skipDate: LocalDate?
    /// Time-zone id; nil follows the system zone.
    public var timeZoneID: String?
    /// A repeating alarm that does not ring on days off (`DaysOff`); one-shot alarms ignore it.
    public var skipDaysOff: Bool
    /// The programme the alarm follows ("wake me when it starts"): its time, zone and days are the programme's,
    /// updated by every import that moves it. When the programme disappears the alarm keeps its last known time
    /// and `programmeGone` says so.
    public var programme: ProgrammeTie?
    /// How long before the alarm the kiosk's face starts its sunrise, in seconds; 0 is none (`FacePlan`).
    public var sunriseSeconds: Int
    /// How it climbs when nobody answers (`WakeLadder`): the clock's (`[alarm] ladder`) or its own.
    public var ladder: AlarmLadder
    /// How long after a Stop it asks "Are you up?" (`WakeCheck`), in seconds; 0: it does not ask.
    public var wakeCheckSeconds: Int
    /// When the bed shaker and the lamp come on while it rings (`OutputTiming`); nil: at its ladder's top step only.
    public var shaker: OutputTiming?
    public var lamp: OutputTiming?
    /// "Vibrate first, sound after" (`--sound-after 1m`): how long after its ring begins its sound starts, the
    /// outputs alone waking the sleeper until then (`SoundAfter`); nil: the sound starts with the ring.
    public var soundAfter: Duration?

    public init(
        id: Int64? = nil, name: String, time: LocalTime, recurrence: Recurrence, durationSeconds: Int = 900,
        shakeToStop: Bool = false, enabled: Bool = true, sound: SoundSource = .tone, volume: Int = 60,
        fadeInSeconds: Int = 30, snoozeMinutes: Int = 9, maxSnoozes: Int = 3, skipDate: LocalDate? = nil,
        timeZoneID: String? = nil, skipDaysOff: Bool = false, programme: ProgrammeTie? = nil, sunriseSeconds: Int = 0,
        ladder: AlarmLadder = .clock, wakeCheckSeconds: Int = 0, shaker: OutputTiming? = nil, lamp: OutputTiming? = nil,
        soundAfter: Duration? = nil
    ) {
        self.wakeCheckSeconds = wakeCheckSeconds
        self.soundAfter = soundAfter
        self.shaker = shaker
        self.lamp = lamp
        self.id = id
        self.name = name
        self.time = time
        self.recurrence = recurrence
        self.durationSeconds = durationSeconds
        self.shakeToStop = shakeToStop
        self.enabled = enabled
        self.sound = sound
        self.volume = volume
        self.fadeInSeconds = fadeInSeconds
        self.snoozeMinutes = snoozeMinutes
        self.maxSnoozes = maxSnoozes
        self.skipDate = skipDate
        self.timeZoneID = timeZoneID
        self.skipDaysOff = skipDaysOff
        self.programme = programme
        self.sunriseSeconds = sunriseSeconds
        self.ladder = ladder
    }

    /// Checks every field; throws the first problem as one sentence. Trims the name.
    public mutating func validate() throws(ValidationError) {
        name = try Names.validated(name, what: "Alarm name")
        try Alarm.check(durationSeconds, in: Alarm.durationRange, "Duration", DurationText.format)
        try Alarm.check(volume, in: Alarm.volumeRange, "Volume") { "\($0)" }
        try Alarm.check(fadeInSeconds, in: Alarm.fadeInRange, "Fade-in", DurationText.format)
        try Alarm.check(snoozeMinutes, in: Alarm.snoozeMinutesRange, "Snooze length") { "\($0) min" }
        try Alarm.check(maxSnoozes, in: Alarm.maxSnoozesRange, "Maximum snoozes") { "\($0)" }
        try Alarm.check(sunriseSeconds, in: Alarm.sunriseRange, "Sunrise", DurationText.format)
        if wakeCheckSeconds != 0 {
            try Alarm.check(wakeCheckSeconds, in: WakeCheck.afterRange, "The wake-up check", DurationText.format)
        }
        guard fadeInSeconds < durationSeconds else {
            throw ValidationError(
                "Fade-in (\(DurationText.format(fadeInSeconds))) must be shorter than the duration (\(DurationText.format(durationSeconds))).",
                kind: .unprocessable)
        }
        if case .weekly(let days) = recurrence, days.isEmpty {
            throw ValidationError("A repeating alarm needs at least one day.")
        }
        if case .dates(let dates) = recurrence {
            guard programme != nil else {
                throw ValidationError("Only an alarm tied to a programme rings on a list of dates; use --days or --at-programme.")
            }
            guard zip(dates, dates.dropFirst()).allSatisfy({ $0 < $1 }) else {
                throw ValidationError("The alarm's dates are out of order or given twice.")
            }
        }
        if let zone = timeZoneID {
            _ = try Alarm.validTimeZone(zone)
        }
        try SoundAfter.check(self)
    }

    public static func validTimeZone(_ id: String) throws(ValidationError) -> TimeZone {
        guard let zone = TimeZone(identifier: id) else {
            throw ValidationError(
                "Time zone '\(id)' is unknown; use a tz database name such as Europe/Berlin.", kind: .unprocessable)
        }
        return zone
    }

    static func check(_ value: Int, in range: ClosedRange<Int>, _ what: String, _ show: (Int) -> String)
        throws(ValidationError)
    {
        guard range.contains(value) else {
            throw ValidationError(
                "\(what) \(show(value)) is out of range; use \(show(range.lowerBound)) to \(show(range.upperBound)).")
        }
    }
}

/// What ties an alarm to a programme: its id, its name when last seen, and whether it has disappeared (an import
/// dropped it, or it was removed) — the alarm then rings at the programme's last known time.
public struct ProgrammeTie: Hashable, Sendable, Codable {
    public var id: Int64
    public var name: String
    public var gone: Bool

    public init(id: Int64, name: String, gone: Bool = false) {
        self.id = id
        self.name = name
        self.gone = gone
    }

    /// The rule an alarm following `programme` gets: its begin, its zone, and its days — weekly on its weekday,
    /// daily, once on its date, or on its list of dates.
    public static func rule(of programme: Programme) -> (time: LocalTime, recurrence: Recurrence, zone: String?) {
        let recurrence: Recurrence
        if let dates = programme.dates {
            recurrence = .dates(dates)
        } else if let date = programme.date {
            recurrence = .once(date)
        } else if let weekday = programme.weekday {
            recurrence = .weekly(Weekdays(weekday))
        } else {
            recurrence = .weekly(.all)
        }
        return (programme.begin, recurrence, programme.timeZoneID)
    }
}
