public import AubadeCore
import Foundation

/// Everything a client may ask of the running clock: the one way in, whoever asks (the control socket, the
/// HTTP API, MQTT). Each is carried out on the clock's own thread, in arrival order, and answers only after
/// its change is committed (R26) — with a `ClockReply`, or a `ClockError` whose sentence the user sees.
public enum ClockCommand: Sendable, Hashable, Codable {
    /// What the clock is doing (read-only).
    case status
    /// Dismisses the ringing alarm, or alarm `alarm` (also its pending snooze).
    case stop(alarm: Int64?, by: DismissInput)
    case snooze(alarm: Int64?, by: DismissInput)
    /// Starts the sleep timer for `seconds` (default: the sleepDuration setting) on `source` (tone, a station
    /// name, a URL; default: the first saved station).
    case sleep(seconds: Int?, source: String?)
    /// Starts the sleep timer until programme `programme` ends (nil: the programme on air — on `source`'s station
    /// when that is a station), playing `source` (default: the programme's station). Refused when the programme
    /// is not on air.
    case sleepUntilEnd(programme: Int64?, source: String?)
    case sleepExtend(minutes: Int)
    case sleepCancel
    /// Listens to `source` now for `seconds` (nil: until stopped) at `volume`.
    case play(source: String, seconds: Int?, volume: Int?)
    /// Stops the radio (listening, sleep timer, reservation).
    case stopRadio
    /// Sets the playing radio's volume, 1 to 100.
    case radioVolume(Int)
    /// Rings an alarm's sound now through the whole fallback path, to test the setup.
    case ring(RingTest)
    /// Stops a sound a client started and follows (Ctrl-C in `aubade play` / `ring`).
    case stopSound(SoundID)
    /// Another process changed the database: read it again.
    case reload
    /// A change to the stored alarms, stations, programmes or settings (`Store.apply`): answered with what
    /// was saved, after the commit, with the clock already running on it (R26).
    case edit(ClockEdit)
    /// A question about what the clock holds (read-only).
    case query(ClockQuery)
    /// A 6-digit pairing code, valid for 2 minutes, replacing any earlier one (for the kiosk to show).
    case pairingCode
    /// Trades a pairing code for a new device token called `name`.
    case pair(code: String, name: String)
    /// A touch on the kiosk: its screen is bright for a while, even inside the night-dimming hours.
    case displayWake
    /// Switches an output (the bed shaker, the lamp) on or off by hand — the kiosk's, the phone page's or Home
    /// Assistant's switch: it holds until an alarm starts or stops ringing, which then decides again.
    case output(OutputName, on: Bool)
}

extension ClockCommand {
    /// Whether the sound it starts ends when the client that follows it goes away (listening and ring tests
    /// do; a sleep timer does not).
    public var endsWithClient: Bool {
        switch self {
        case .play, .ring: true
        default: false
        }
    }
}

/// `aubade ring`: an alarm (`alarm`) or a source, for `seconds`, at `volume`.
public struct RingTest: Sendable, Hashable, Codable {
    public var alarm: Int64?
    public var source: String?
    public var seconds: Int
    public var volume: Int?

    public init(alarm: Int64?, source: String?, seconds: Int, volume: Int?) {
        self.alarm = alarm
        self.source = source
        self.seconds = seconds
        self.volume = volume
    }

    public static let secondsRange = 1...3600
}

/// What a command gives back.
public enum ClockReply: Sendable, Codable {
    /// Done; one sentence for the user.
    case done(String)
    case status(DaemonStatus)
    /// A sound started (`play`, `ring`, `sleep`): its id, what it plays, and a sentence.
    case sound(SoundID, label: String, message: String)
    /// An edit was committed: what was saved.
    case edited(EditResult)
    /// A query's answer.
    case answer(ClockAnswer)
    /// A new pairing code.
    case pairingCode(PairingCode)
    /// A new device token, to be shown once.
    case paired(NewToken)
    /// The kiosk's screen as it is now.
    case display(dimmed: Bool)

    /// The reply's sentence, if it has one.
    public var message: String? {
        switch self {
        case .done(let text): text
        case .sound(_, _, let text): text
        case .status, .edited, .answer, .pairingCode, .paired, .display: nil
        }
    }
}

/// A command the clock refused or could not carry out: one sentence, and its kind (which decides the exit
/// code of the CLI and the HTTP status).
public struct ClockError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The input is wrong (a value out of range, an unknown word): exit 2, HTTP 400.
        case invalid
        /// The input has its form but names what is not there or cannot be used (a time zone this machine does
        /// not know, a station that is not saved, a calendar that cannot be read): exit 2, HTTP 422.
        case unprocessable
        /// What the input names cannot be reached or read now (a calendar's address answers 404, is refused by
        /// R32 or Wi-Fi-only): exit 1, like a fault the person did not type, and HTTP 422, as no input may make a 5xx.
        case unavailable
        /// It names something that does not exist: exit 2, HTTP 404.
        case notFound
        /// The input clashes with what is stored (a name taken, a station an alarm plays): exit 2, HTTP 409.
        case conflict
        /// Not now (nothing rings to stop, an alarm rings so the radio may not): exit 1, HTTP 409.
        case refused
        /// A wrong or expired pairing code: exit 1, HTTP 401 (and it counts as a failed attempt).
        case unauthorized
        /// The clock failed to do it (the store, the device): exit 1, HTTP 500.
        case failed
        /// A server the clock asks on the person's behalf — the public station directory — did not answer: exit 1,
        /// HTTP 502.
        case upstream
        /// What it needs is turned off in the config (`[directory] enabled = false`): exit 1, HTTP 503.
        case off
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// The store's refusal or failure as the clock answers it: a bad value is `invalid`, an unknown id
    /// `notFound`, a clash with stored rows `conflict`; a file that cannot be changed (read-only, the backup
    /// copy) or fails is `failed`.
    public init(_ error: StoreError) {
        switch error {
        case .invalid: self.init(.invalid, error.description)
        case .unprocessable: self.init(.unprocessable, error.description)
        case .notFound: self.init(.notFound, error.description)
        case .conflict: self.init(.conflict, error.description)
        case .unreadable, .schemaTooNew, .cannotOpen, .invalidRow, .sqlite, .readOnly: self.init(.failed, error.description)
        }
    }

    /// A validation sentence as the clock answers it: `invalid`, or `unprocessable` when the value had its form.
    public init(_ error: ValidationError) {
        self.init(error.kind == .unprocessable ? .unprocessable : .invalid, error.message)
    }

    /// A calendar that could not be read as the clock answers it: one that is not iCalendar, or a file that is
    /// not there, is `unprocessable` (the source had its form; what it names cannot be used); one that could not
    /// be downloaded is `unavailable` — the address the person gave names nothing usable now, the clock itself
    /// did not fail.
    public init(_ error: CalendarFetchError) {
        switch error.kind {
        case .invalid: self.init(.unprocessable, error.message)
        case .failed: self.init(.unavailable, error.message)
        }
    }
}
