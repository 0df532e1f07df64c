public import Foundation

/// A radio stream address that passed the static checks of R32: http or https only, a host, no user-info,
/// at most 2 KB, no spaces or control characters — the form `Grammar.streamURL` (printable ASCII; anything
/// else percent-encoded), which the API's document also states. Address checks (loopback, link-local,
/// multicast) depend on what a name resolves to and are made by the stream source on every connection, not here.
public struct StreamURL: Hashable, Sendable, Codable, CustomStringConvertible {
    public static let maxLength = 2048
    public let text: String

    public init(parsing text: String) throws(ValidationError) {
        guard !text.isEmpty else { throw ValidationError("The stream URL is empty; give an http:// or https:// address.") }
        guard text.utf8.count <= StreamURL.maxLength else {
            throw ValidationError("The stream URL is \(text.utf8.count) bytes long; at most \(StreamURL.maxLength) are accepted.")
        }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw ValidationError("The stream URL contains spaces or control characters; percent-encode them.")
        }
        guard text.unicodeScalars.allSatisfy(\.isASCII) else {
            throw ValidationError(
                "The stream URL has characters outside ASCII; percent-encode them (and write a host name in its xn-- form).")
        }
        let scheme = text.range(of: "://").map { text[..<$0.lowerBound].lowercased() }
        guard let scheme, !scheme.isEmpty else {
            throw ValidationError("'\(StreamURL.clip(text))' is not a URL; give an http:// or https:// address.")
        }
        guard scheme == "http" || scheme == "https" else {
            throw ValidationError("Stream URLs must use http or https, not '\(scheme)'.")
        }
        let rest = text[text.index(text.startIndex, offsetBy: scheme.count + 3)...]
        let authority = rest.prefix { !"/?#".contains($0) }
        guard !authority.contains("@") else {
            throw ValidationError("Stream URLs with a user name or password in them are refused.")
        }
        guard !authority.isEmpty, !authority.hasPrefix(":") else {
            throw ValidationError("The stream URL '\(StreamURL.clip(text))' has no host name.")
        }
        guard Grammar.matches(text, Grammar.streamURL), URL(string: text) != nil else {
            throw ValidationError("'\(StreamURL.clip(text))' is not a URL; give an http:// or https:// address.")
        }
        self.text = text
    }

    /// A URL read back from the database: it passed `init(parsing:)` when it was saved (perhaps by an older
    /// version, whose checks differed), so a stored station keeps playing whatever the checks are now.
    public init(stored text: String) throws(ValidationError) {
        guard !text.isEmpty else { throw ValidationError("The stream URL is empty; give an http:// or https:// address.") }
        self.text = text
    }

    public var description: String { text }

    /// As a `URL` (`init` checked that it is one).
    public var url: URL { URL(string: text) ?? URL(fileURLWithPath: "/") }

    static func clip(_ s: String) -> String { s.count > 60 ? String(s.prefix(57)) + "..." : s }

    public init(from decoder: any Decoder) throws {
        try self.init(parsing: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(text)
    }
}
