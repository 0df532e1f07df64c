import Foundation
import Synchronization

/// Lets the scheduler loop sleep until its next deadline and be woken early (an edit, a press, shutdown).
/// A wake-up that comes while the loop is busy is kept, so none is lost. Thread-safe.
public final class LoopWaker: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    public init() {}

    /// Wakes the loop now (or its next wait, if it is not waiting).
    public func wake() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard let w = s.waiter else {
                s.pending = true
                return nil
            }
            s.waiter = nil
            return w
        }
        waiter?.resume()
    }

    /// Returns at `deadline`, on `wake()`, or when the task is cancelled, whichever comes first.
    public func wait(until deadline: ContinuousClock.Instant) async {
        if state.withLock({ s in defer { s.pending = false }; return s.pending }) { return }
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            if !Task.isCancelled { self?.wake() }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let now = state.withLock { s -> Bool in
                    if s.pending {
                        s.pending = false
                        return true
                    }
                    s.waiter = c
                    return false
                }
                if now { c.resume() }
            }
        } onCancel: {
            self.wake()
        }
        timer.cancel()
    }
}
