import Synchronization

/// One ordered record of what the fakes were asked, across ports — so a test can check that a state was
/// committed before the sound it guards (R9). Thread-safe.
public final class Journal: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    public func append(_ line: String) { lines.withLock { $0.append(line) } }

    public var entries: [String] { lines.withLock { $0 } }

    /// Index of the first entry starting with `prefix`, after `index` when given.
    public func first(_ prefix: String, after index: Int = -1) -> Int? {
        let all = entries
        return all.indices.first { $0 > index && all[$0].hasPrefix(prefix) }
    }
}
