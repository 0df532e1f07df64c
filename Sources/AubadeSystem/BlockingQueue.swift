/// Values handed from any thread to one consumer thread that waits for them (the sound engine's commands, the
/// clock executor's jobs). Waits are timed on `CLOCK_MONOTONIC`, so a wall-clock step never lengthens or
/// shortens them. Thread-safe.
public final class BlockingQueue<Element: Sendable>: @unchecked Sendable {
    // @unchecked: `pending` and `closed` are read and written only while `condition`'s mutex is held.
    private let condition = MonotonicCondition()
    private var pending: [Element] = []
    private var closed = false

    public init() {}

    /// Adds `value` and wakes the consumer.
    public func post(_ value: Element) {
        condition.locked {
            pending.append(value)
            condition.broadcast()
        }
    }

    /// Wakes the consumer for good: once what was posted is taken, `take` returns at once with nothing.
    public func close() {
        condition.locked {
            closed = true
            condition.broadcast()
        }
    }

    /// Everything posted so far, in order. With nothing posted, waits until something is, the queue is closed,
    /// or `wait` has passed (nil: no limit; zero: no wait at all). Without a limit, an empty answer means the
    /// queue is closed and drained.
    public func take(waitingAtMost wait: Duration? = nil) -> [Element] {
        condition.locked {
            condition.wait(while: { pending.isEmpty && !closed }, atMost: wait)
            let taken = pending
            pending.removeAll(keepingCapacity: true)
            return taken
        }
    }
}
