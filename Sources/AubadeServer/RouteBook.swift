import Foundation
import HTTPTypes
import Hummingbird

/// Registers the API's routes on the router and remembers each (method, path), so a test can hold the list
/// against the OpenAPI document both ways.
final class RouteBook {
    struct Route: Hashable, Sendable, CustomStringConvertible {
        var method: String
        /// In OpenAPI form: "/api/v1/alarms/{id}".
        var path: String
        var description: String { "\(method) \(path)" }
    }

    let router: Router<APIContext>
    private(set) var routes: [Route] = []

    init(router: Router<APIContext>) { self.router = router }

    typealias Handler = @Sendable (Request, APIContext) async throws -> Response

    /// Adds `method path` (Hummingbird form: ":id" for a parameter).
    func add(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        router.on(RouterPath(path), method: method) { request, context in try await handler(request, context) }
        let openAPI = path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
        routes.append(Route(method: method.rawValue, path: openAPI))
    }
}
