public import AubadeApp
import Foundation
public import HTTPTypes
public import Hummingbird
import NIOCore

/// A refusal as the API answers it: `{"error": {"kind": "…", "message": "one sentence"}}` with its status —
/// the sentence is the CLI's wording.
public struct APIError: Error, HTTPResponseError, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case invalid, unprocessable, unauthorized, forbidden, notFound, methodNotAllowed, conflict, refused, tooLarge,
            unsupportedMediaType, tooMany, failed, upstream, off

        var status: HTTPResponse.Status {
            switch self {
            case .invalid: .badRequest
            case .unprocessable: .unprocessableContent
            case .unauthorized: .unauthorized
            case .forbidden: .forbidden
            case .notFound: .notFound
            case .methodNotAllowed: .methodNotAllowed
            case .conflict, .refused: .conflict
            case .tooLarge: .contentTooLarge
            case .unsupportedMediaType: .unsupportedMediaType
            case .tooMany: .tooManyRequests
            case .failed: .internalServerError
            case .upstream: .badGateway
            case .off: .serviceUnavailable
            }
        }
    }

    public let kind: Kind
    public let message: String
    /// Extra headers (`Retry-After` on 429, `WWW-Authenticate` on 401, `Allow` on 405).
    var headers: HTTPFields = [:]

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
        if kind == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
    }

    /// The clock's refusal, with the status its kind calls for.
    public init(_ error: ClockError) {
        let kind: Kind =
            switch error.kind {
            case .invalid: .invalid
            case .unprocessable, .unavailable: .unprocessable
            case .notFound: .notFound
            case .conflict: .conflict
            case .refused: .refused
            case .unauthorized: .unauthorized
            case .failed: .failed
            case .upstream: .upstream
            case .off: .off
            }
        self.init(kind, error.message)
    }

    public var status: HTTPResponse.Status { kind.status }

    struct Body: Encodable {
        struct Inner: Encodable {
            var kind: String
            var message: String
        }
        var error: Inner
    }

    /// What the refusal's answer carries.
    var body: Body { Body(error: .init(kind: kind.rawValue, message: message)) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONResponse.make(body, status: status)
        response.headers.append(contentsOf: headers)
        return response
    }
}

/// JSON responses: the shared document encoding (`DocumentJSON`), never sniffed as anything else, never cached.
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data = DocumentJSON.data(value) + Data("\n".utf8)
        return Response(
            status: status, headers: headers(type: "application/json; charset=utf-8"),
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func headers(type: String) -> HTTPFields {
        var fields = HTTPFields()
        fields[.contentType] = type
        fields[.cacheControl] = "no-store"
        fields[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return fields
    }
}
