/// A saved radio station: a name the user picks, its stream address and an optional alternate address
/// that an alarm tries before falling back to the tone.
public struct Station: Hashable, Sendable, Codable {
    public var id: Int64?
    public var name: String
    public var url: StreamURL
    public var alternateURL: StreamURL?

    public init(id: Int64? = nil, name: String, url: StreamURL, alternateURL: StreamURL? = nil) throws(ValidationError) {
        self.id = id
        self.name = try Station.validName(name)
        self.url = url
        self.alternateURL = alternateURL
    }

    /// The addresses an alarm tries, in order: the stream, then the alternate (R16).
    public var addresses: [StreamURL] { [url] + (alternateURL.map { [$0] } ?? []) }

    /// Stations keyed by id (unsaved ones, without an id, are left out).
    public static func byID(_ stations: [Station]) -> [Int64: Station] {
        Dictionary(stations.compactMap { s in s.id.map { ($0, s) } }, uniquingKeysWith: { first, _ in first })
    }

    /// 1–64 characters, no control characters; not "tone" and no "://", so a sound name stays unambiguous.
    public static func validName(_ raw: String) throws(ValidationError) -> String {
        let name = try Names.validated(raw, what: "Station name")
        guard name.lowercased() != "tone", !name.contains("://") else {
            throw ValidationError("Station name '\(name)' is reserved; pick a name that is not 'tone' and has no '://'.")
        }
        return name
    }
}

/// Shared rule for the names people give alarms, stations and programmes. It is stated in Unicode scalars (code
/// points), as JSON Schema counts a string, so the API's document can say exactly what it allows
/// (`maxLength` 64 and `Names.pattern`): at most 64 scalars as given, at least one that is not white space (by
/// Unicode's White_Space property), no control character (category Cc). Surrounding white space is dropped.
public enum Names {
    public static let maxLength = 64

    public static func validated(_ raw: String, what: String) throws(ValidationError) -> String {
        let scalars = raw.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { throw ValidationError("\(what) is empty; give it a few words.") }
        guard scalars.count <= maxLength else {
            throw ValidationError("\(what) is \(scalars.count) characters long; at most \(maxLength) are allowed.")
        }
        guard !scalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ValidationError("\(what) contains control characters; use plain text.")
        }
        return String(scalars[first...last])
    }
}
