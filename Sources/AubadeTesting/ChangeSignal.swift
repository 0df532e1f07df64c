import Synchronization

/// A generation counter that tasks can await: a producer (a reader thread) calls `bump()` after each change
/// it made visible; a waiter notes `generation`, checks its condition, and if it does not hold yet awaits
/// `wait(past:until:)`, which returns as soon as a newer generation exists — no polling, so a waiter costs
/// nothing while it waits and wakes at once when something happens.
public final class ChangeSignal: Sendable {
    private struct State {
        var generation = 0
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }
    private let state = Mutex(State())

    public init() {}

    /// How many changes so far.
    public var generation: Int { state.withLock { $0.generation } }

    /// Records a change and wakes every waiter.
    public func bump() {
        let woken = state.withLock { s in
            s.generation += 1
            defer { s.waiters.removeAll() }
            return Array(s.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns once `generation` is past `seen`, or at `deadline`, or when the task is cancelled.
    public func wait(past seen: Int, until deadline: ContinuousClock.Instant) async {
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        let timer = Task { [self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            release(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { s -> Bool in
                    if s.generation > seen || Task.isCancelled || ContinuousClock.now >= deadline { return true }
                    s.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            release(id)
        }
        timer.cancel()
    }

    /// Wakes waiter `id` if it is still waiting (its deadline passed, or its task was cancelled).
    private func release(_ id: Int) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
}
