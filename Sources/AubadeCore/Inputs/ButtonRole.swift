/// What a physical button is for. The raw value is the name used in the config file and in messages.
public enum ButtonRole: String, CaseIterable, Hashable, Sendable, Codable {
    case snooze
    case stop
    case playPause = "play-pause"
    case sleep
    case volumeUp = "volume-up"
    case volumeDown = "volume-down"
}
