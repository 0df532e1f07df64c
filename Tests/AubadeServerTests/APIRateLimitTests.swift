import AubadeApp
import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import AubadeServer

/// R31's lockout, stepped through on a manual wall clock the server judges failures by: five wrong tokens within
/// a minute lock an address out for a minute (429 with Retry-After), a valid token works throughout, and the
/// address is let in again when Retry-After says; and the limiter's table stays bounded at 4096 addresses.
@Suite("API rate limit")
struct APIRateLimitTests {
    @Test func aLockoutLastsItsMinuteAValidTokenWorksThroughoutAndRetryAfterIsHonoured() async throws {
        let rig = try await APIRig()
        let wall = ManualClock(wall: APIRig.morning)
        try await rig.app(wall: { wall.now().wall }).test(.live) { client in
            let wrong: HTTPFields = [.authorization: "Bearer aubade_guess", .contentType: "application/json"]
            func guess() async throws -> TestResponse {
                try await client.execute(uri: "/api/v1/alarms", method: .get, headers: wrong)
            }
            func retryAfter(_ response: TestResponse) -> Int? { response.headers[.retryAfter].flatMap { Int($0) } }

            // Four failures spread over 45 s: refused, not locked.
            for step in 0..<4 {
                if step > 0 { wall.advance(by: .seconds(15)) }
                #expect(try await guess().status == .unauthorized, "failure \(step + 1)")
            }
            // The first of them is over a minute old at 70 s: the fifth failure then makes only four in the window…
            wall.advance(by: .seconds(25))
            #expect(try await guess().status == .unauthorized, "a failure older than the window no longer counts")
            // …and the next, five within the last minute, locks the address out for a minute.
            wall.advance(by: .seconds(1))
            let locking = try await guess()
            #expect(locking.status == .tooManyRequests && retryAfter(locking) == 60, "\(locking.headers)")
            #expect(locking.error?.message == "Too many wrong tokens or pairing codes from this address; try again in 60 s.")

            // Half-way through: wrong tokens and pairing codes are 429 without being tried; a valid token works, and
            // a request that presents no credentials guesses nothing, so it gets its usual answer (the kiosk's
            // tokenless reads go on beside a misbehaving client on the same machine).
            wall.advance(by: .seconds(30))
            let stillLocked = try await guess()
            #expect(stillLocked.status == .tooManyRequests && retryAfter(stillLocked) == 30)
            let pairing = try await client.execute(
                uri: "/api/v1/pair", method: .post, headers: APIRig.json,
                body: ByteBuffer(json: #"{"code":"123456","name":"phone"}"#))
            #expect(pairing.status == .tooManyRequests && retryAfter(pairing) == 30, "a pairing code is a guess too")
            let tokenless = try await client.execute(uri: "/api/v1/alarms", method: .get)
            #expect(tokenless.status == .ok, "a tokenless read from the clock's own machine is served")
            let tokenlessChange = try await client.execute(
                uri: "/api/v1/alarms", method: .post, headers: APIRig.json,
                body: ByteBuffer(json: #"{"name":"Work","time":"07:30"}"#))
            #expect(tokenlessChange.status == .unauthorized, "a tokenless change is refused as always")
            let read = try await client.execute(
                uri: "/api/v1/alarms", method: .get, headers: [.authorization: "Bearer \(rig.token)"])
            #expect(read.status == .ok)
            let change = try await client.execute(
                uri: "/api/v1/alarms", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"name":"Work","time":"07:30"}"#))
            #expect(change.status == .created, "\(change.text)")
            #expect(try await client.execute(uri: "/api/v1/openapi.json", method: .get).status == .ok, "the document stays open")

            // One second before the minute ends: still locked, and told to come back in one second.
            wall.advance(by: .seconds(29))
            let lastSecond = try await guess()
            #expect(lastSecond.status == .tooManyRequests && retryAfter(lastSecond) == 1)
            // When Retry-After said: let in again — a tokenless read is served, a wrong token is tried (401)…
            wall.advance(by: .seconds(1))
            let reopened = try await client.execute(uri: "/api/v1/alarms", method: .get)
            #expect(reopened.status == .ok, "\(reopened.text)")
            #expect(try await guess().status == .unauthorized)
            // …and the count starts afresh: it takes five new failures within a minute to lock it again.
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<4 {
                wall.advance(by: .seconds(1))
                statuses.append(try await guess().status)
            }
            #expect(statuses == [.unauthorized, .unauthorized, .unauthorized, .tooManyRequests])
            #expect(try rig.store.alarms().map(\.name) == ["Work"])
        }
    }

    /// `RateLimiter` takes the instant of every call (`AccessGuard` passes its wall clock's), so its table is
    /// driven here directly, one distinct address per failure, with instants one millisecond apart.
    @Test func theLimiterRemembersAtMost4096AddressesAndForgetsTheLeastRecentlySeenFirst() throws {
        let settings = ServerSettings()
        let limiter = RateLimiter(limit: settings.failureLimit, window: settings.failureWindow, lockout: settings.lockout)
        var now = APIRig.morning
        func tick() -> Date {
            now = now.addingTimeInterval(0.001)
            return now
        }
        /// Whether the limiter still remembers `peer` (known to have failed exactly once): four more failures
        /// lock it only if the first is remembered.
        func remembers(_ peer: String) -> Bool {
            (0..<4).map { _ in limiter.fail(peer, at: tick()) }.last! != nil
        }
        func address(_ n: Int) -> String { "10.\(n / 65536).\(n / 256 % 256).\(n % 256)" }

        // The oldest address is locked out.
        let locked = "192.0.2.1"
        let until = try #require((0..<5).map { _ in limiter.fail(locked, at: tick()) }.last!)
        // 4095 more fill the table to exactly 4096: nothing is forgotten, the lockout holds.
        for n in 1...4095 { #expect(limiter.fail(address(n), at: tick()) == nil) }
        #expect(limiter.lockedUntil(locked, at: tick()) == until)
        // The 4097th address pushes out the least recently seen one — the locked address, its lockout lifted early.
        #expect(limiter.fail(address(4096), at: tick()) == nil)
        #expect(limiter.lockedUntil(locked, at: tick()) == nil && now < until)
        // The next least recently seen (address 1) is still there: one address was forgotten, not more.
        #expect(remembers(address(1)))
        #expect(limiter.lockedUntil(address(1), at: tick()) != nil)

        // A flood of 4096 new addresses leaves only them: every address seen before it is forgotten, the one
        // locked last included, and the oldest of the flood is still remembered.
        for n in 5000..<(5000 + 4096) { #expect(limiter.fail(address(n), at: tick()) == nil) }
        #expect(limiter.lockedUntil(address(1), at: tick()) == nil)
        #expect(remembers(address(5000)))
        #expect(!remembers(address(4096)), "an address from before the flood starts afresh")
    }
}
