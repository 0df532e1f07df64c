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

    /// `text` as a JSON string literal, quoted and escaped (FoundationEssentials' encoder: one JSON writer for the
    /// face; the link, which links no Foundation, writes its own few literals).
    public static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        // Encoding a String cannot fail; the empty literal is only the type checker's due.
        guard let bytes = try? encoder.encode(text) else { return "\"\"" }
        return String(decoding: bytes, as: UTF8.self)
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
