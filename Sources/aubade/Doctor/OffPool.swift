import Foundation

/// Runs blocking work (ALSA, sysfs and SQLite reads, statvfs, a socket exchange) on a thread of its own, so
/// that doctor's async checks never block the cooperative pool.
enum OffPool {
    static func run<T: Sendable>(_ name: String, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (done: CheckedContinuation<T, Never>) in
            let thread = Thread { done.resume(returning: body()) }
            thread.name = name
            thread.start()
        }
    }
}
