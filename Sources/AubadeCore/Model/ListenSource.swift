/// What a user asks to listen to (`aubade play`, the page's player): a built-in tone by name, or a sound
/// source (a saved station by name, an http(s) URL). Parsed the same way by the CLI and the running clock.
public enum ListenSource: Hashable, Sendable {
    case tone(ToneName)
    case sound(SoundSource)

    /// `tone`, `tone:classic`, `tone:chime`, `tone:rising`, a saved station's name, `podcast:<name>[#n]`, or a URL.
    public init(
        userText text: String, stationNamed: (String) throws -> Station?, podcastNamed: (String) throws -> Podcast?
    ) throws {
        let t = text.trimmingSpaces.lowercased()
        if t == "tone" {
            self = .tone(.classic)
        } else if t.hasPrefix("tone:") {
            guard let tone = ToneName(rawValue: String(t.dropFirst(5))) else {
                throw ValidationError(
                    "Unknown tone '\(t.dropFirst(5))'; use tone, tone:classic, tone:chime or tone:rising.", kind: .unprocessable)
            }
            self = .tone(tone)
        } else {
            self = .sound(try SoundSource(userText: text, stationNamed: stationNamed, podcastNamed: podcastNamed))
        }
    }
}
