public import AubadeCore
import Synchronization

/// A sound engine stand-in for in-process tests (`SoundPort`): records what the clock asked, in order, and hands
/// the events a test sends to the clock exactly as the engine's would be. Thread-safe.
public final class FakeSound: SoundPort {
    public enum Call: Sendable, Equatable {
        case play(SoundID, SoundRequest, paused: Bool)
        case begin(SoundID)
        case beginAt(SoundID, MonotonicInstant)
        case stop(SoundID)
        case volume(SoundID, Int)
    }

    public let events: AsyncStream<SoundEvent>
    private let continuation: AsyncStream<SoundEvent>.Continuation
    private let state = Mutex<(calls: [Call], device: DeviceStatus)>(
        ([], DeviceStatus(isOpen: true, name: "fake", problem: nil, opens: 1)))

    private let journal: Journal?

    public init(journal: Journal? = nil) {
        self.journal = journal
        (events, continuation) = AsyncStream.makeStream(of: SoundEvent.self, bufferingPolicy: .unbounded)
    }

    public func play(_ id: SoundID, _ request: SoundRequest, paused: Bool) {
        state.withLock { s in
            s.calls.append(Call.play(id, request, paused: paused))
            journal?.append("sound.play \(id.value) \(request.priority)\(paused ? " paused" : "")")
        }
    }

    public func begin(_ id: SoundID) {
        state.withLock { $0.calls.append(Call.begin(id)) }
        journal?.append("sound.begin \(id.value)")
    }
    public func begin(_ id: SoundID, at instant: MonotonicInstant) {
        state.withLock { $0.calls.append(Call.beginAt(id, instant)) }
        journal?.append("sound.begin-at \(id.value)")
    }

    public func stop(_ id: SoundID) {
        state.withLock { $0.calls.append(Call.stop(id)) }
        journal?.append("sound.stop \(id.value)")
    }
    public func setVolume(_ id: SoundID, _ volume: Int) { state.withLock { $0.calls.append(Call.volume(id, volume)) } }

    public var device: DeviceStatus {
        state.withLock { $0.device }
    }

    public func setDevice(_ status: DeviceStatus) { state.withLock { $0.device = status } }

    /// Ends `events`, as the engine's shutdown does.
    public func shutdown() async { finish() }

    /// Every call so far, in order.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// The requests played so far (prepared or not), with their ids.
    public var played: [(id: SoundID, request: SoundRequest, paused: Bool)] {
        calls.compactMap { call -> (id: SoundID, request: SoundRequest, paused: Bool)? in
            if case .play(let id, let r, let p) = call { return (id, r, p) }
            return nil
        }
    }

    /// Says what the engine would: the event reaches the clock through `events`.
    public func send(_ event: SoundEvent) { continuation.yield(event) }

    public func finish() { continuation.finish() }
}
