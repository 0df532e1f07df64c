public import AubadeCore
import Synchronization

/// A shake sensor for tests (`ShakeSensor`): `shake(at:)` reports a shake to every stream that is still alive.
public final class FakeShakeSensor: ShakeSensor {
    private let listeners = Mutex<[Int: AsyncStream<Duration>.Continuation]>([:])
    private let nextID = Atomic<Int>(0)

    public init() {}

    public var description: String { "fake shake sensor" }

    /// How many streams are open now (sensing happens only while someone listens).
    public var listenerCount: Int { listeners.withLock { $0.count } }

    public func shakes() -> AsyncStream<Duration> {
        let (stream, continuation) = AsyncStream<Duration>.makeStream()
        let id = nextID.add(1, ordering: .relaxed).newValue
        listeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [self] _ in _ = listeners.withLock { $0.removeValue(forKey: id) } }
        return stream
    }

    public func shake(at time: Duration) {
        for continuation in listeners.withLock({ Array($0.values) }) { continuation.yield(time) }
    }
}
