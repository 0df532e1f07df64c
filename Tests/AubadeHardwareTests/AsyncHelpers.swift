import Foundation
import Synchronization

/// Collects elements of `stream` until `count` arrived or `timeout` passed, whichever comes first, and
/// returns what arrived. The iterating task is then cancelled, which terminates the stream (as a service
/// does when it stops listening).
func collect<T: Sendable>(_ stream: AsyncStream<T>, count: Int, timeout: Duration = .seconds(5)) async -> [T] {
    let box = Collected<T>()
    await withTaskGroup(of: Void.self) { group in
        group.addTask {
            for await element in stream {
                let n = box.elements.withLock { $0.append(element); return $0.count }
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

/// What `collect` has gathered so far, shared with its iterating task.
private final class Collected<T: Sendable>: Sendable {
    let elements = Mutex<[T]>([])
}

/// True when `stream` finishes within `timeout`.
func finishes<T: Sendable>(_ stream: AsyncStream<T>, within timeout: Duration = .seconds(5)) async -> Bool {
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

/// Waits up to `timeout` for `condition` to hold, checking every 10 ms.
func eventually(within timeout: Duration = .seconds(2), _ condition: () -> Bool) async -> Bool {
    let end = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= end { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}

/// How many threads of this process carry `name` (Linux: /proc/self/task/*/comm).
func threadCount(named name: String) -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.filter { task in
        let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
        return comm.trimmingCharacters(in: .whitespacesAndNewlines) == name
    }.count
}
