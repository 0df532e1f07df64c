/// A saved radio station: a name the user picks, its stream address and an optional alternate address
/// that an alarm tries before falling back to the tone.
public struct Station: Hashable, Sendable, Codable {
    public var id: Int64?
    public var name: String
    public var url: StreamURL
    public var alternateURL: StreamURL?
    /// Where it was found, for a station saved from the public directory (`station add --from-directory`).
    public var directory: DirectoryLink?

    public init(
        id: Int64? = nil, name: String, url: StreamURL, alternateURL: StreamURL? = nil, directory: DirectoryLink? = nil
    ) throws(ValidationError) {
        self.id = id
        self.name = try Station.validName(name)
        self.url = url
        self.alternateURL = alternateURL
        self.directory = directory
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

    /// `text`'s first characters that fit in `count` Unicode scalars (the unit these rules count in): a character
    /// (an emoji, a letter and its accents) is kept whole or left out, never split.
    public static func cut(_ text: String, to count: Int) -> String {
        guard text.unicodeScalars.count > count else { return text }
        var kept = ""
        var used = 0
        for character in text {
            used += character.unicodeScalars.count
            guard used <= count else { break }
            kept.append(character)
        }
        return kept
    }

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

/// What the library keeps of a station saved from the public directory, beside its name and address: enough to
/// show it (codec, bitrate, country, homepage, its logo's file beside the database) and to find it again there.
/// Playing it never needs the directory.
public struct DirectoryLink: Sendable, Hashable, Codable {
    /// The directory's id of the station (a UUID, lower case).
    public var id: String
    public var codec: String
    /// kbps, 0 when unknown.
    public var bitrate: Int
    public var homepage: String
    /// ISO 3166-1 alpha-2, or empty.
    public var country: String
    /// The logo's file name in the library's logo folder ("<id>.png"), or nil.
    public var logo: String?

    public static let logoExtensions = ["png", "jpg", "gif", "ico", "webp"]

    public init(
        id: String, codec: String = "", bitrate: Int = 0, homepage: String = "", country: String = "", logo: String? = nil
    ) throws(ValidationError) {
        self.id = try DirectoryQuery.stationID(id)
        guard codec.unicodeScalars.count <= 16,
            codec.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "+" })
        else {
            throw ValidationError(
                "A directory station's codec '\(codec)' must be at most 16 upper-case letters, digits or +, such as MP3.")
        }
        guard (0...10_000).contains(bitrate) else {
            throw ValidationError("A directory station's bitrate \(bitrate) must be 0 (unknown) to 10000 kbps.")
        }
        guard homepage.isEmpty || (try? StreamURL(parsing: homepage)) != nil else {
            throw ValidationError("A directory station's homepage must be an http(s) address or empty.")
        }
        guard country.isEmpty || (country.count == 2 && country.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) })) else {
            throw ValidationError("A directory station's country '\(country)' must be a two-letter code such as FR.")
        }
        if let logo {
            // A file name in the logo folder and nothing else: 36 of [0-9a-f-] (a directory id's form) and an image
            // extension — never a path.
            let parts = logo.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].unicodeScalars.count == 36,
                parts[0].unicodeScalars.allSatisfy({ $0 == "-" || ("0"..."9").contains($0) || ("a"..."f").contains($0) }),
                DirectoryLink.logoExtensions.contains(String(parts[1]))
            else {
                throw ValidationError(
                    "A directory station's logo '\(logo)' must be a directory id and one of \(DirectoryLink.logoExtensions.joined(separator: ", ")), like \(self.id).png."
                )
            }
        }
        self.codec = codec
        self.bitrate = bitrate
        self.homepage = homepage
        self.country = country
        self.logo = logo
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, codec, bitrate, homepage, country, logo
    }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.refuseUnknown(in: decoder, known: CodingKeys.allCases.map(\.rawValue), what: "directory field")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            id: try c.decode(String.self, forKey: .id), codec: try c.decodeIfPresent(String.self, forKey: .codec) ?? "",
            bitrate: try c.decodeIfPresent(Int.self, forKey: .bitrate) ?? 0,
            homepage: try c.decodeIfPresent(String.self, forKey: .homepage) ?? "",
            country: try c.decodeIfPresent(String.self, forKey: .country) ?? "",
            logo: try c.decodeIfPresent(String.self, forKey: .logo))
    }
}
