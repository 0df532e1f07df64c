import Glibc

/// Values handed from any thread to one consumer thread that waits for them (the sound engine's commands, the
/// clock executor's jobs). Waits are timed on `CLOCK_MONOTONIC` (a `pthread_cond` set to that clock), so a
/// wall-clock step never lengthens or shortens them. Thread-safe.
public final class BlockingQueue<Element: Sendable>: @unchecked Sendable {
    // @unchecked: `pending` and `closed` are read and written only while `mutex` is held; the pthread objects
    // are allocated once, never moved, and destroyed in deinit.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var pending: [Element] = []
    private var closed = false

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Adds `value` and wakes the consumer.
    public func post(_ value: Element) {
        pthread_mutex_lock(mutex)
        pending.append(value)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Wakes the consumer for good: once what was posted is taken, `take` returns at once with nothing.
    public func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Everything posted so far, in order. With nothing posted, waits until something is, the queue is closed,
    /// or `wait` has passed (nil: no limit; zero: no wait at all). Without a limit, an empty answer means the
    /// queue is closed and drained.
    public func take(waitingAtMost wait: Duration? = nil) -> [Element] {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if pending.isEmpty, !closed, wait != .zero {
            if let wait {
                var deadline = timespec()
                clock_gettime(CLOCK_MONOTONIC, &deadline)
                let (seconds, attoseconds) = wait.components
                let nanos = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
                deadline.tv_sec += Int(seconds) + nanos / 1_000_000_000
                deadline.tv_nsec = nanos % 1_000_000_000
                while pending.isEmpty, !closed, pthread_cond_timedwait(condition, mutex, &deadline) == 0 {}
            } else {
                while pending.isEmpty, !closed { pthread_cond_wait(condition, mutex) }
            }
        }
        let taken = pending
        pending.removeAll(keepingCapacity: true)
        return taken
    }
}
