/// A new station as `aubade station add` and `POST /api/v1/stations` give it — JSON keys = CLI options:
/// `name` ↔ `--name`, `url` ↔ `--url`, `alternate` ↔ `--alternate`. Parsed by the same Core rules everywhere
/// (`StreamURL`, `Station.validName`), so every client refuses bad input with the same sentence.
/// Decoding refuses a key it does not know.
public struct StationFields: Sendable, Hashable, Codable {
    public var name: String?
    public var url: String?
    public var alternate: String?
    /// Where it was found in the public directory (`station add --from-directory` fills it in).
    public var directory: DirectoryLink?

    public init(name: String?, url: String?, alternate: String? = nil, directory: DirectoryLink? = nil) {
        self.name = name
        self.url = url
        self.alternate = alternate
        self.directory = directory
    }

    /// The station these fields describe (no id yet): the address first, then the alternate, then the name
    /// are checked, as `station add` always did.
    public func station() throws(ValidationError) -> Station {
        guard let name else { throw ValidationError("A station needs a name: add --name, e.g. --name FIP.") }
        guard let url else {
            throw ValidationError("A station needs an address: add --url with its http(s) stream or playlist URL.")
        }
        let address = try StreamURL(parsing: url)
        let alternateAddress = try alternate.map { text throws(ValidationError) in try StreamURL(parsing: text) }
        return try Station(name: name, url: address, alternateURL: alternateAddress, directory: directory)
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, url, alternate, directory
    }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.refuseUnknown(in: decoder, known: CodingKeys.allCases.map(\.rawValue), what: "station field")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decodeIfPresent(String.self, forKey: .name), url: try c.decodeIfPresent(String.self, forKey: .url),
            alternate: try c.decodeIfPresent(String.self, forKey: .alternate),
            directory: try c.decodeIfPresent(DirectoryLink.self, forKey: .directory))
    }
}

/// Refuses JSON keys a request type does not know: a typo such as `fadein` must not be ignored silently.
public enum StrictKeys {
    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Throws "Unknown <what> '<key>'; known fields are a, b, c." for the first key not in `known`, and a sentence
    /// for the first key given as null (a field is left out, never null: the API's document allows no null).
    public static func refuseUnknown(in decoder: any Decoder, known: [String], what: String) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        let keys = all.allKeys.sorted { $0.stringValue < $1.stringValue }
        if let unknown = keys.map(\.stringValue).first(where: { !known.contains($0) }) {
            throw ValidationError("Unknown \(what) '\(unknown)'; known fields are \(known.joined(separator: ", ")).")
        }
        if let null = try keys.first(where: { try all.decodeNil(forKey: $0) }) {
            throw ValidationError("The field '\(null.stringValue)' is null; leave it out instead.")
        }
    }
}
