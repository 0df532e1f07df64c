public import AubadeCore
import Synchronization

/// The microphone (`RoomListener`) for tests of the clock above it: a journal of what the clock asked, in order;
/// the test hands the verdicts to the clock itself (`ClockInput.roomHeard`, `ClockInput.selfTestHeard`). The real room check is tested on
/// alsa-lib's `file` plugin and on snd-aloop (`hardware/hil`).
public final class FakeRoomListener: RoomListener {
    public enum Call: Hashable, Sendable {
        case arm
        case listen(since: MonotonicInstant)
        case disarm
    }

    private let journal = Mutex<[Call]>([])

    public init() {}

    public func arm() { journal.withLock { $0.append(.arm) } }
    public func disarm() { journal.withLock { $0.append(.disarm) } }
    public func listen(since: MonotonicInstant, report: @escaping @Sendable (RoomReport) -> Void) {
        journal.withLock { $0.append(.listen(since: since)) }
    }

    /// Every call so far, in order.
    public var calls: [Call] { journal.withLock { $0 } }

    /// The instants of every `listen` so far (a ring's, a ladder step's, the self-test's chirp), in order.
    public var listens: [MonotonicInstant] {
        calls.compactMap { if case .listen(let since) = $0 { since } else { nil } }
    }
}
