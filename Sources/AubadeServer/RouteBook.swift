import Foundation
import HTTPTypes
import Hummingbird

/// Registers the clock's routes on the router, each with its own chain of guards, and remembers each (method,
/// path, access rule), so a test can hold the list against the OpenAPI document both ways.
///
/// Access is decided on the route (R39): `add` takes the route's `RouteAccess` with no default, and makes the
/// route's chain — `AccessGuard` with that rule; for the API also `BodyGuard`, `LiveStreamAdmission` and the
/// `ContractGuard` of the route's operation — so every guard judges the route the router matched, never the text of
/// the path. A route that declares no rule cannot be registered, and a path no route takes is 404 by the router.
final class RouteBook {
    struct Route: Hashable, Sendable, CustomStringConvertible {
        var method: String
        /// In OpenAPI form: "/api/v1/alarms/{id}".
        var path: String
        var access: RouteAccess
        var description: String { "\(method) \(path)" }
    }

    /// What the API routes' guards share: one failure table, one stream bound, one document.
    struct Guards {
        let access: AccessPolicy
        let maxBody: Int
        let streams: LiveStreamAdmission
        let contract: APIContract?
        let onBreach: @Sendable (ContractBreach) -> Void
    }

    let router: Router<APIContext>
    let guards: Guards
    private(set) var routes: [Route] = []

    init(router: Router<APIContext>, guards: Guards) {
        self.router = router
        self.guards = guards
    }

    typealias Handler = @Sendable (Request, APIContext) async throws -> Response

    /// Adds `method path` (Hummingbird form: ":id" for a parameter) under the access rule `access`.
    func add(_ method: HTTPRequest.Method, _ path: String, _ access: RouteAccess, _ handler: @escaping Handler) {
        let openAPI = path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
        let chain = router.group().add(middleware: AccessGuard(policy: guards.access, rule: access))
        if access != .page {
            chain.add(middleware: BodyGuard(maxBody: guards.maxBody)).add(middleware: guards.streams)
            if let contract = ContractGuard(
                contract: guards.contract, method: method.rawValue, path: openAPI, onBreach: guards.onBreach)
            {
                chain.add(middleware: contract)
            }
        }
        chain.on(RouterPath(path), method: method) { request, context in try await handler(request, context) }
        routes.append(Route(method: method.rawValue, path: openAPI, access: access))
    }
}
