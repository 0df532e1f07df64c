public import AubadeCore
public import Foundation
public import Logging

/// The ports the running clock works through (declared in AubadeCore's `Ports/`, docs/HOUSE-RULES.md §1–§3): `aubade run` hands it the real
/// adapters (`AubadeDaemon`), in-process tests the stand-ins of AubadeTesting (`FakeSound`, a real store on a temporary file,
/// `ManualClock`, `ManualJobs`, `FakePrecheck`, `FakeNetworkStatus`).
public struct ClockDependencies: Sendable {
    public var store: any ClockStore
    public var sound: any SoundPort
    public var time: any ClockTime
    public var jobs: any BackgroundJobs
    public var precheck: any PrecheckPort
    /// Read when a stream is about to start (Wi-Fi-only): the route of that moment, no polling.
    public var network: any NetworkStatus
    public var output: DaemonOutput
    /// Whether the kernel's clock is synchronised (R7).
    public var isClockSynchronised: @Sendable () -> Bool
    /// The system's time zone now (followed when the config names none).
    public var systemZone: @Sendable () -> TimeZone
    public var logger: Logger
    /// The kiosk screen's backlight, which night dimming turns down (`NullBacklight` where there is none).
    public var backlight: any Backlight
    /// Reads calendar sources for imports and refreshes; nil where the store keeps no calendars (the backup copy).
    public var calendars: (any CalendarFetcher)?
    /// Reads podcast feeds and downloads episodes for alarms; nil where the store keeps no cache (the backup copy):
    /// a `podcast:` alarm then starts on the tone.
    public var podcasts: (any PodcastFetcher)?
    /// The public station directory the pages search and save from; nil when the config turns it off.
    public var directory: (any StationDirectory)?
    /// The saved stations' logos beside the database; nil where the store keeps none (the backup copy).
    public var logos: (any StationLogoStore)?
    /// The GPIO outputs (a bed shaker, a lamp) the ladder's top step switches on; nil where there are none.
    public var outputs: (any OutputSwitches)?
    /// The microphone that proves the room heard a ring (`[verify] microphone`); nil where there is none.
    public var room: (any RoomListener)?

    public init(
        store: any ClockStore, sound: any SoundPort, time: any ClockTime, jobs: any BackgroundJobs,
        precheck: any PrecheckPort, network: any NetworkStatus, output: DaemonOutput,
        isClockSynchronised: @escaping @Sendable () -> Bool, systemZone: @escaping @Sendable () -> TimeZone,
        logger: Logger, backlight: any Backlight = NullBacklight(), calendars: (any CalendarFetcher)? = nil,
        podcasts: (any PodcastFetcher)? = nil, directory: (any StationDirectory)? = nil,
        logos: (any StationLogoStore)? = nil, outputs: (any OutputSwitches)? = nil, room: (any RoomListener)? = nil
    ) {
        self.room = room
        self.outputs = outputs
        self.podcasts = podcasts
        self.store = store
        self.sound = sound
        self.time = time
        self.jobs = jobs
        self.precheck = precheck
        self.network = network
        self.output = output
        self.isClockSynchronised = isClockSynchronised
        self.systemZone = systemZone
        self.logger = logger
        self.backlight = backlight
        self.calendars = calendars
        self.directory = directory
        self.logos = logos
    }
}

/// How this clock is set up (from the config).
public struct ClockOptions: Sendable {
    public var allowLoopback: Bool
    public var defaultZone: TimeZone
    /// The zone is the system's (not fixed by the config), so a change of /etc/localtime is followed.
    public var followsSystemZone: Bool
    public var shakeResponse: ShakeResponse
    /// The configured sound device: an alarm on another (the alternate, R19) says so in its history.
    public var primaryDevice: String?
    /// How imported calendars are refreshed (`[calendars]`).
    public var calendars: CalendarOptions
    /// Makes the link to the second waker (R35), on the clock's thread, as the clock starts; nil: no second waker
    /// (nothing is written for one).
    public var waker: (@Sendable () -> any WakerLink)?
    /// How long before each alarm's occurrence a pre-alarm notice is given, in seconds (`[mqtt] pre_alarm`);
    /// empty: none.
    public var preAlarmLeads: [Int]
    /// How often the podcasts' feeds are read again (`[podcasts] refresh`).
    public var podcastRefresh: Duration
    /// The sunrise of a new alarm that names none, in seconds (`[display] sunrise`; 0: none).
    public var sunriseSeconds: Int
    /// How an unanswered alarm climbs unless it has its own ladder (`[alarm] ladder`; on by default, as in the
    /// shipped configuration).
    public var ladder: LadderPlan
    /// When the microphone's daily self-test runs (`[verify] self_test_hour`); nil, or a clock without a microphone:
    /// never.
    public var selfTest: SelfTestSchedule?

    public init(
        allowLoopback: Bool, defaultZone: TimeZone, followsSystemZone: Bool,
        shakeResponse: ShakeResponse = ShakeResponse(), primaryDevice: String? = nil,
        waker: (@Sendable () -> any WakerLink)? = nil,
        calendars: CalendarOptions = CalendarOptions(), preAlarmLeads: [Int] = [],
        podcastRefresh: Duration = .seconds(21_600), sunriseSeconds: Int = 0, ladder: LadderPlan = .standard
    ) {
        self.ladder = ladder
        self.sunriseSeconds = sunriseSeconds
        self.podcastRefresh = podcastRefresh
        self.preAlarmLeads = preAlarmLeads
        self.primaryDevice = primaryDevice
        self.waker = waker
        self.calendars = calendars
        self.allowLoopback = allowLoopback
        self.defaultZone = defaultZone
        self.followsSystemZone = followsSystemZone
        self.shakeResponse = shakeResponse
    }
}

/// The `[calendars]` section: how often a calendar imported from a URL is fetched again, and how far ahead
/// open-ended recurrences are expanded (the clock expands them again from the cached copy when half of that has
/// passed).
public struct CalendarOptions: Sendable, Hashable {
    public var refresh: Duration
    public var horizonDays: Int

    public init(refresh: Duration = .seconds(86_400), horizonDays: Int = 400) {
        self.refresh = refresh
        self.horizonDays = horizonDays
    }
}
