import AubadeSystem
import Synchronization

/// Runs blocking work — a download through curl, an fsync, a C call that waits, a socket `recv` — on a thread
/// of its own named `name`, and resumes the caller with what it returned or threw, so the cooperative pool never
/// waits on it. Should the system refuse a new thread, the work runs on the caller's thread instead: late
/// rather than never.
public func runBlocking<T: Sendable, E: Error>(_ name: String, _ body: @escaping @Sendable () throws(E) -> T)
    async throws(E) -> T
{
    let outcome: Result<T, E>? = await startThread(name) { report in
        do throws(E) {
            report(.success(try body()))
        } catch {
            report(.failure(error))
        }
    }
    if let outcome { return try outcome.get() }
    return try body()
}

/// Starts `body` on a new thread named `name` and resumes the caller with the first value `body` passes to
/// `report`; the thread may run on after that (a watch loop that reports how its start went, then waits for
/// events). Later reports are ignored. nil when the system refused a new thread (`body` has not run).
public func startThread<T: Sendable>(
    _ name: String,
    _ body: @escaping @Sendable (_ report: @escaping @Sendable (T) -> Void) -> Void
)
    async -> T?
{
    await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        let once = OnceReport(continuation)
        let started = NamedThread.start(name) {
            body { value in once.resume(value) }
        }
        if !started { once.resume(nil) }
    }
}

/// Resumes a continuation the first time only.
private final class OnceReport<T: Sendable>: Sendable {
    private let continuation: CheckedContinuation<T?, Never>
    private let done = Atomic<Bool>(false)

    init(_ continuation: CheckedContinuation<T?, Never>) {
        self.continuation = continuation
    }

    func resume(_ value: T?) {
        guard !done.exchange(true, ordering: .acquiringAndReleasing) else { return }
        continuation.resume(returning: value)
    }
}
