import Foundation
import Synchronization

/// Lets a loop sleep until its next deadline and be woken early (an edit, a press, shutdown). A wake-up that
/// comes while the loop is busy is kept, so none is lost. Thread-safe.
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

    /// Returns after `duration` (nil: no limit), on `wake()`, or when the task is cancelled, whichever comes
    /// first. The timer is a child task of this call: nothing outlives it.
    public func wait(for duration: Duration?) async {
        if state.withLock({ s in
            defer { s.pending = false }; return s.pending
        }) {
            return
        }
        await withTaskGroup(of: Void.self) { group in
            if let duration {
                group.addTask { try? await Task.sleep(for: duration) }
            }
            group.addTask { await self.woken() }
            await group.next()
            group.cancelAll()
        }
    }

    /// Returns on `wake()` or cancellation.
    private func woken() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let now = state.withLock { s -> Bool in
                    if s.pending || Task.isCancelled {
                        s.pending = false
                        return true
                    }
                    s.waiter = c
                    return false
                }
                if now { c.resume() }
            }
        } onCancel: {
            self.release()
        }
    }

    /// Resumes a waiter without leaving a pending wake-up behind (the wait was cancelled).
    private func release() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume()
    }
}
