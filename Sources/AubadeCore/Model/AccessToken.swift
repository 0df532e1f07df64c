public import Foundation

/// A device token for the HTTP API (R30): what the store keeps of it — never the token itself, only its
/// SHA-256 (`hash`, lowercase hex). The token is shown once, when it is made.
public struct AccessToken: Sendable, Hashable, Codable {
    public var id: Int64
    public var name: String
    /// SHA-256 of the token's UTF-8 text, 64 lowercase hex digits.
    public var hash: String
    public var createdAt: Date
    /// When a request last used it (noted at most once an hour, so reads do not write, R29).
    public var lastUsedAt: Date?

    public init(id: Int64, name: String, hash: String, createdAt: Date, lastUsedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.hash = hash
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    /// A token's name: like an alarm's, 1–64 characters of plain text.
    public static func validName(_ raw: String) throws(ValidationError) -> String {
        try Names.validated(raw, what: "Token name")
    }
}
