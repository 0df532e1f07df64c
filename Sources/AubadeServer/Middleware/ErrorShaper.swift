import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware: every refusal leaves as the API's JSON error. Hummingbird's own errors (no such
/// route, a body over the limit) become sentences; an error nobody expected is a 500 with a plain sentence,
/// never its internals.
struct ErrorShaper: RouterMiddleware {
    typealias Context = APIContext

    func handle(_ request: Request, context: APIContext, next: (Request, APIContext) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError {
            switch error.status {
            case .notFound:
                throw APIError(
                    .notFound, "There is no \(request.method) \(request.uri.path) in the API; see /api/v1/openapi.json.")
            case .methodNotAllowed:
                throw APIError(.notFound, "\(request.uri.path) does not take \(request.method); see /api/v1/openapi.json.")
            case .contentTooLarge:
                throw APIError(.tooLarge, "The request body is larger than 64 KiB.")
            default:
                throw APIError(
                    error.status.code < 500 ? .invalid : .failed, error.body ?? "The request was refused (\(error.status.code)).")
            }
        } catch {
            context.logger.warning("API request failed: \(error)")
            throw APIError(.failed, "The clock could not answer this request.")
        }
    }
}
