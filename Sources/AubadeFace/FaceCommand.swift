import FoundationEssentials

/// A request to the clock: a method, a path under /api/v1, and a JSON body (nil: none) — exactly what kiosk.js sends.
public struct FaceCommand: Sendable, Hashable, CustomStringConvertible {
    public var method: String
    public var path: String
    public var body: String?

    public init(_ method: String, _ path: String, _ body: String? = "{}") {
        self.method = method
        self.path = path
        self.body = body
    }

    public var description: String { "\(method) \(path) \(body ?? "")" }

    /// `text` as a JSON string literal, quoted and escaped.
    public static func quoted(_ text: String) -> String {
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

    public static let wake = FaceCommand("POST", "/display/wake")

    struct Refusal: Decodable {
        struct Detail: Decodable { var message: String }
        var error: Detail
    }

    /// What to tell the user of an answer: nil when it succeeded (2xx); the clock's own sentence when it refused
    /// (`{"error":{"kind":…,"message":…}}`); else what went wrong in words. Status 0: no answer.
    public static func refusal(status: Int, body: [UInt8]) -> String? {
        if (200..<300).contains(status) { return nil }
        if status == 0 { return "The clock did not answer." }
        if let refusal = try? JSONDecoder().decode(Refusal.self, from: Data(body)) { return refusal.error.message }
        return "The clock refused (HTTP \(status))."
    }
}
