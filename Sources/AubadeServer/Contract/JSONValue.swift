import Foundation

/// A JSON value as JSON Schema sees it: whole numbers kept exact (an id is an `Int64`), any other number a
/// `Double`. Read with Foundation's `JSONDecoder`, so what it takes as JSON is what the routes' own decoding
/// takes.
enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// `data` as one JSON value; nil when it is not JSON.
    static func parse(_ data: Data) -> JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: data) }

    /// JSON Schema's name for the value's type ("integer" for a number with nothing after the point).
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .number(let n): n.rounded(.towardZero) == n && n.isFinite ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// JSON Schema's equality (for `enum` and `const`): 1 and 1.0 are the same number, objects compare by
    /// their members whatever their order.
    func isSame(as other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.isSame(as: $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { value.isSame(as: $0) } ?? false }
        default:
            guard let order = JSONValue.compare(self, other) else { return false }
            return order == 0
        }
    }

    /// For two numbers, -1, 0 or 1 as the first is less than, equal to or greater than the second, exactly
    /// (an `Int64` near 2^63 is not rounded to a `Double` to be compared); nil unless both are numbers.
    static func compare(_ a: JSONValue, _ b: JSONValue) -> Int? {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.number(let x), .number(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.number(let x), .integer(let y)): return compare(x, y)
        case (.integer(let x), .number(let y)): return -compare(y, x)
        default: return nil
        }
    }

    private static func compare(_ x: Double, _ y: Int64) -> Int {
        if x >= 0x1p63 { return 1 }
        if x < -0x1p63 { return -1 }
        if x.rounded(.towardZero) == x, let exact = Int64(exactly: x) { return exact < y ? -1 : (exact == y ? 0 : 1) }
        // Not a whole number, so at most 2^52 in size, where every Int64 it can be near is exact as a Double.
        let yy = Double(y)
        return x < yy ? -1 : 1
    }
}

extension JSONValue: Decodable {
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let bool = try? value.decode(Bool.self) {
                self = .bool(bool)
            } else if let integer = try? value.decode(Int64.self) {
                self = .integer(integer)
            } else if let number = try? value.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try value.decode(String.self))
            }
        }
    }
}
