import AubadeCore
import AubadeSystem
import Synchronization

/// The clock's store on a thread of its own ("aubade.store"): the running clock never calls SQLite on its own
/// thread, so nothing the store does — a commit that fsyncs on a slow card, a database file that is reopened
/// and waits on a lock — can hold a ring back. Jobs run one at a time, in the order they were handed in (an
/// edit's order is its commit order, R26).
///
/// Contract: `submit` returns at once; `Ticket.wait(upTo:)` blocks the caller (the clock's own thread) at most
/// that long; `perform` suspends its caller until the job has run. Only the store's thread touches the store.
final class StoreWorker: Sendable {
    /// How long the clock waits for the store before it goes on without it: a commit before the sound it guards,
    /// a look at the database file. A store slower than this never holds a ring back; its commit still happens
    /// (later), and the clock says so.
    static let bound: Duration = .milliseconds(500)

    /// What the store's thread runs, one at a time.
    private typealias Job = @Sendable (any ClockStore) -> Void

    let store: any ClockStore
    private let jobs = BlockingQueue<Job>()
    private let running = RunningSince()

    init(_ store: any ClockStore, name: String = "aubade.store") {
        self.store = store
        let jobs = self.jobs
        let running = self.running
        // The thread holds the queue (not the worker) until the queue is closed and drained.
        NamedThread.start(name, stackSize: 1 << 20) {
            while true {
                let batch = jobs.take()
                if batch.isEmpty { return }
                for job in batch { running.run { job(store) } }
            }
        }
    }

    deinit { jobs.close() }

    /// Ends the store's thread once the jobs handed in so far have run.
    func close() { jobs.close() }

    /// Hands `body` to the store's thread; the ticket says when it has run.
    @discardableResult
    func submit(_ body: @escaping @Sendable (any ClockStore) -> Void) -> Ticket {
        let ticket = Ticket()
        jobs.post { store in
            body(store)
            ticket.finish()
        }
        return ticket
    }

    /// Runs `body` on the store's thread and returns its result; the caller is suspended, not blocked.
    func perform<T: Sendable>(_ body: @escaping @Sendable (any ClockStore) throws(StoreError) -> T) async throws(StoreError) -> T
    {
        let result: Result<T, StoreError> = await withCheckedContinuation { continuation in
            jobs.post { store in
                do throws(StoreError) {
                    continuation.resume(returning: .success(try body(store)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Waits for `ticket` at most `bound`, and not at all while the store is stuck; true when its job has run.
    func waitBounded(for ticket: Ticket) -> Bool {
        !isStalled && ticket.wait(upTo: StoreWorker.bound)
    }

    /// Runs `body` on the store's thread and returns its answer if it comes within `waitBounded`; nil otherwise
    /// (the job still runs; its late answer is dropped).
    func answer<T: Sendable>(_ body: @escaping @Sendable (any ClockStore) -> T) -> T? {
        let box = AnswerBox<T>()
        let ticket = submit { store in
            let value = body(store)
            box.value.withLock { $0 = value }
        }
        return waitBounded(for: ticket) ? box.value.withLock { $0 } : nil
    }

    /// Whether a job has been running for longer than `bound`: the store is stuck (a lock, a dying card), so the
    /// clock does not wait for it at all until it answers again.
    var isStalled: Bool { running.busyFor.map { $0 > StoreWorker.bound } ?? false }

    /// A job handed to the store's thread: whether it has run yet.
    final class Ticket: Sendable {
        private let done = StopSignal()  // set once, when the job has run

        fileprivate func finish() { done.stop() }

        var isDone: Bool { done.isStopped }

        /// Blocks until the job has run or `limit` has passed (timed on `CLOCK_MONOTONIC`); true when it has run.
        func wait(upTo limit: Duration) -> Bool { done.wait(upTo: limit) }
    }
}

/// An answer carried from the store's thread to the clock.
private final class AnswerBox<T: Sendable>: Sendable {
    let value = Mutex<T?>(nil)
}

/// Since when the store's running job runs, on `CLOCK_MONOTONIC` (`Monotonic`): it measures the store, not the
/// time of day.
private final class RunningSince: Sendable {
    private let since = Mutex<Duration?>(nil)

    /// Runs `job`, marked as running while it runs.
    func run(_ job: () -> Void) {
        since.withLock { $0 = Monotonic.now() }
        job()
        since.withLock { $0 = nil }
    }

    /// How long the running job has run (nil when idle).
    var busyFor: Duration? { since.withLock { $0 }.map { Monotonic.now() - $0 } }
}
