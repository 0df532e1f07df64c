/// Records everything an `AsyncStream` yields, in order, from a task of its own, and lets a test await a
/// condition on what arrived so far (e.g. "a title came after the reconnect") instead of sleeping for a
/// fixed window. The task holds no thread while the stream is quiet.
public final class StreamRecorder<Element: Sendable>: Sendable {
    private let items: Locked<[Element]>
    private let ended: Locked<Bool>
    private let changes: ChangeSignal
    private let task: Task<Void, Never>

    public init(_ stream: AsyncStream<Element>) {
        let items = Locked<[Element]>([])
        let ended = Locked(false)
        let changes = ChangeSignal()
        self.items = items
        self.ended = ended
        self.changes = changes
        task = Task {
            for await element in stream {
                items.withLock { $0.append(element) }
                changes.bump()
            }
            ended.withLock { $0 = true }
            changes.bump()
        }
    }

    deinit { task.cancel() }

    /// Stops listening: the iterating task is cancelled, which terminates the stream (as a service does when
    /// it stops listening).
    public func cancel() { task.cancel() }

    /// What the stream yielded so far.
    public var elements: [Element] { items.withLock { $0 } }
    /// Whether the stream has finished.
    public var hasEnded: Bool { ended.withLock { $0 } }

    /// Waits until `condition` holds for what arrived so far; false when the stream ended without it, or
    /// `timeout` (a watchdog) passed first.
    public func wait(timeout: Duration = EventProcess.watchdog, until condition: ([Element]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let seen = changes.generation
            let finished = hasEnded  // read first: every element came before the end was set
            if condition(elements) { return true }
            if finished || ContinuousClock.now >= deadline || Task.isCancelled { return false }
            await changes.wait(past: seen, until: deadline)
        }
    }

    /// Waits until the stream has finished (false: `timeout` passed first) and returns whether it did.
    public func waitForEnd(timeout: Duration = EventProcess.watchdog) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let seen = changes.generation
            if hasEnded { return true }
            if ContinuousClock.now >= deadline || Task.isCancelled { return false }
            await changes.wait(past: seen, until: deadline)
        }
    }
}
