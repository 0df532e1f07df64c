public import AubadeCore
import Synchronization

/// Jobs held until a test runs them (`BackgroundJobs`), so a test decides when a pre-check "finishes".
/// Thread-safe.
public final class ManualJobs: BackgroundJobs {
    private let pending = Mutex<[@Sendable () async -> Void]>([])

    public init() {}

    public func submit(_ job: @escaping @Sendable () async -> Void) { pending.withLock { $0.append(job) } }

    public var count: Int { pending.withLock { $0.count } }

    /// Runs every job submitted so far (and those they submit), in order.
    public func runAll() async {
        while let job = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { await job() }
    }
}
