/// The little JSON the link writes and reads itself (the face parses the live state and the answers): string
/// literals for the pairing request, and a string member of the top-level object of an answer — the pairing
/// code and the token.
enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The string value of the member `name` of the top-level object in `json`; nil when there is none, it is not
    /// a string, or `json` is not an object.
    static func string(_ name: String, in json: [UInt8]) -> String? {
        var scanner = Scanner(bytes: json)
        scanner.skipSpace()
        guard scanner.eat(UInt8(ascii: "{")) else { return nil }
        scanner.skipSpace()
        if scanner.eat(UInt8(ascii: "}")) { return nil }
        while true {
            scanner.skipSpace()
            guard let key = scanner.string() else { return nil }
            scanner.skipSpace()
            guard scanner.eat(UInt8(ascii: ":")) else { return nil }
            scanner.skipSpace()
            if key == name { return scanner.string() }
            guard scanner.skipValue() else { return nil }
            scanner.skipSpace()
            guard scanner.eat(UInt8(ascii: ",")) else { return nil }
        }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var at = 0

        var next: UInt8? { at < bytes.count ? bytes[at] : nil }

        mutating func skipSpace() {
            while let b = next, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { at += 1 }
        }

        mutating func eat(_ byte: UInt8) -> Bool {
            guard next == byte else { return false }
            at += 1
            return true
        }

        /// A string literal, decoded.
        mutating func string() -> String? {
            guard eat(UInt8(ascii: "\"")) else { return nil }
            var out: [UInt8] = []
            var pendingHigh: UInt32?
            while let b = next {
                at += 1
                if b == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                guard b == UInt8(ascii: "\\") else {
                    out.append(b)
                    continue
                }
                guard let e = next else { return nil }
                at += 1
                switch e {
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard at + 4 <= bytes.count, let unit = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16)
                    else { return nil }
                    at += 4
                    var value = unit
                    if (0xD800..<0xDC00).contains(unit) {
                        pendingHigh = unit
                        continue
                    }
                    if (0xDC00..<0xE000).contains(unit), let high = pendingHigh {
                        value = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
                    }
                    out += Array(String(Character(Unicode.Scalar(value) ?? "\u{FFFD}")).utf8)
                default: out.append(e)
                }
                pendingHigh = nil
            }
            return nil
        }

        /// Skips one value of any kind; false when it is malformed.
        mutating func skipValue() -> Bool {
            if next == UInt8(ascii: "\"") { return string() != nil }
            var depth = 0
            while let b = next {
                switch b {
                case UInt8(ascii: "\""):
                    guard string() != nil else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return true }
                    depth -= 1
                case UInt8(ascii: ","):
                    if depth == 0 { return true }
                default: break
                }
                at += 1
            }
            return depth == 0
        }
    }
}
