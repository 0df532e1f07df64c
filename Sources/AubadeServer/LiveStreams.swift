import Hummingbird
import NIOCore
import Synchronization

/// The live event streams (`GET /api/v1/events`) open to other machines, oldest first, at most `bound`
/// (`FairShares.streams`): a new one past the bound ends the oldest, which gets a last comment line and ends; its
/// page connects again (pages/api.js reconnects a stream that ended after a second). The clock's own machine's
/// streams (the kiosk's) are not counted and never ended here. Thread-safe.
final class LiveStreams: Sendable {
    /// The bound of the server answering this request, and whether its peer is the clock's own machine: set for
    /// every request by `LiveStreamAdmission`, read by `LiveEvents` when it opens a stream (the route hands it
    /// only the clock).
    struct Admission: Sendable {
        let streams: LiveStreams
        let ownMachine: Bool
    }

    @TaskLocal static var admission: Admission?

    private struct Open: Sendable {
        let number: UInt64
        let end: @Sendable () -> Void
    }

    private struct State: Sendable {
        var next: UInt64 = 0
        var open: [Open] = []
    }

    let bound: Int
    private let state = Mutex(State())

    init(bound: Int) { self.bound = max(1, bound) }

    /// A stream to another machine opens; `end` ends it. Past the bound the oldest ones are ended (their `end`
    /// called, outside the lock). Returns its number, for `closed`.
    func opened(end: @escaping @Sendable () -> Void) -> UInt64 {
        let (number, ended) = state.withLock { s -> (UInt64, [Open]) in
            s.next += 1
            s.open.append(Open(number: s.next, end: end))
            let excess = max(0, s.open.count - bound)
            let ended = Array(s.open.prefix(excess))
            s.open.removeFirst(excess)
            return (s.next, ended)
        }
        for stream in ended { stream.end() }
        return number
    }

    /// The stream numbered `number` has ended (however it ended).
    func closed(_ number: UInt64) {
        state.withLock { $0.open.removeAll { $0.number == number } }
    }

    /// How many streams to other machines are open.
    var count: Int { state.withLock { $0.open.count } }
}

/// Sets `LiveStreams.admission` for every request: the server's stream bound, and whether the peer is the clock's
/// own machine as `FairShares` judges it.
struct LiveStreamAdmission: RouterMiddleware {
    typealias Context = APIContext
    let streams: LiveStreams
    let isOwnMachine: @Sendable (SocketAddress?) -> Bool

    func handle(_ request: Request, context: APIContext, next: (Request, APIContext) async throws -> Response) async throws
        -> Response
    {
        let admission = LiveStreams.Admission(streams: streams, ownMachine: isOwnMachine(context.peer))
        return try await LiveStreams.$admission.withValue(admission) { try await next(request, context) }
    }
}
