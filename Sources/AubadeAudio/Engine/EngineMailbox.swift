import AubadeCore
import Foundation
import Glibc

/// What callers ask of the audio thread.
enum EngineCommand: Sendable {
    case play(SoundID, SoundRequest, paused: Bool)
    case begin(SoundID)
    case stop(SoundID)
    case volume(SoundID, Int)
    case shutdown
}

/// Commands from any thread to the engine's audio thread, which waits here when it has nothing to write.
/// Waits are timed on `CLOCK_MONOTONIC` (a `pthread_cond` set to that clock), so a wall-clock step never
/// lengthens or shortens them. Thread-safe.
final class EngineMailbox: @unchecked Sendable {
    // @unchecked: `pending` is read and written only while `mutex` is held; the pthread objects are
    // allocated once, never moved, and destroyed in deinit.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var pending: [EngineCommand] = []

    init() {
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

    func post(_ command: EngineCommand) {
        pthread_mutex_lock(mutex)
        pending.append(command)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// The commands posted so far. With nothing posted, waits until one is or `wait` has passed (nil: no
    /// limit; zero: no wait at all).
    func take(waitingAtMost wait: Duration?) -> [EngineCommand] {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if pending.isEmpty, wait != .zero {
            if let wait {
                var deadline = timespec()
                clock_gettime(CLOCK_MONOTONIC, &deadline)
                let (seconds, attoseconds) = wait.components
                let nanos = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
                deadline.tv_sec += Int(seconds) + nanos / 1_000_000_000
                deadline.tv_nsec = nanos % 1_000_000_000
                while pending.isEmpty, pthread_cond_timedwait(condition, mutex, &deadline) == 0 {}
            } else {
                while pending.isEmpty { pthread_cond_wait(condition, mutex) }
            }
        }
        let taken = pending
        pending.removeAll(keepingCapacity: true)
        return taken
    }
}
