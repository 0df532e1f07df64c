/// What a button press asks the clock to do. The service decides what it means in the current state
/// (e.g. `stop` while nothing rings does nothing).
public enum ButtonAction: Hashable, Sendable {
    case none
    case snooze
    case stop
    case playPause
    /// Start the sleep timer or extend it by this many minutes.
    case sleep(addMinutes: Int)
    case sleepCancel
    case volumeUp
    case volumeDown

    public static let sleepMinutesRange = 1...120

    /// The config-file form: "none", "snooze", "stop", "play-pause", "sleep+15", "sleep-cancel",
    /// "volume-up", "volume-down".
    public var name: String {
        switch self {
        case .none: "none"
        case .snooze: "snooze"
        case .stop: "stop"
        case .playPause: "play-pause"
        case .sleep(let minutes): "sleep+\(minutes)"
        case .sleepCancel: "sleep-cancel"
        case .volumeUp: "volume-up"
        case .volumeDown: "volume-down"
        }
    }

    public init(parsing text: String) throws(ValidationError) {
        let t = text.trimmingSpaces.lowercased()
        let fixed: [String: ButtonAction] = [
            "none": .none, "snooze": .snooze, "stop": .stop, "play-pause": .playPause,
            "sleep-cancel": .sleepCancel, "volume-up": .volumeUp, "volume-down": .volumeDown,
        ]
        if let action = fixed[t] {
            self = action
            return
        }
        if t.hasPrefix("sleep+"), let n = Int(t.dropFirst(6)), ButtonAction.sleepMinutesRange.contains(n) {
            self = .sleep(addMinutes: n)
            return
        }
        throw ValidationError(
            "Button action '\(text)' is unknown; use none, snooze, stop, play-pause, sleep+15 (1 to 120 minutes), sleep-cancel, volume-up or volume-down."
        )
    }
}
