/// What an alarm or the sleep timer plays: the built-in tone, a saved station, or a stream address.
public enum SoundSource: Hashable, Sendable, Codable, CustomStringConvertible {
    case tone
    case station(id: Int64)
    case stream(StreamURL)

    /// The `clockMusic` column: "tone", "station:<id>" or the URL itself.
    public var storageText: String {
        switch self {
        case .tone: "tone"
        case .station(let id): "station:\(id)"
        case .stream(let url): url.text
        }
    }

    public init(storageText text: String) throws(ValidationError) {
        if text == "tone" {
            self = .tone
        } else if text.hasPrefix("station:"), let id = Int64(text.dropFirst("station:".count)) {
            self = .station(id: id)
        } else {
            self = .stream(try StreamURL(parsing: text))
        }
    }

    /// Parses what a user typed: "tone", an http(s) URL, or a station name looked up by `stationNamed`.
    public init(userText text: String, stationNamed: (String) throws -> Station?) throws {
        let t = text.trimmingSpaces
        if t.lowercased() == "tone" {
            self = .tone
        } else if t.contains("://") {
            self = .stream(try StreamURL(parsing: t))
        } else if !t.isEmpty, let station = try stationNamed(t), let id = station.id {
            self = .station(id: id)
        } else {
            throw ValidationError(
                "Sound '\(t)' is neither tone, a saved station nor an http(s) URL; list stations with 'aubade station list'.",
                kind: t.isEmpty ? .malformed : .unprocessable)
        }
    }

    public var description: String { storageText }
}
