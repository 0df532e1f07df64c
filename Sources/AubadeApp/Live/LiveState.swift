public import Foundation

/// What the pages show live (the phone page, the kiosk), pushed by `RunningClock.liveUpdates()` and the API's
/// server-sent events at once and then on every change — so pages never poll. Times are Unix seconds.
public struct LiveState: Codable, Sendable, Hashable {
    public struct AlarmRef: Codable, Sendable, Hashable {
        public var id: Int64
        public var name: String
    }

    /// The ringing group (R38) and whether it is heard — or a ring test (`test`), which sounds and is stopped
    /// like an alarm but has nothing to snooze.
    public struct Ringing: Codable, Sendable, Hashable {
        public var alarms: [AlarmRef]
        public var test: Bool
        public var source: String
        /// Heard: the sound reached the card (R16); false while it starts or while the device fails.
        public var audible: Bool
        /// Why nothing is heard (the device failed), when that is known.
        public var notAudible: String?
        public var since: Date
    }

    public struct Radio: Codable, Sendable, Hashable {
        /// "sleep timer", "radio", "reserved programme …".
        public var kind: String
        public var source: String
        /// "connecting", "playing" or "not playing" (with `problem`).
        public var state: String
        public var problem: String?
        public var title: String?
        /// When the sleep timer ends (whole seconds).
        public var endsAt: Date?
        public var volume: Int
        /// The saved station playing, if it is one: the kiosk shows its logo (`/stations/{id}/logo`).
        public var stationId: Int64? = nil
    }

    public struct Next: Codable, Sendable, Hashable {
        public var id: Int64
        public var name: String
        public var at: Date
    }

    public var now: Date
    public var zone: String
    public var ringing: Ringing?
    public var radio: Radio?
    public var next: Next?
    /// Standing warnings, one sentence each.
    public var warnings: [String]
    public var clockSynchronised: Bool
    /// Whether the kiosk's page shows its night face (`KioskDisplay`); never while anything rings.
    public var dimmed: Bool
    /// The face's state (`FacePlan`): "day", "night", "awake", "sunrise", "ringing" or "off" (night dimming off).
    public var face: String
    /// The sunrise the face shows, while one runs.
    public var sunrise: Sunrise?
    /// The pairing code being shown — sent only to the clock's own machine (the kiosk).
    public var pairing: PairingCode?
    /// The alarm whose wake-up check asks "Are you up?" now (the kiosk shows the question).
    public var wakeCheck: AlarmRef? = nil
    /// The outputs this clock holds (the bed shaker, the lamp), in that order, and whether each is on.
    public var outputs: [Output] = []

    public struct Output: Codable, Sendable, Hashable {
        public var name: String
        public var on: Bool
    }

    /// An alarm's sunrise on the kiosk's face: the alarm, its time, when the sunrise began, how far it has come
    /// (0…1000), the page's background and digits ("#rrggbb") and the backlight's level.
    public struct Sunrise: Codable, Sendable, Hashable {
        public var alarmId: Int64
        public var at: Date
        public var startedAt: Date
        public var permille: Int
        public var sky: String
        public var ink: String
        public var backlight: Int
    }

    /// Whether anything but the time differs (a new state is published only then).
    public func differsApartFromTime(_ other: LiveState) -> Bool {
        var a = self, b = other
        a.now = .distantPast
        b.now = .distantPast
        return a != b
    }

    /// The state without what only the clock's own machine may see.
    public var forOtherMachines: LiveState {
        var copy = self
        copy.pairing = nil
        return copy
    }
}
