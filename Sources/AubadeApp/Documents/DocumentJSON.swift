public import Foundation

/// The one JSON form of every document the clock gives out — `aubade … --json`, the HTTP API and the control
/// socket's lines (`ControlProtocol`) carry the same bytes for the same data: keys sorted, slashes unescaped,
/// dates as Unix seconds. Text is JSON-escaped as it is (a `<script>` label stays text: the pages insert it as
/// text, never as markup).
public enum DocumentJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    /// `value` as JSON; our own plain documents always encode.
    public static func data(_ value: some Encodable) -> Data {
        (try? encoder().encode(value)) ?? Data("{}".utf8)
    }
}

/// A JSON bool, number or string (a setting's value, a field of a one-line answer).
public enum JSONScalar: Codable, Sendable, Hashable {
    case bool(Bool), int(Int), double(Double), string(String)

    /// A value as `SettingKey.jsonValue` gives it: Bool, Int, else its text.
    public init(_ value: any Sendable) {
        switch value {
        case let b as Bool: self = .bool(b)
        case let i as Int: self = .int(i)
        case let d as Double: self = .double(d)
        default: self = .string("\(value)")
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int.self) {
            self = .int(i)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else {
            self = .string(try c.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        }
    }
}
