import Foundation
import Synchronization

/// Failed tokens and pairing codes per peer address (R31): `limit` failures within `window` lock that
/// address out for `lockout` (429). Entirely off the clock's path — an in-memory table under a lock, never a
/// call to the clock — so a lockout never delays an alarm, a stop or a snooze. Bounded: at most `capacity`
/// addresses are remembered (the oldest are forgotten first). Thread-safe.
final class RateLimiter: Sendable {
    private struct Record {
        var failures: [Date] = []
        var lockedUntil: Date?
        var lastSeen: Date
    }

    private let limit: Int
    private let window: TimeInterval
    private let lockout: TimeInterval
    private let capacity: Int
    private let records = Mutex<[String: Record]>([:])

    init(limit: Int, window: TimeInterval, lockout: TimeInterval, capacity: Int = 4096) {
        self.limit = limit
        self.window = window
        self.lockout = lockout
        self.capacity = capacity
    }

    /// When `peer` may try again, if it is locked out at `now`.
    func lockedUntil(_ peer: String, at now: Date) -> Date? {
        records.withLock { r in
            guard let until = r[peer]?.lockedUntil else { return nil }
            if until <= now {
                r[peer]?.lockedUntil = nil
                return nil
            }
            return until
        }
    }

    /// Counts a failure of `peer` at `now`; returns when it is locked out until, if this failure locked it.
    @discardableResult
    func fail(_ peer: String, at now: Date) -> Date? {
        records.withLock { r in
            var record = r[peer] ?? Record(lastSeen: now)
            record.failures = record.failures.filter { now.timeIntervalSince($0) < window } + [now]
            record.lastSeen = now
            if record.failures.count >= limit {
                record.lockedUntil = now.addingTimeInterval(lockout)
                record.failures = []
            }
            r[peer] = record
            if r.count > capacity, let oldest = r.min(by: { $0.value.lastSeen < $1.value.lastSeen })?.key {
                r[oldest] = nil
            }
            return record.lockedUntil
        }
    }
}
