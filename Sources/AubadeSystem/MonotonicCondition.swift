import Glibc

/// A pthread mutex with a condition variable whose timed waits run on `CLOCK_MONOTONIC`, so a wall-clock step
/// never lengthens or shortens them: what `BlockingQueue`, `StopSignal` and the sound engine's `ByteRing` wait on. The pthread objects are
/// allocated once, never moved, and destroyed with it.
public final class MonotonicCondition {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

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

    /// Runs `body` with the mutex held.
    public func locked<R>(_ body: () -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Wakes the waiters (call with the mutex held).
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// With the mutex held: waits while `waiting()` holds, for at most `wait` (nil: no limit; zero: not at all).
    public func wait(while waiting: () -> Bool, atMost wait: Duration?) {
        guard waiting(), wait != .zero else { return }
        guard let wait else {
            while waiting() { pthread_cond_wait(condition, mutex) }
            return
        }
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let (seconds, attoseconds) = wait.components
        let nanos = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
        deadline.tv_sec += Int(seconds) + nanos / 1_000_000_000
        deadline.tv_nsec = nanos % 1_000_000_000
        while waiting(), pthread_cond_timedwait(condition, mutex, &deadline) == 0 {}
    }
}
