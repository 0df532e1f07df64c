/// Asks `look` every `interval` until it gives a value; nil once `limit` has passed without one. The deadline is
/// judged only after a look, so the look after the last sleep always happens: a test whose task was starved past
/// its deadline (the cooperative pool is one thread per core, shared by every test running) still sees what
/// happened meanwhile, and a generous watchdog never fails a wait for something that did happen. For what has no
/// event to await: a log line, a file's growth, a database row.
public func poll<T>(
    _ limit: Duration, every interval: Duration, isolation: isolated (any Actor)? = #isolation,
    _ look: () async throws -> T?
) async rethrows -> T? {
    let deadline = ContinuousClock.now + limit
    while true {
        if let value = try await look() { return value }
        if ContinuousClock.now >= deadline { return nil }
        try? await Task.sleep(for: interval)
    }
}
