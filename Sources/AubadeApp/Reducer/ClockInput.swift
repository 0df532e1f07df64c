public import AubadeCore
public import Foundation

/// Everything that happens to the running clock, from every face and every part of the daemon: it all enters
/// through `RunningClock.send(_:)` and is decided by `ClockState.reduce` to the end, without waiting; each input's
/// effects are carried out before the next is decided. Slow work an input asks for (an edit's commit, a download)
/// is handed off, and its result is decided later as an arrival of its own — other inputs are decided meanwhile.
public enum ClockInput: Sendable {
    /// The daemon starts: resume a ringing alarm or a snooze (R9), catch up a recent missed one (R6).
    /// `ringingChanged` is told when an alarm starts or stops sounding (the shake sensor is sampled only then);
    /// `ready` gets the summary line once the sound device has opened and taken a test write (R34). Answered with
    /// `.reply(.done(summary))`: how many alarms are enabled, and the next one.
    case start(ringingChanged: @Sendable (Bool) -> Void, ready: @Sendable (String) -> Void)
    /// The scheduler loop's turn (answered with `ClockOutput.turn`: when to come back).
    case turn
    /// A client's command — the control socket, the HTTP API, the kiosk — answered with `.reply`; with `follow`, a
    /// command that starts a sound also answers with that sound's events until it stops.
    case command(ClockCommand, follow: Bool)
    /// A calendar to download and import (a slow download never holds the clock: it runs off the clock's thread).
    case importCalendar(url: StreamURL, kind: CalendarImport.Kind, station: String?)
    /// A search of the public station directory (answered with `.directory`; asked off the clock's thread).
    case searchDirectory(DirectoryQuery)
    /// Saves the directory's station `id`, called `name` (default: its name there), as `station add
    /// --from-directory` does (looked up off the clock's thread; answered with `.reply(.edited)`).
    case addFromDirectory(id: String, name: String?)
    /// Follows the podcast whose feed is at `feed`, called `name` (default: the feed's title); the feed is read off
    /// the clock's thread (answered with `.reply(.edited)`).
    case addPodcast(feed: StreamURL, name: String?)
    /// The stored logo of saved station `id` (answered with `.logo`).
    case stationLogo(id: Int64)
    /// The calendar service's turn: imported calendars whose refresh is due (answered with `.wait`).
    case refreshCalendars
    /// The podcast service's turn: feeds whose reading is due (answered with `.wait`).
    case refreshPodcasts
    /// The directory service's turn: the saved directory stations looked up again when due (answered with `.wait`).
    case refreshDirectory
    /// A classified button press (`ButtonPanel`).
    case button(ButtonPanel.Command)
    /// A sustained shake (`ShakeDetector`).
    case shake
    /// What the sound engine reported.
    case sound(SoundEvent)
    /// A station check finished: the pre-alarm check (R20) or the look-ahead hours before.
    case stationChecked(StationCheck, alarm: Int64, occurrence: Date, sound: SoundSource, failure: String?)
    /// The check of a `podcast:` alarm finished (its feed read again, its episode downloaded, or why not).
    case episodeChecked(StationCheck, alarm: Int64, occurrence: Date, EpisodeCheck)
    /// The network changed.
    case network(NetworkSnapshot)
    /// What the microphone found of alarm `alarmID`'s occurrence: heard in the room, or not.
    case roomHeard(alarmID: Int64, occurrence: Date, RoomReport)
    /// What the microphone found of the daily self-test's chirp, run at `started`: heard in the room, or not.
    case selfTestHeard(started: Date, RoomReport)
    /// A standing warning set (or cleared, nil) by a face, e.g. the web server that cannot listen.
    case warning(key: String, text: String?, announce: Bool)
    /// A line for the daemon's output, e.g. where the web page listens.
    case announce(String, [String: any Sendable])
    /// The live state now and every change of it (answered with `.live`).
    case subscribeLive
    /// The home state now, every change of it and every event (answered with `.home`): the MQTT face.
    case subscribeHome
    /// The daemon stops: every sound ends, the backlight is put back.
    case shutdown
}

/// Which station check finished.
public enum StationCheck: Sendable {
    case precheck, lookahead
}

/// What the clock answers an input.
public enum ClockOutput: Sendable {
    case none
    case reply(ClockReply, events: AsyncStream<SoundEvent>?)
    case turn(RunningClock.Turn)
    case live(AsyncStream<LiveState>)
    case home(AsyncStream<HomeUpdate>)
    /// How long until the next calendar refresh is due.
    case wait(Duration)
    /// What the station directory found, the best-ranked first, each address once.
    case directory([DirectoryStation])
    /// A saved station's logo.
    case logo(StationLogo)

    /// The reply to a command (`.done` for inputs that have none).
    public var reply: ClockReply {
        if case .reply(let reply, _) = self { return reply }
        return .done("")
    }

    /// A turn's answer (nil for other inputs).
    public var turn: RunningClock.Turn? {
        if case .turn(let turn) = self { return turn }
        return nil
    }

    /// The live states (nil for other inputs).
    public var live: AsyncStream<LiveState>? {
        if case .live(let stream) = self { return stream }
        return nil
    }

    /// The home updates (nil for other inputs).
    public var home: AsyncStream<HomeUpdate>? {
        if case .home(let stream) = self { return stream }
        return nil
    }

    /// The events of the sound a followed command started.
    public var events: AsyncStream<SoundEvent>? {
        if case .reply(_, let events) = self { return events }
        return nil
    }
}
