import Foundation

/// A search of the station directory as `aubade station search` and the phone page ask it: words of the name,
/// optionally a country, a tag and a codec, and how many results. Checked here, so every face refuses the same
/// input with the same sentence.
public struct DirectoryQuery: Sendable, Hashable {
    public static let limits = 1...100
    public static let defaultLimit = 20

    public var words: String
    /// ISO 3166-1 alpha-2, upper case, or nil.
    public var country: String?
    public var tag: String?
    public var codec: String?
    public var limit: Int

    public init(
        words: String, country: String? = nil, tag: String? = nil, codec: String? = nil, limit: Int = defaultLimit
    ) throws(ValidationError) {
        self.words = words.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        self.country = try country.map { text throws(ValidationError) in try DirectoryQuery.countryCode(text) }
        self.tag = try DirectoryQuery.word(tag, "--tag")
        self.codec = try DirectoryQuery.word(codec, "--codec")?.uppercased()
        guard DirectoryQuery.limits.contains(limit) else {
            throw ValidationError(
                "--limit \(limit) is out of range; ask for \(DirectoryQuery.limits.lowerBound) to \(DirectoryQuery.limits.upperBound) results."
            )
        }
        self.limit = limit
        guard !self.words.isEmpty || self.country != nil || self.tag != nil else {
            throw ValidationError("Say what to search for: a few words of the station's name, or --country or --tag.")
        }
        guard self.words.count <= 100 else {
            throw ValidationError("The search is \(self.words.count) characters long; at most 100 are allowed.")
        }
    }

    /// The query of `/json/stations/search`: the directory's own parameter names, broken stations hidden, the most
    /// played first, and always a limit (the directory's default is every match).
    public var parameters: [(name: String, value: String)] {
        var p: [(String, String)] = []
        if !words.isEmpty { p.append(("name", words)) }
        if let country { p.append(("countrycode", country)) }
        if let tag { p.append(("tag", tag)) }
        if let codec { p.append(("codec", codec)) }
        p += [("hidebroken", "true"), ("order", "clickcount"), ("reverse", "true"), ("limit", String(limit))]
        return p
    }

    static func countryCode(_ text: String) throws(ValidationError) -> String {
        let code = text.trimmingCharacters(in: .whitespaces).uppercased()
        guard code.count == 2, code.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
            throw ValidationError("--country '\(text)' is not a two-letter country code such as DE or FR.")
        }
        return code
    }

    private static func word(_ text: String?, _ option: String) throws(ValidationError) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 40,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw ValidationError("\(option) '\(text)' must be a word or two, at most 40 characters.") }
        return trimmed
    }

    /// A directory station id: the directory's UUID, in lower case.
    public static func stationID(_ text: String) throws(ValidationError) -> String {
        let id = text.trimmingCharacters(in: .whitespaces).lowercased()
        let groups = id.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
        guard groups == [8, 4, 4, 4, 12], id.unicodeScalars.allSatisfy({ $0 == "-" || $0.properties.isASCIIHexDigit }) else {
            throw ValidationError(
                "'\(text)' is not a station id of the directory; ids look like 960e57c5-0601-11e8-ae97-52543be04c81 (see aubade station search)."
            )
        }
        return id
    }
}
