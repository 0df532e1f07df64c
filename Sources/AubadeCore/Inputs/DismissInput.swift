/// What the user stopped an alarm with, as the event history and the morning report name it.
public enum DismissInput: String, CaseIterable, Hashable, Sendable, Codable {
    /// A stop (or snooze-then-stop) button on the clock.
    case button
    /// A sustained shake of the clock.
    case shake
    /// `aubade` on the command line.
    case cli
    /// The web page, the kiosk or the JSON API.
    case api
    /// Home Assistant, or another MQTT client, through the MQTT face.
    case mqtt
}
