import AubadeSystem
import Foundation
import Glibc

/// The clock actor's own thread ("aubade.clock"). The clock commits every state change to SQLite before the
/// sound it guards (R9, R26), and SQLite's commits fsync: on this dedicated thread they never block the
/// cooperative pool that the inputs, the control socket and the HTTP server share. Jobs run one at a time in
/// the order they were enqueued; the thread ends when the executor goes away.
public final class ClockExecutor: SerialExecutor {
    private let queue: JobQueue

    public init(name: String = "aubade.clock") {
        let queue = JobQueue()
        self.queue = queue
        NamedThread.start(name, stackSize: 1 << 20) { queue.runLoop() }  // the thread holds the queue until the loop ends
        queue.executor = UnownedSerialExecutor(ordinary: self)
    }

    deinit { queue.close() }

    public func enqueue(_ job: consuming ExecutorJob) {
        queue.push(UnownedJob(job))
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}

/// The executor's queue, shared with its thread.
private final class JobQueue: @unchecked Sendable {
    // @unchecked: `jobs`, `closed` and `executor` are touched only while `mutex` is held (`executor` is set
    // once, before the first job can arrive).
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [UnownedJob] = []
    private var closed = false
    var executor: UnownedSerialExecutor?

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func push(_ job: UnownedJob) {
        pthread_mutex_lock(mutex)
        jobs.append(job)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    func runLoop() {
        while true {
            pthread_mutex_lock(mutex)
            while jobs.isEmpty && !closed { pthread_cond_wait(condition, mutex) }
            if jobs.isEmpty && closed {
                pthread_mutex_unlock(mutex)
                return
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            let executor = self.executor!
            pthread_mutex_unlock(mutex)
            for job in batch { job.runSynchronously(on: executor) }
        }
    }
}
