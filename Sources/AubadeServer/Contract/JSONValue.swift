import Foundation

/// A JSON value as JSON Schema sees it: whole numbers kept exact (an id is an `Int64`), any other number a
/// `Double`. Read by `parse`, a strict RFC 8259 reader of its own (Foundation's `JSONDecoder` through
/// `Decodable` is ten times slower here, and the checker reads every answer): what it takes is what the routes'
/// `JSONDecoder` takes — a test holds the two to the same verdicts at the edges (lone surrogates, leading zeros,
/// numbers too large for a `Double`, nesting deeper than 512).
enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// `data` as one JSON value; nil when it is not JSON.
    static func parse(_ data: Data) -> JSONValue? {
        data.withUnsafeBytes { raw in
            var reader = JSONReader(bytes: raw.bindMemory(to: UInt8.self))
            return reader.document()
        }
    }

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

/// Reads one JSON text (RFC 8259) from UTF-8 bytes; nil at the first thing that is not JSON. Like JSONDecoder,
/// it also takes a comma after the last member or item.
private struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0
    var depth = 0
    /// As deep as Foundation's reader goes.
    static let maxDepth = 512

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func document() -> JSONValue? {
        // A UTF-8 byte order mark is passed over, as JSONDecoder does.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { at = 3 }
        guard let value = value() else { return nil }
        skipSpace()
        return at == bytes.count ? value : nil
    }

    private mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard at + count <= bytes.count else { return nil }
        for i in 0..<count where bytes[at + i] != word.utf8Start[i] { return nil }
        at += count
        return value
    }

    private mutating func value() -> JSONValue? {
        skipSpace()
        guard at < bytes.count else { return nil }
        switch bytes[at] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func object() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= JSONReader.maxDepth else { return nil }
        at += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
            at += 1
            return .object(members)
        }
        while true {
            skipSpace()
            if !members.isEmpty, at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                at += 1
                return .object(members)
            }
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return nil }
            at += 1
            guard let member = value() else { return nil }
            if members[key] == nil { members[key] = member }
            skipSpace()
            guard at < bytes.count else { return nil }
            if bytes[at] == UInt8(ascii: ",") {
                at += 1
            } else if bytes[at] == UInt8(ascii: "}") {
                at += 1
                return .object(members)
            } else {
                return nil
            }
        }
    }

    private mutating func array() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= JSONReader.maxDepth else { return nil }
        at += 1
        var items: [JSONValue] = []
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
            at += 1
            return .array(items)
        }
        while true {
            skipSpace()
            if !items.isEmpty, at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                at += 1
                return .array(items)
            }
            guard let item = value() else { return nil }
            items.append(item)
            skipSpace()
            guard at < bytes.count else { return nil }
            if bytes[at] == UInt8(ascii: ",") {
                at += 1
            } else if bytes[at] == UInt8(ascii: "]") {
                at += 1
                return .array(items)
            } else {
                return nil
            }
        }
    }

    /// A string from its opening quote: raw UTF-8 (valid, no control character) and escapes, a surrogate pair
    /// only whole.
    private mutating func string() -> String? {
        at += 1
        var out: [UInt8] = []
        while at < bytes.count {
            let byte = bytes[at]
            switch byte {
            case UInt8(ascii: "\""):
                at += 1
                return String(validating: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                at += 1
                guard at < bytes.count else { return nil }
                let escaped = bytes[at]
                at += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard var unit = hex4() else { return nil }
                    if (0xD800...0xDBFF).contains(unit) {
                        guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u")
                        else { return nil }
                        at += 2
                        guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(unit) {
                        return nil
                    }
                    guard let scalar = Unicode.Scalar(unit) else { return nil }
                    out.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            case 0x00..<0x20:
                return nil
            default:
                out.append(byte)
                at += 1
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard at + 4 <= bytes.count else { return nil }
        var unit: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            unit = unit << 4 | UInt32(digit)
            at += 1
        }
        return unit
    }

    /// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?: an `Int64` when whole and in range, else a finite `Double`.
    private mutating func number() -> JSONValue? {
        let start = at
        func digits() -> Int {
            let first = at
            while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
            return at - first
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < bytes.count else { return nil }
        if bytes[at] == UInt8(ascii: "0") {
            at += 1
        } else if digits() == 0 {
            return nil
        }
        var whole = true
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            whole = false
            guard digits() > 0 else { return nil }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            whole = false
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard digits() > 0 else { return nil }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
        if whole, let integer = Int64(text) { return .integer(integer) }
        guard let number = Double(text), number.isFinite else { return nil }
        return .number(number)
    }
}
