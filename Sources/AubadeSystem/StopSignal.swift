/// A flag set once, from any thread, that a thread may wait on for a while: the stop of a network thread
/// that sleeps between reconnects, the end of a job handed to the store's thread (`StoreWorker.Ticket`). Waits
/// are timed on `CLOCK_MONOTONIC`. Thread-safe.
public final class StopSignal: @unchecked Sendable {
    // @unchecked: `stopped` is read and written only while `condition`'s mutex is held.
    private let condition = MonotonicCondition()
    private var stopped = false

    public init() {}

    /// Sets the flag and wakes every waiter.
    public func stop() {
        condition.locked {
            stopped = true
            condition.broadcast()
        }
    }

    public var isStopped: Bool { condition.locked { stopped } }

    /// Waits until the flag is set or `duration` has passed; whether it is set.
    public func wait(upTo duration: Duration) -> Bool {
        condition.locked {
            condition.wait(while: { !stopped }, atMost: duration)
            return stopped
        }
    }
}
