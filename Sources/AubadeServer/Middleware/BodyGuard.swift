import Foundation
import HTTPTypes
import Hummingbird

/// Bodies (R31): a change's body (any method but GET/HEAD) must be JSON — `Content-Type: application/json`
/// (415 otherwise: a cross-site form can send only other types); a change without a body (`DELETE`, a bare
/// `POST …/enable`) may leave the type out and counts as `{}` — and at most `maxBody` bytes (413), read here,
/// once, into the context, whether it came with a length or in chunks. A GET's body is ignored. It is in the chain of
/// every API route (`RouteBook.add`), so it judges the route the router matched, not the path's text.
struct BodyGuard: RouterMiddleware {
    typealias Context = APIContext
    let maxBody: Int

    func handle(_ request: Request, context: APIContext, next: (Request, APIContext) async throws -> Response) async throws
        -> Response
    {
        guard request.method != .get, request.method != .head else {
            return try await next(request, context)
        }
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        let refusal = APIError(.unsupportedMediaType, "A change must be sent as JSON (Content-Type: application/json).")
        if let type, type != "application/json" { throw refusal }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maxBody {
            throw APIError(.tooLarge, "The request body is larger than \(maxBody / 1024) KiB.")
        }
        var request = request
        var context = context
        do {
            context.body = try await request.collectBody(upTo: maxBody)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            // Hummingbird's error for a sized body, NIO's too-many-bytes error for a chunked one: the same 413.
            throw APIError(.tooLarge, "The request body is larger than \(maxBody / 1024) KiB.")
        }
        if type == nil, context.body.readableBytes > 0 { throw refusal }
        return try await next(request, context)
    }
}
