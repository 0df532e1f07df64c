import AubadeCore
import Dispatch
import Foundation
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

    let store: any ClockStore
    private let queue: JobQueue

    init(_ store: any ClockStore, name: String = "aubade.store") {
        self.store = store
        let queue = JobQueue()
        self.queue = queue
        let thread = Thread { queue.run(store) }  // the thread holds the queue until it is closed
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit { queue.close() }

    /// Ends the store's thread once the jobs handed in so far have run.
    func close() { queue.close() }

    /// Hands `body` to the store's thread; the ticket says when it has run.
    @discardableResult
    func submit(_ body: @escaping @Sendable (any ClockStore) -> Void) -> Ticket {
        let ticket = Ticket()
        queue.push { store in
            body(store)
            ticket.finish()
        }
        return ticket
    }

    /// Runs `body` on the store's thread and returns its result; the caller is suspended, not blocked.
    func perform<T: Sendable>(_ body: @escaping @Sendable (any ClockStore) throws(StoreError) -> T) async throws(StoreError) -> T
    {
        let result: Result<T, StoreError> = await withCheckedContinuation { continuation in
            queue.push { store in
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
    var isStalled: Bool { queue.busyFor.map { $0 > StoreWorker.bound } ?? false }

    /// A job handed to the store's thread: whether it has run yet.
    final class Ticket: Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let finished = Atomic<Bool>(false)

        fileprivate func finish() {
            finished.store(true, ordering: .releasing)
            done.signal()
        }

        var isDone: Bool { finished.load(ordering: .acquiring) }

        /// Blocks until the job has run or `limit` has passed; true when it has run.
        func wait(upTo limit: Duration) -> Bool {
            if isDone { return true }
            let nanoseconds = Int(limit.components.seconds) * 1_000_000_000 + Int(limit.components.attoseconds / 1_000_000_000)
            guard done.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return isDone }
            done.signal()  // a later wait on the same ticket returns at once too
            return true
        }
    }
}

/// An answer carried from the store's thread to the clock.
private final class AnswerBox<T: Sendable>: Sendable {
    let value = Mutex<T?>(nil)
}

/// The store thread's queue: jobs in order, and since when the running one runs.
private final class JobQueue: Sendable {
    private let state = Mutex<(jobs: [@Sendable (any ClockStore) -> Void], closed: Bool, busySince: ContinuousClock.Instant?)>(
        ([], false, nil))
    private let available = DispatchSemaphore(value: 0)

    func push(_ job: @escaping @Sendable (any ClockStore) -> Void) {
        state.withLock { $0.jobs.append(job) }
        available.signal()
    }

    func close() {
        state.withLock { $0.closed = true }
        available.signal()
    }

    /// How long the running job has run (nil when idle). It measures the store, not the time of day.
    var busyFor: Duration? {
        state.withLock { $0.busySince }.map { ContinuousClock.now - $0 }
    }

    func run(_ store: any ClockStore) {
        while true {
            available.wait()
            let job = state.withLock { s -> (@Sendable (any ClockStore) -> Void)? in
                guard !s.jobs.isEmpty else { return nil }
                s.busySince = ContinuousClock.now
                return s.jobs.removeFirst()
            }
            guard let job else {
                if state.withLock({ $0.closed && $0.jobs.isEmpty }) { return }
                continue
            }
            job(store)
            state.withLock { $0.busySince = nil }
        }
    }
}
