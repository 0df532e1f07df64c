import Foundation
import HTTPTypes
import Hummingbird

/// Host and Origin (R31): the Host header must name this clock (`HostPolicy` — DNS rebinding gets 403), and a
/// request that carries an Origin must come from the same origin as its Host (no cross-site request, even a
/// GET). Applies to every path, the pages included.
struct OriginHostGuard: RouterMiddleware {
    typealias Context = APIContext
    let hosts: HostPolicy

    func handle(_ request: Request, context: APIContext, next: (Request, APIContext) async throws -> Response) async throws
        -> Response
    {
        guard let authority = request.head.authority, !authority.isEmpty else {
            throw APIError(.forbidden, "The request has no Host header.")
        }
        guard hosts.allows(authority) else {
            throw APIError(
                .forbidden,
                "This clock does not answer to the name '\(HostPolicy.hostPart(of: authority))'; add it to [http] allowed_hosts if it should."
            )
        }
        if let origin = request.headers[.origin] {
            let expected = "http://" + authority.lowercased()
            guard origin.lowercased() == expected else {
                throw APIError(.forbidden, "Requests from another site are refused (Origin \(origin) is not \(expected)).")
            }
        }
        return try await next(request, context)
    }
}
