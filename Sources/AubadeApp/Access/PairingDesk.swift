import AubadeCore
import Foundation

/// The one pairing code of the moment (6 digits, valid `lifetime`): asking for a new one replaces the old; a
/// code is used once. A value, part of `ClockState`.
struct PairingDesk {
    static let lifetime: TimeInterval = 120

    private(set) var current: PairingCode?

    /// A fresh code drawn from `entropy` (the system's random generator, read for the input), valid from `now`
    /// for `lifetime`.
    mutating func newCode(now: Date, entropy: UInt64) -> PairingCode {
        let number = Int(entropy % 1_000_000)
        let digits = String(number)
        let code = PairingCode(
            code: String(repeating: "0", count: 6 - digits.count) + digits,
            expiresAt: now.addingTimeInterval(PairingDesk.lifetime))
        current = code
        return code
    }

    /// The code still valid at `now`, if any (an expired one is dropped).
    func valid(at now: Date) -> PairingCode? {
        guard let code = current, code.expiresAt > now else { return nil }
        return code
    }

    /// Whether `code` is the valid one at `now` (compared in constant time).
    func matches(_ code: String, at now: Date) -> Bool {
        guard let valid = valid(at: now) else { return false }
        return TokenSecret.equal(valid.code, code.trimmingCharacters(in: .whitespaces))
    }

    /// The code was traded: it cannot be used again.
    mutating func consume() { current = nil }
}
