import Synchronization

/// A one-way flag a dedicated thread polls to know it should release its device and end.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    var isSet: Bool { flag.load(ordering: .acquiring) }

    func set() {
        flag.store(true, ordering: .releasing)
    }
}
