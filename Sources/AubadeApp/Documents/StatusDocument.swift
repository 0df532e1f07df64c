import Foundation

/// `aubade status --json` and `GET /api/v1/status`: the running clock's `DaemonStatus` plus `"running": true`.
public struct StatusDocument: Encodable, Sendable {
    public var status: DaemonStatus

    public init(_ status: DaemonStatus) { self.status = status }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        try status.encode(to: encoder)
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(true, forKey: Key(stringValue: "running"))
    }
}
