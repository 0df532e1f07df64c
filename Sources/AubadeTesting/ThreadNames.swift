import Foundation

/// The kernel's names of this process's threads (/proc/self/task/*/comm), as `ps -L` and `top -H` show them.
public func threadNames() -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.map { task in
        let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? "?"
        return comm.trimmingCharacters(in: .whitespacesAndNewlines)
    }.sorted()
}

/// Waits until a thread called `name` runs, checking every 10 ms; false when none did within `limit` (a
/// watchdog). Tests run side by side in one process, so look for a name, never count them.
public func threadAppears(_ name: String, within limit: Duration = .seconds(60)) async -> Bool {
    let end = ContinuousClock.now + limit
    while !threadNames().contains(name) {
        if ContinuousClock.now >= end { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
