import AubadeSystem

/// The clock actor's own thread ("aubade.clock"). The clock commits every state change to SQLite before the
/// sound it guards (R9, R26), and SQLite's commits fsync: on this dedicated thread they never block the
/// cooperative pool that the inputs, the control socket and the HTTP server share. Jobs run one at a time in
/// the order they were enqueued; the thread ends when the executor goes away.
public final class ClockExecutor: SerialExecutor {
    private let jobs = BlockingQueue<UnownedJob>()

    public init(name: String = "aubade.clock") {
        let jobs = self.jobs
        let executor = UnownedSerialExecutor(ordinary: self)
        // The thread holds the queue (not the executor) until the queue is closed and drained.
        NamedThread.start(name, stackSize: 1 << 20) {
            while true {
                let batch = jobs.take()
                if batch.isEmpty { return }
                for job in batch { job.runSynchronously(on: executor) }
            }
        }
    }

    deinit { jobs.close() }

    public func enqueue(_ job: consuming ExecutorJob) {
        jobs.post(UnownedJob(job))
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
