/// Port: which interface carries the default route, and whether it is wireless and up.
/// Implementations: `SysfsNetworkStatus` (AubadeHardware: /proc/net + /sys/class/net), `NullNetworkStatus`,
/// `FakeNetworkStatus` (AubadeTesting).
///
/// Contract: `current()` reads a few small procfs/sysfs files (no device I/O, microseconds; safe anywhere,
/// including the cooperative pool) and never throws — unreadable tables are listed in
/// `NetworkSnapshot.problems`. `changes(every:clock:)` yields the current snapshot, then each different one,
/// found by polling every `every` (5 s by default) on the injected clock; it polls only while the stream
/// lives and stops when it terminates (the iterating task is cancelled or the stream released). No busy
/// work: a poll is a handful of file reads.
public protocol NetworkStatus: Sendable {
    func current() -> NetworkSnapshot
}

extension NetworkStatus {
    public func changes(
        every interval: Duration = .seconds(5),
        clock: any Clock<Duration> = ContinuousClock()
    ) -> AsyncStream<NetworkSnapshot> {
        let (stream, continuation) = AsyncStream<NetworkSnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            var last: NetworkSnapshot?
            while !Task.isCancelled {
                let now = current()
                if now != last {
                    continuation.yield(now)
                    last = now
                }
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    break  // cancelled
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// A fixed answer, for a machine where the network cannot be inspected: by default no default route, so
/// Wi-Fi-only mode refuses to stream (and says why) rather than guessing.
public struct NullNetworkStatus: NetworkStatus {
    public let snapshot: NetworkSnapshot

    public init(snapshot: NetworkSnapshot = NetworkSnapshot(problems: ["The network status is not available on this machine."])) {
        self.snapshot = snapshot
    }

    public func current() -> NetworkSnapshot { snapshot }
}
