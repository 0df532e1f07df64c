public import AubadeCore

/// Deployment facts for one clock: where things are and how the hardware is wired. Read from
/// `config/aubade.toml` (every key documented there at its default); what a user changes at run time lives
/// in the database instead.
public struct Configuration: Equatable, Sendable {
    public struct Paths: Equatable, Sendable {
        public var database = "/var/lib/aubade/aubade.sqlite"
    }

    public struct HTTP: Equatable, Sendable {
        public var bind = "127.0.0.1"
        public var port = 8080
        /// Reading without a token from other machines too (off: only from the clock's own machine, R30).
        public var openReads = false
        /// More host names the clock answers to (the Host header check against DNS rebinding, R31).
        public var allowedHosts: [String] = []
    }

    public struct Audio: Equatable, Sendable {
        /// ALSA PCM name: "default", "hw:1,0", "plughw:CARD=Headphones", "null", "file:'/tmp/x.raw',raw".
        public var device = "default"
        /// Tried when `device` cannot be opened for 2 s (R19); empty = none.
        public var alternateDevice = ""
        /// Allow stream addresses on loopback (a local test server); off by default (R32).
        public var allowLocalStreams = false
        /// The highest bandwidth of an HLS station's variant the clock picks, kbit/s (a Pi on weak Wi-Fi does not
        /// starve on a 320 kbit/s one).
        public var hlsMaxKbps = 128
    }

    public struct Clock: Equatable, Sendable {
        /// tz database name for alarms without their own zone; empty = the system's.
        public var timeZone = ""
    }

    public struct AlarmDefaults: Equatable, Sendable {
        /// How an unanswered alarm climbs, unless it has its own (`alarm add/edit --ladder`): on by default.
        public var ladder = LadderPlan.standard
    }

    public struct Buttons: Equatable, Sendable {
        /// Each: a line name as `gpiofind` resolves it ("GPIO17"), "chip:offset" ("gpiochip0:17"), or "" for none.
        public var snooze = "GPIO17"
        public var stop = "GPIO27"
        public var playPause = "GPIO22"
        public var sleep = "GPIO23"
        public var volumeUp = ""
        public var volumeDown = ""
        public var activeLow = true
        /// "pull-up", "pull-down", "disable" or "as-is".
        public var bias = "pull-up"
        public var debounceMilliseconds = 30
        public var longPressMilliseconds = 1000
        /// What each button's short and long press does (`[buttons.short_press]`, `[buttons.long_press]`); a
        /// role missing from `long` does on a long press what its short press does.
        public var mapping = ButtonMapping.standard
    }

    public struct Shake: Equatable, Sendable {
        /// "none", "iio", "evdev" or "gpio" (a vibration switch).
        public var source = "none"
        /// iio: "/sys/bus/iio/devices/iio:device0"; evdev: "/dev/input/event0"; gpio: a line as for buttons.
        /// Empty: the first device of that kind found.
        public var device = ""
        /// Movement that counts toward a shake: RMS distance of the acceleration from its 0.5-s mean, in m/s².
        public var threshold = 4.0
        /// How long movement must be sustained, in seconds (R15).
        public var sustainSeconds = 1.5
        public var sampleRateHz = 50
        /// Vibration switch: pulses within `pulseWindowSeconds` that count as movement.
        public var pulsesPerWindow = 4
        public var pulseWindowSeconds = 0.5
        /// What a shake does to the ringing alarm (`on_shake_to_stop_alarm`, `on_other_alarm`).
        public var response = ShakeResponse()
    }

    public struct Display: Equatable, Sendable {
        /// The kiosk screen's backlight that night dimming turns down: "auto" (the one under
        /// /sys/class/backlight, if any), a device name there ("rpi_backlight", "10-0045"), or "none".
        public var backlight = "auto"
        /// The sunrise of a new alarm made without `--sunrise` (`sunrise`, "20m"), in seconds: 0 is none.
        public var sunriseSeconds = 0
    }

    public struct Calendars: Equatable, Sendable {
        /// How often a calendar imported from an http(s) URL is fetched again, in seconds (15m to 30 days).
        public var refreshSeconds = 86_400
        /// How many days ahead recurring events without an end are expanded (14 to 3660).
        public var horizonDays = 400
    }

    /// The Home Assistant face over MQTT: off while `broker` is empty.
    public struct MQTT: Equatable, Sendable {
        /// "mqtt://host:port" or "mqtts://host:port" (`BrokerAddress`); empty: no MQTT face.
        public var broker = ""
        public var username = ""
        /// A file whose first line is the password (kept out of the config, which anyone may read).
        public var passwordFile = ""
        /// The authority TLS trusts (empty: the system's).
        public var caFile = ""
        /// Empty: "aubade-<host name>-<six characters of /etc/machine-id>".
        public var clientID = ""
        /// Where the clock's states and commands live. Empty: "aubade/<client id>".
        public var topicPrefix = ""
        public var discoveryPrefix = "homeassistant"
        /// Seconds before each alarm that the `pre_alarm` event is sent (a wake-up light fading up).
        public var preAlarmSeconds = [900]
        /// The device's name in Home Assistant. Empty: "Aubade <host name>".
        public var deviceName = ""
    }

    /// The podcasts followed: how often the running clock reads their feeds again.
    public struct Podcasts: Equatable, Sendable {
        /// Seconds between two readings of a feed (15m to 720h).
        public var refreshSeconds = 21_600
    }

    /// The public station directory (radio-browser) that `station search` asks.
    public struct Directory: Equatable, Sendable {
        public var enabled = true
        /// Base addresses of directory servers ("https://de2.api.radio-browser.info"), tried in a random order;
        /// empty: the servers the directory names in DNS.
        public var servers: [String] = []
    }

    /// `[outputs.shaker]`, `[outputs.lamp]`: GPIO output lines the alarms switch. Off ("") unless configured:
    /// a clock never drives a pin nobody wired.
    public struct Outputs: Equatable, Sendable {
        public struct Line: Equatable, Sendable {
            /// A line name ("GPIO16"), "chip:offset", or "" for none.
            public var line = ""
            /// On pulls the line low.
            public var activeLow = false
            public var pattern: OutputPattern

            public init(line: String = "", activeLow: Bool = false, pattern: OutputPattern) {
                self.line = line
                self.activeLow = activeLow
                self.pattern = pattern
            }
        }

        public var shaker = Line(pattern: .pulse(onMilliseconds: 500, offMilliseconds: 500))
        public var lamp = Line(pattern: .steady)

        public subscript(name: OutputName) -> Line {
            get {
                switch name {
                case .shaker: shaker
                case .lamp: lamp
                }
            }
            set {
                switch name {
                case .shaker: shaker = newValue
                case .lamp: lamp = newValue
                }
            }
        }
    }

    /// The microphone that proves the room heard an alarm, and its daily self-test: off while `microphone` is empty.
    public struct Verify: Equatable, Sendable {
        /// The ALSA capture device ("hw:1,0", "plughw:CARD=Mic"); empty: no microphone, no room check.
        public var microphone = ""
        /// The local hour (8 to 20) from which the daily self-test — a short quiet chirp, listened for — runs.
        public var selfTestHour = 14
    }

    public var paths = Paths()
    public var http = HTTP()
    public var audio = Audio()
    public var clock = Clock()
    public var alarm = AlarmDefaults()
    public var buttons = Buttons()
    public var shake = Shake()
    public var display = Display()
    public var calendars = Calendars()
    public var mqtt = MQTT()
    public var directory = Directory()
    public var podcasts = Podcasts()
    public var outputs = Outputs()
    public var verify = Verify()

    public init() {}
}
