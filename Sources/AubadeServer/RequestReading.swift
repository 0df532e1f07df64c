import AubadeApp
import AubadeCore
import Foundation
import Hummingbird

extension APIContext {
    /// The body as `T` (an empty body reads as `{}`); malformed JSON, a wrong type, a missing or unknown field is
    /// 400 with one sentence.
    func decode<T: Decodable>(_ type: T.Type) throws(APIError) -> T {
        let data = body.readableBytes == 0 ? Data("{}".utf8) : Data(body.readableBytesView)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as ValidationError {
            throw APIError(ClockError(error))
        } catch let error as DecodingError {
            throw APIError(.invalid, RequestReading.sentence(error))
        } catch {
            throw APIError(.invalid, "The body is not valid JSON.")
        }
    }

    /// The path parameter `name` as text, percent-decoded (as the API document reads it).
    func text(_ name: String) throws(APIError) -> String {
        guard let raw = parameters.get(name), !raw.isEmpty else { throw APIError(.invalid, "The path lacks its '\(name)'.") }
        return raw.removingPercentEncoding ?? raw
    }

    /// The path parameter `name` as an id (400 when it is not a whole number).
    func id(_ name: String = "id") throws(APIError) -> Int64 {
        guard let text = parameters.get(name), let id = Int64(text) else {
            throw APIError(.invalid, "'\(parameters.get(name) ?? "")' is not an id; ids are whole numbers.")
        }
        return id
    }
}

enum RequestReading {
    /// One sentence for a JSON body that does not fit.
    static func sentence(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            return "The field '\(path(context))' must be \(kind(type))."
        case .valueNotFound(let type, let context):
            return "The field '\(path(context))' must be \(kind(type)), not null."
        case .keyNotFound(let key, _):
            return "The field '\(key.stringValue)' is missing."
        case .dataCorrupted(let context):
            if let underlying = context.underlyingError as? ValidationError { return underlying.message }
            return context.codingPath.isEmpty ? "The body is not valid JSON." : "The field '\(path(context))' is not valid."
        @unknown default:
            return "The body is not valid JSON."
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is Double.Type: "a number"
        default: "an object"
        }
    }

    /// A query parameter as an ISO-8601 instant with its offset ("2027-03-28T07:00:00+02:00", of the form
    /// `Grammar.instant`), or nil when absent (400 when it is not one).
    static func instant(_ request: Request, _ name: String) throws(APIError) -> Date? {
        // A "+" of the offset arrives as a space when it was not written %2B.
        guard let text = request.uri.queryParameters.get(name)?.replacingOccurrences(of: " ", with: "+") else { return nil }
        guard Grammar.matches(text, Grammar.instant), let date = try? Date(text, strategy: .iso8601) else {
            throw APIError(
                .invalid,
                "The parameter '\(name)' must be an ISO-8601 instant with its offset, like 2027-03-28T07:00:00+02:00, not '\(text)'."
            )
        }
        return date
    }

    /// A query parameter as a whole number, or `fallback` when absent (400 when it is not a number).
    static func number(_ request: Request, _ name: String, default fallback: Int) throws(APIError) -> Int {
        guard let text = request.uri.queryParameters.get(name) else { return fallback }
        guard let n = Int(text) else {
            throw APIError(.invalid, "The parameter '\(name)' must be a whole number, not '\(text)'.")
        }
        return n
    }
}
