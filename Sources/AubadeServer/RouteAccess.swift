/// Who may use a route (R30, R39). Every route names its rule when it is registered (`RouteBook.add` has no
/// default), and the `AccessGuard` in that route's own chain decides by it: the path the request spelled plays no
/// part, so no spelling of a path can reach a handler past its rule.
enum RouteAccess: String, Sendable, Hashable, CaseIterable {
    /// A page or one of its files: they hold no data, so anyone the Host/Origin check lets in may load them.
    case page
    /// The OpenAPI document: public, like the pages.
    case document
    /// A query: a token, or no token from the clock's own machine (from anywhere with `[http] open_reads`). Only
    /// GET and HEAD can be reads; any other method under this rule needs a token.
    case read
    /// A change: a token, always.
    case change
    /// `POST /pair`: the pairing code stands in for a token, and a wrong code counts as a failure.
    case pair
    /// `POST /pair/code`: a token, or no token from the clock's own machine (the kiosk).
    case pairCode
}
