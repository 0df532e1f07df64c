import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware: every refusal leaves as the API's JSON error. Hummingbird's own errors (no such
/// route, a method the path does not take, a body over the limit) become sentences; an error nobody expected is a
/// 500 with a plain sentence, never its internals.
struct ErrorShaper: RouterMiddleware {
    typealias Context = APIContext

    func handle(_ request: Request, context: APIContext, next: (Request, APIContext) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let failure as PairingFailure {
            // A wrong pairing code from a request that also carried a valid token: the token holder is not
            // counted as failing (AccessGuard counts tokenless tries), but the answer is the same 401.
            throw failure.error
        } catch let error as HTTPError {
            switch error.status {
            case .notFound, .methodNotAllowed:
                // The router says "not found" for a path it has under another method too: the document knows which.
                let allowed = OpenAPIDocument.methods(at: request.uri.path)
                guard !allowed.isEmpty else {
                    throw APIError(
                        .notFound, "There is no \(request.method) \(request.uri.path) in the API; see /api/v1/openapi.json.")
                }
                var refusal = APIError(
                    .methodNotAllowed,
                    "\(request.uri.path) does not take \(request.method); it takes \(allowed.joined(separator: ", ")).")
                refusal.headers[.allow] = allowed.joined(separator: ", ")
                throw refusal
            case .contentTooLarge:
                throw APIError(.tooLarge, "The request body is larger than 64 KiB.")
            default:
                throw APIError(
                    error.status.code < 500 ? .invalid : .failed, error.body ?? "The request was refused (\(error.status.code)).")
            }
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            // A body read elsewhere than `BodyGuard` that outgrew its limit (NIO's too-many-bytes error).
            throw APIError(.tooLarge, "The request body is larger than 64 KiB.")
        } catch {
            context.logger.warning("API request failed: \(error)")
            throw APIError(.failed, "The clock could not answer this request.")
        }
    }
}
