public import AubadeCore
public import Foundation

/// What a home-automation face (the MQTT face, for Home Assistant) follows of the clock: a state, computed after
/// every input like the pages' `LiveState` and handed out only when it changed, and the clock's events in the
/// order they happened (`HomeUpdate`). Times are instants; `zone` is the clock's default zone, to show them in.
public struct HomeState: Sendable, Hashable {
    /// What the clock is doing, as one word; the first that holds: an alarm rings, one is snoozed, a pre-alarm
    /// notice of an alarm that will ring was given and its time has not come, a sleep timer plays, the radio
    /// plays, nothing.
    public enum Activity: String, Sendable, Hashable, CaseIterable {
        case idle
        case preAlarm = "pre_alarm"
        case ringing, snoozed, playing, sleep
    }

    /// The next time an alarm will sound: its next occurrence that will ring (skip-next and days off passed
    /// over, disabled alarms left out), or a snoozed alarm's snooze end when that comes first.
    public struct Next: Sendable, Hashable {
        public var alarmID: Int64
        public var name: String
        public var at: Date
        public var snooze: Bool
    }

    /// An alarm as the face shows it: its switch, its time and days, and its attributes.
    public struct AlarmEntry: Sendable, Hashable {
        public var id: Int64
        public var name: String
        public var enabled: Bool
        /// "HH:MM".
        public var time: String
        /// The days as the CLI writes them ("mon-fri", "daily", "once").
        public var days: String
        /// "tone", a station's name, or a URL.
        public var source: String
        public var volume: Int
        /// Whether it rings on today's date in the clock's zone (an occurrence today that is not passed over).
        public var scheduledToday: Bool
    }

    public var activity: Activity
    /// An alarm is sounding (a ring test is not an alarm).
    public var ringing: Bool
    public var next: Next?
    /// The alarm a "skip next" passes over: the alarm of the next occurrence the schedule will ring.
    public var nextScheduled: Int64?
    public var zone: String
    public var alarms: [AlarmEntry]
    /// The saved stations' names, in the order they were added.
    public var stations: [String]
    /// The playing radio's volume while the radio plays, else the default volume setting.
    public var volume: Int
    /// Whether the radio plays now (listening, a sleep timer, a reservation).
    public var radioOn: Bool
    /// The saved station that sounds — the radio's, or a ringing alarm's — if one does.
    public var station: String?
    /// Whole minutes left on the sleep timer, rounded up; 0 when none runs.
    public var sleepMinutesLeft: Int
    /// "Station — Title", or the source alone, while the radio plays; a ringing alarm's source ("FIP", "tone").
    public var nowPlaying: String?
    /// The sunrise on the kiosk's face, if one runs.
    public var sunrise: Sunrise?
    /// The outputs this clock holds (the bed shaker, the lamp), in that order, and whether each is on.
    public var outputs: [OutputState] = []

    public struct OutputState: Sendable, Hashable {
        public var name: OutputName
        public var on: Bool
    }

    /// A sunrise as Home Assistant is shown it: the alarm, its time, how far it has come and the screen's level.
    public struct Sunrise: Sendable, Hashable {
        public var alarmID: Int64
        public var at: Date
        /// 0…100.
        public var progressPercent: Int
        public var backlightPercent: Int
        /// The face's colour, "#rrggbb".
        public var color: String
    }
}

/// Something the clock did, for the faces that follow it as it happens.
public enum ClockEvent: Sendable, Hashable {
    /// A line of the event history, as it is recorded (rang, snoozed, dismissed, fallback, skipped, missed, …).
    case recorded(HistoryEvent)
    /// A pre-alarm notice fell due.
    case preAlarm(PreAlarmNotice)
    /// An alarm's sunrise began on the kiosk's face, or ended (the alarm rang, was skipped or edited away).
    case sunrise(SunriseEvent)
}

/// A sunrise beginning or ending: which alarm, its time, and the lead.
public struct SunriseEvent: Sendable, Hashable {
    public var alarmID: Int64
    public var alarmAt: Date
    public var leadSeconds: Int
    public var began: Bool

    public init(alarmID: Int64, alarmAt: Date, leadSeconds: Int, began: Bool) {
        self.alarmID = alarmID
        self.alarmAt = alarmAt
        self.leadSeconds = leadSeconds
        self.began = began
    }

    init(light: SunriseLight, began: Bool) {
        self.init(
            alarmID: light.alarmID, alarmAt: light.alarmAt,
            leadSeconds: Int(light.alarmAt.timeIntervalSince(light.startsAt).rounded()), began: began)
    }
}

/// What a home-automation face is handed, in order: the state when it changed, and every event.
public enum HomeUpdate: Sendable, Hashable {
    case state(HomeState)
    case event(ClockEvent)
}
