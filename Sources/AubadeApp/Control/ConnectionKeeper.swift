public import NIOCore
import Synchronization

/// Holds each accepted connection's async wrapper (a `NIOAsyncChannel`) until its channel has closed, for both
/// servers (the control socket and the HTTP face).
///
/// Why: swift-nio hands accepted connections to the serving task through an async stream. A connection's
/// outbound writer traps the process ("Deinited NIOAsyncWriter without calling finish()") when its last
/// reference goes while its channel is still open — and the stream drops the connections it buffers when the
/// serving task is cancelled, or when one is delivered after the listening channel closed (swift-nio issues
/// 2637 and 2813). So a server cancelled with connections accepted but not yet served took the whole process
/// down. Held here, such a connection lives on until something closes it (the idle timeout or request
/// deadline, a graceful shutdown's quiescing, the event loop's shutdown); once its channel has closed its writer
/// is finished, and letting it go is safe. The servers still end by graceful shutdown; this only makes a
/// cancellation — a service failing in the group, say — unable to crash the clock.
public final class ConnectionKeeper: Sendable {
    private let held = Mutex<[ObjectIdentifier: any Sendable]>([:])

    public init() {}

    /// Holds `wrapper` until `channel` has closed. Call it in the child channel's initializer, on its event loop.
    public func keep(_ wrapper: some Sendable, of channel: any Channel) {
        let key = ObjectIdentifier(channel)
        held.withLock { $0[key] = wrapper }
        // The close future completes after the channel went inactive and its handlers were removed, which
        // finishes the writer's sink.
        channel.closeFuture.whenComplete { [self] _ in
            _ = held.withLock { $0.removeValue(forKey: key) }
        }
    }

    /// How many connections are held (open, served or not).
    public var count: Int { held.withLock { $0.count } }
}
