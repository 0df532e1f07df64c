import AubadeTesting
import Foundation
import Synchronization

/// How long a test waits for something that should come: generous, as it only ends a test that is already
/// failing (a loaded two-core machine may take seconds to run a task).
let watchdog = EventProcess.watchdog

/// Collects elements of `stream` until `count` arrived or `timeout` passed, whichever comes first, and
/// returns what arrived. The iterating task is then cancelled, which terminates the stream (as a service
/// does when it stops listening). A short `timeout` only suits checking that something does *not* come.
func collect<T: Sendable>(_ stream: AsyncStream<T>, count: Int, timeout: Duration = watchdog) async -> [T] {
    let box = Collected<T>()
    await withTaskGroup(of: Void.self) { group in
        group.addTask {
            for await element in stream {
                let n = box.elements.withLock {
                    $0.append(element); return $0.count
                }
                if n == count { break }
            }
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
        }
        await group.next()
        group.cancelAll()
    }
    return box.elements.withLock { $0 }
}

/// Collects elements of `stream` until `count` arrived (or the watchdog passed), then listens `quiet` longer
/// for any that should not come, and returns them all; then stops listening, which terminates the stream.
/// However slowly a busy machine delivers the expected ones, only the extra ones are judged by a window.
func collect<T: Sendable>(_ stream: AsyncStream<T>, count: Int, thenQuietFor quiet: Duration) async -> [T] {
    let recorder = StreamRecorder(stream)
    if await recorder.wait(until: { $0.count >= count }) {
        _ = await recorder.wait(timeout: quiet) { $0.count > count }
    }
    recorder.cancel()
    return recorder.elements
}

/// What `collect` has gathered so far, shared with its iterating task.
private final class Collected<T: Sendable>: Sendable {
    let elements = Mutex<[T]>([])
}

/// True when `stream` finishes within `timeout` (a watchdog).
func finishes<T: Sendable>(_ stream: AsyncStream<T>, within timeout: Duration = watchdog) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            for await _ in stream {}
            return !Task.isCancelled
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return false
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
    }
}

/// Waits up to `timeout` (a watchdog) for `condition` to hold, checking every 10 ms: for state that has no
/// event to await (a fake's counters, the threads of this process).
func eventually(within timeout: Duration = watchdog, _ condition: () -> Bool) async -> Bool {
    let end = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= end { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}

/// How many threads of this process carry `name` (Linux: /proc/self/task/*/comm).
func threadCount(named name: String) -> Int {
    threadNames().filter { $0 == name }.count
}
