import AubadeApp
import Foundation
import HTTPTypes
import Hummingbird

/// Who may do what under /api/v1 (R30, R31), decided by the route's own rule (`RouteAccess`, R39): each route's
/// chain holds an `AccessGuard` made with the rule it was registered with, so how a request spelled its path never
/// enters the decision.
/// - A request with `Authorization: Bearer <token>` must carry a token the clock knows (`TokenRegistry`,
///   checked in constant time, never on the clock's thread); a wrong one is 401 and counts as a failure.
/// - Every change (`.change`, and any method but GET/HEAD under `.read`) needs a token — except `POST /pair`
///   (`.pair`: it proves a pairing code instead; a wrong code counts as a failure) and `POST /pair/code`
///   (`.pairCode`), which without a token only the clock's own machine (the kiosk) may ask for (403 from elsewhere).
/// - Reading without a token (`.read`) is allowed from the clock's own machine (a loopback peer), or from anywhere
///   with `[http] open_reads`; otherwise 401, like any request that lacks a token. The OpenAPI document
///   (`.document`) and the pages (`.page`) are public.
/// - `failureLimit` failures from one address within a minute lock it out (429 with Retry-After) for a
///   minute: a valid token still works from a locked address (so the kiosk's Stop keeps working beside a
///   misbehaving client on the same machine), but no other token or pairing code is tried, nor a new code
///   given. Any other request that presents no credentials guesses nothing, so it gets its usual answer.
struct AccessGuard: RouterMiddleware {
    typealias Context = APIContext
    let policy: AccessPolicy
    let rule: RouteAccess

    func handle(_ request: Request, context: APIContext, next: (Request, APIContext) async throws -> Response) async throws
        -> Response
    {
        if rule == .page || rule == .document { return try await next(request, context) }
        var context = context
        let now = policy.wall()
        let peer = context.peerKey
        let locked = policy.limiter.lockedUntil(peer, at: now)
        if let header = request.headers[.authorization] {
            guard let secret = AccessGuard.bearer(header), let entry = policy.tokens.verify(secret, at: now) else {
                if let locked { throw tooMany(until: locked, now) }
                if let until = policy.limiter.fail(peer, at: now) { throw tooMany(until: until, now) }
                throw APIError(
                    .unauthorized,
                    "The token is not one this clock knows; make one with 'aubade token new' or pair this device again.")
            }
            context.token = entry
            return try await next(request, context)
        }
        switch rule {
        case .pairCode:
            // A new code while locked out would only feed the guessing.
            if let locked { throw tooMany(until: locked, now) }
            guard context.fromOwnMachine else {
                throw APIError(.forbidden, "Only the clock's own screen may show a pairing code.")
            }
            return try await next(request, context)
        case .pair:
            if let locked { throw tooMany(until: locked, now) }
            do {
                return try await next(request, context)
            } catch let failure as PairingFailure {
                if let until = policy.limiter.fail(peer, at: policy.wall()) { throw tooMany(until: until, now) }
                throw failure.error
            }
        case .read where request.method == .get || request.method == .head:
            guard context.fromOwnMachine || policy.openReads else {
                // 401 with its `WWW-Authenticate: Bearer` challenge: the request lacks credentials (RFC 9110 §15.5.2).
                throw APIError(
                    .unauthorized,
                    "Reading the clock from another machine needs a token (or [http] open_reads = true in its config).")
            }
            return try await next(request, context)
        case .read, .change, .page, .document:
            throw APIError(
                .unauthorized,
                "A change needs a token: send 'Authorization: Bearer <token>' (make one with 'aubade token new', or pair this device)."
            )
        }
    }

    /// The token of an `Authorization: Bearer <token>` header.
    static func bearer(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    private func tooMany(until: Date, _ now: Date) -> APIError {
        let seconds = max(1, Int(until.timeIntervalSince(now).rounded(.up)))
        var error = APIError(.tooMany, "Too many wrong tokens or pairing codes from this address; try again in \(seconds) s.")
        error.headers[.retryAfter] = String(seconds)
        return error
    }
}
