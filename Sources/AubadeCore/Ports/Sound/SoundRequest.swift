/// Names one sound the engine was asked to play; its events carry it.
public struct SoundID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public let value: Int

    public init(_ value: Int) { self.value = value }

    public static func < (a: SoundID, b: SoundID) -> Bool { a.value < b.value }
    public var description: String { "sound \(value)" }
}

/// What to play, and how it ranks against what else plays (the engine's rule, not the caller's):
/// - an alarm pre-empts the radio and any chime (they end `preempted`) without reopening the device; a new
///   alarm replaces the sounding one without a silent moment (R13);
/// - a chime sounds over the radio (ducked beneath it); a chime or the radio asked for while an alarm sounds
///   is refused at once (R14: nothing lowers an alarm);
/// - a new radio sound replaces the radio.
public struct SoundRequest: Sendable, Hashable {
    public enum Priority: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
        case radio = 1, chime = 2, alarm = 3

        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
        public var description: String {
            switch self {
            case .radio: "radio"
            case .chime: "chime"
            case .alarm: "alarm"
            }
        }
    }

    public enum Content: Sendable, Hashable {
        /// A built-in tone (R17: no curl, no mpg123 on its path).
        case tone(ToneName)
        /// A station's addresses in order (primary, alternate).
        case stations([StreamURL])
        /// A podcast's episode: a file downloaded before (an alarm), or its address streamed (the radio). It ends
        /// where the episode does.
        case episode(EpisodeAudio)

        /// Whether playing it fetches from the network (what Wi-Fi-only refuses off Wi-Fi).
        public var streams: Bool {
            switch self {
            case .tone: false
            case .stations(let urls): !urls.isEmpty
            case .episode(let audio): if case .stream = audio.origin { true } else { false }
            }
        }
    }

    /// The supervised fallback of an alarm (R16): when no verified audio of the stations reaches the card,
    /// the tone plays at `toneVolume`; `preselected` (a failed pre-check, Wi-Fi-only) starts on the tone.
    public struct Fallback: Sendable, Hashable {
        public var tone: ToneName
        public var toneVolume: Int
        public var preselected: String?

        public init(tone: ToneName, toneVolume: Int, preselected: String? = nil) {
            self.tone = tone
            self.toneVolume = toneVolume
            self.preselected = preselected
        }
    }

    public var priority: Priority
    public var content: Content
    /// 0–100; stations fade in to it from an audible level when `fadeIn` is set (R18).
    public var volume: Int
    public var fadeIn: Duration
    /// With stations: supervise them and fall back to the tone (alarms). Without: a station that fails for
    /// good ends the sound `failed` (the radio at bedtime: silence beats a beeping tone).
    public var fallback: Fallback?
    /// Plays at most this long from its start — audio written or wall time, whichever comes first, so a
    /// station that never connects still ends (`--for`).
    public var limit: Duration?
    public var allowLoopback: Bool

    public init(
        priority: Priority, content: Content, volume: Int, fadeIn: Duration = .zero, fallback: Fallback? = nil,
        limit: Duration? = nil, allowLoopback: Bool = false
    ) {
        self.priority = priority
        self.content = content
        self.volume = volume
        self.fadeIn = fadeIn
        self.fallback = fallback
        self.limit = limit
        self.allowLoopback = allowLoopback
    }

    /// The level a fade-in starts from: clearly audible, never silence (R18).
    public var fadeStartVolume: Int { fadeIn > .zero ? max(10, volume / 2) : volume }

    /// A tone or chime.
    public static func tone(_ tone: ToneName, priority: Priority, volume: Int, limit: Duration? = nil) -> SoundRequest {
        SoundRequest(priority: priority, content: .tone(tone), volume: volume, limit: limit)
    }

    /// The microphone's quiet chirp (the room check's self-test, the clock's and `aubade verify microphone`'s): the
    /// chime, at radio priority, cut short after 8 s.
    public static func roomChirp(volume: Int = 40) -> SoundRequest {
        .tone(.chime, priority: .radio, volume: volume, limit: .seconds(8))
    }
}

/// A podcast episode as the engine plays it.
public struct EpisodeAudio: Sendable, Hashable {
    public enum Origin: Sendable, Hashable {
        /// The file the episode was downloaded to (an alarm plays this: a slow or dead feed cannot delay it).
        case file(path: String)
        /// The episode's own address, fetched while it plays (from `fromByte` on, with an HTTP range).
        case stream(StreamURL)
    }

    public var origin: Origin
    /// Where to begin, in bytes of the episode's file: where the last listening stopped, or 0.
    public var fromByte: Int64
    public var title: String

    public init(origin: Origin, fromByte: Int64 = 0, title: String) {
        self.origin = origin
        self.fromByte = max(0, fromByte)
        self.title = title
    }
}
