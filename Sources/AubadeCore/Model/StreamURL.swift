public import Foundation

/// A radio stream address that passed the static checks of R32: http or https only, a host, no user-info,
/// at most 2 KB, no spaces or control characters. Address checks (loopback, link-local, multicast) depend on
/// what a name resolves to and are made by the stream source on every connection, not here.
public struct StreamURL: Hashable, Sendable, Codable, CustomStringConvertible {
    public static let maxLength = 2048
    public let text: String

    public init(parsing raw: String) throws(ValidationError) {
        let text = raw.trimmingSpaces
        guard !text.isEmpty else { throw ValidationError("The stream URL is empty; give an http:// or https:// address.") }
        guard text.utf8.count <= StreamURL.maxLength else {
            throw ValidationError("The stream URL is \(text.utf8.count) bytes long; at most \(StreamURL.maxLength) are accepted.")
        }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw ValidationError("The stream URL contains spaces or control characters; percent-encode them.")
        }
        guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased() else {
            throw ValidationError("'\(StreamURL.clip(text))' is not a URL; give an http:// or https:// address.")
        }
        guard scheme == "http" || scheme == "https" else {
            throw ValidationError("Stream URLs must use http or https, not '\(scheme)'.")
        }
        guard let host = parts.host, !host.isEmpty else {
            throw ValidationError("The stream URL '\(StreamURL.clip(text))' has no host name.")
        }
        guard parts.user == nil, parts.password == nil else {
            throw ValidationError("Stream URLs with a user name or password in them are refused.")
        }
        self.text = text
    }

    public var description: String { text }

    public var url: URL { URL(string: text)! }

    static func clip(_ s: String) -> String { s.count > 60 ? String(s.prefix(57)) + "..." : s }

    public init(from decoder: any Decoder) throws {
        try self.init(parsing: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(text)
    }
}
