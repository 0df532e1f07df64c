import AubadeSystemAsync
import Foundation

/// Runs blocking work — a C call that waits, a `waitpid`, a paced ALSA write, a socket `recv` — on a thread
/// of its own and resumes the caller when it returns (AubadeSystemAsync's `runBlocking`, with a test's thread name).
///
/// Swift Testing runs tests concurrently on the cooperative pool, which has one thread per core (two on the
/// CI runner). A test that blocks one of them stalls every other test's awaits, so their watchdogs fire
/// although nothing is wrong. Anything that may block longer than a moment goes through here instead.
public func onThread<T: Sendable, E: Error>(
    _ name: String = "aubade-test",
    _ body: @escaping @Sendable () throws(E) -> T
) async throws(E) -> T {
    try await runBlocking(name, body)
}

/// Runs `body` but gives up on it after `limit`: nil when the limit passed first (the body's task is then
/// cancelled, and left behind if it does not honour that — a body stuck in a blocking call cannot hang the
/// test). A watchdog for waits that would otherwise hang a broken test forever; the limit is generous (a
/// minute or more) because it only ends a test that is already failing.
public func withWatchdog<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async -> T) async -> T? {
    let pending = Locked<CheckedContinuation<T?, Never>?>(nil)
    let finish: @Sendable (T?) -> Void = { value in
        let continuation = pending.withLock { c -> CheckedContinuation<T?, Never>? in
            defer { c = nil }
            return c
        }
        continuation?.resume(returning: value)
    }
    return await withCheckedContinuation { continuation in
        pending.withLock { $0 = continuation }
        let work = Task { await body() }
        let timer = Task {
            try await Task.sleep(for: limit)  // throws when cancelled: the body finished first
            work.cancel()
            finish(nil)
        }
        Task {
            let value = await work.value
            timer.cancel()
            finish(value)
        }
    }
}
