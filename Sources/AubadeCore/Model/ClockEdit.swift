public import Foundation

/// One change a user asks of the clock's stored data, whoever asks (the CLI without a daemon, the control
/// socket, the HTTP API): carried out by one function, `Store.apply(_:zone:now:)`, inside one IMMEDIATE
/// transaction (R26), so every client refuses bad input with the same sentence and none can lose another's
/// concurrent change.
public enum ClockEdit: Sendable, Hashable, Codable {
    /// `alarm add`: `name` and `time` are required; the rest take the settings' defaults.
    case addAlarm(AlarmPatch)
    /// `alarm edit` (and `alarm enable` / `disable`, which name only `enabled`): fields not named stay.
    case editAlarm(id: Int64, AlarmPatch)
    case removeAlarm(id: Int64)
    /// `alarm skip-next`: the next occurrence (after one ringing or snoozed now) passes silently; `undo`
    /// rings it after all.
    case skipNext(id: Int64, undo: Bool)
    case addStation(StationFields)
    /// `station rm`: an id, or a station's name (ignoring case).
    case removeStation(String)
    /// A station saved from the directory moved: the directory's background check gives its new address.
    case moveStation(id: Int64, url: StreamURL)
    case addProgramme(ProgrammeFields)
    /// `program reserve` / `unreserve`; `remindSeconds` (with a reservation) chimes that long before the start.
    case reserveProgramme(id: Int64, reserved: Bool, remindSeconds: Int? = nil)
    case removeProgramme(id: Int64)
    /// `settings set`, or several keys at once (all or none).
    case setSettings([SettingChange])
    /// `program import`, `days-off import` and the refresh of a calendar source: replaces what that source
    /// imported before (keeping the ids, reservations and tied alarms of programmes found again), in one
    /// transaction — all or nothing.
    case importCalendar(CalendarImport)
    /// `days-off add`.
    case addDayOff(DayOffFields)
    /// `days-off rm`.
    case removeDayOff(id: Int64)
    /// `podcast add`: the podcast with its feed as just read (a name already taken is a conflict).
    case addPodcast(Podcast)
    /// `podcast refresh`: the feed of the podcast called `name`, as just read, replaces its stored episodes.
    case refreshPodcast(name: String, PodcastFeed, at: Date)
    /// `podcast rm`: an id, or a podcast's name (ignoring case).
    case removePodcast(String)
    /// Listening to the podcast called `name` stopped here (nil: its episode was heard to the end).
    case podcastPosition(name: String, PodcastResume?)

    /// Whether the edit changes alarms (the ones the API answers with an alarm).
    public var isAlarmEdit: Bool {
        switch self {
        case .addAlarm, .editAlarm, .removeAlarm, .skipNext: true
        default: false
        }
    }
}

/// What an edit left in the store: the row as saved (or as it was, for a removal).
public enum EditOutcome: Sendable, Hashable, Codable {
    case alarm(Alarm)
    case alarmRemoved(Alarm)
    case station(Station)
    case stationRemoved(Station)
    case programme(Programme)
    case programmeRemoved(Programme)
    case settings(AppSettings)
    case imported(ImportSummary)
    case dayOff(DayOff)
    case dayOffRemoved(DayOff)
    case podcast(Podcast)
    case podcastRemoved(Podcast)
}
