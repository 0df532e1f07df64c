/// A saved radio station: a name the user picks, its stream address and an optional alternate address
/// that an alarm tries before falling back to the tone.
public struct Station: Hashable, Sendable {
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

    /// 1–64 characters, no control characters; not "tone" and no "://", so a sound name stays unambiguous.
    public static func validName(_ raw: String) throws(ValidationError) -> String {
        let name = try Names.validated(raw, what: "Station name")
        guard name.lowercased() != "tone", !name.contains("://") else {
            throw ValidationError("Station name '\(name)' is reserved; pick a name that is not 'tone' and has no '://'.")
        }
        return name
    }
}

/// Shared rule for the names people give alarms, stations and programmes.
public enum Names {
    public static let maxLength = 64

    public static func validated(_ raw: String, what: String) throws(ValidationError) -> String {
        let name = raw.trimmingSpaces
        guard !name.isEmpty else { throw ValidationError("\(what) is empty; give it a few words.") }
        guard name.count <= maxLength else {
            throw ValidationError("\(what) is \(name.count) characters long; at most \(maxLength) are allowed.")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ValidationError("\(what) contains control characters; use plain text.")
        }
        return name
    }
}
