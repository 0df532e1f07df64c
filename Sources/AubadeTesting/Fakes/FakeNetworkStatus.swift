public import AubadeCore
import Synchronization

/// A network status for tests (`NetworkStatus`): whatever `set` last stored; `changes` notices it on its next
/// poll.
public final class FakeNetworkStatus: NetworkStatus {
    private let snapshot: Mutex<NetworkSnapshot>

    public init(_ snapshot: NetworkSnapshot = NetworkSnapshot()) {
        self.snapshot = Mutex(snapshot)
    }

    public func set(_ new: NetworkSnapshot) {
        snapshot.withLock { $0 = new }
    }

    public func current() -> NetworkSnapshot { snapshot.withLock { $0 } }
}
