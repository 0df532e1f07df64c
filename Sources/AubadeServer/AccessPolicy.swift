import AubadeApp
import Foundation

/// What every route's `AccessGuard` judges with, made once per server so that all routes share one failure
/// table: the tokens the clock knows, the rate limiter, whether reads are open to other machines, and the wall
/// clock failures and lockouts are judged by (a test passes a manual one).
struct AccessPolicy: Sendable {
    let tokens: TokenRegistry
    let limiter: RateLimiter
    let openReads: Bool
    var wall: @Sendable () -> Date = { Date() }
}
