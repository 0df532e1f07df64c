import AubadeCore
import Foundation

/// The one pairing code of the moment (6 digits, valid `lifetime`): asking for a new one replaces the old; a
/// code is used once. Not Sendable: the clock actor owns it.
final class PairingDesk {
    static let lifetime: TimeInterval = 120

    private(set) var current: PairingCode?

    /// A fresh code from the system's random generator, valid from `now` for `lifetime`.
    func newCode(now: Date) -> PairingCode {
        var generator = SystemRandomNumberGenerator()
        let number = Int.random(in: 0...999_999, using: &generator)
        let digits = String(number)
        let code = PairingCode(
            code: String(repeating: "0", count: 6 - digits.count) + digits,
            expiresAt: now.addingTimeInterval(PairingDesk.lifetime))
        current = code
        return code
    }

    /// The code still valid at `now`, if any (an expired one is dropped).
    func valid(at now: Date) -> PairingCode? {
        if let code = current, code.expiresAt <= now { current = nil }
        return current
    }

    /// Whether `code` is the valid one at `now` (compared in constant time).
    func matches(_ code: String, at now: Date) -> Bool {
        guard let valid = valid(at: now) else { return false }
        return TokenSecret.equal(valid.code, code.trimmingCharacters(in: .whitespaces))
    }

    /// The code was traded: it cannot be used again.
    func consume() { current = nil }
}
