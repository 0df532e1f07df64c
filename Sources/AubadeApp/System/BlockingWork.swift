import Foundation

/// Runs blocking work — a download through curl, reading and fsync'ing a file — on a thread of its own and
/// resumes the caller when it returns, so the cooperative pool never waits on it (docs/HOUSE-RULES.md §5).
func runBlocking<T: Sendable, E: Error>(_ name: String, _ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
    let result: Result<T, E> = await withCheckedContinuation { continuation in
        let thread = Thread {
            do throws(E) {
                continuation.resume(returning: .success(try body()))
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        thread.name = name
        thread.start()
    }
    return try result.get()
}
