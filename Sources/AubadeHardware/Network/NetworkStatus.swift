import AubadeCore

/// Port: which interface carries the default route, and whether it is wireless and up.
/// Implementations: `SysfsNetworkStatus` (/proc/net + /sys/class/net), `NullNetworkStatus`,
/// `FakeNetworkStatus`.
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
    public func changes(every interval: Duration = .seconds(5),
                        clock: any Clock<Duration> = ContinuousClock()) -> AsyncStream<NetworkSnapshot> {
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

/// Reads the default routes from /proc/net/route and /proc/net/ipv6_route (lowest metric per family),
/// and for each route's interface whether /sys/class/net/<if>/wireless or /phy80211 exists and its
/// operstate. `root` prefixes every path, so tests build fake trees in a temp folder.
public struct SysfsNetworkStatus: NetworkStatus {
    public let root: String

    public init(root: String = "") {
        self.root = root
    }

    public func current() -> NetworkSnapshot {
        var snapshot = NetworkSnapshot()
        do throws(SysfsFile.ReadError) {
            let text = try SysfsFile.read(root + "/proc/net/route")
            snapshot.ipv4 = RouteTables.best(RouteTables.ipv4Defaults(text)).map { route($0, .ipv4) }
        } catch {
            snapshot.problems.append("The IPv4 route table cannot be read (\(error.message)).")
        }
        // No /proc/net/ipv6_route means IPv6 is off in the kernel: no IPv6 default route, not a problem.
        if SysfsFile.exists(root + "/proc/net/ipv6_route") {
            do throws(SysfsFile.ReadError) {
                let text = try SysfsFile.read(root + "/proc/net/ipv6_route")
                snapshot.ipv6 = RouteTables.best(RouteTables.ipv6Defaults(text)).map { route($0, .ipv6) }
            } catch {
                snapshot.problems.append("The IPv6 route table cannot be read (\(error.message)).")
            }
        }
        return snapshot
    }

    private func route(_ c: RouteTables.Candidate, _ family: NetworkSnapshot.Family) -> NetworkSnapshot.DefaultRoute {
        let dir = "\(root)/sys/class/net/\(c.interface)"
        let wireless = SysfsFile.exists("\(dir)/wireless") || SysfsFile.exists("\(dir)/phy80211")
        let state = (try? SysfsFile.read("\(dir)/operstate", limit: 64)) ?? ""
        return NetworkSnapshot.DefaultRoute(family: family, interface: c.interface, metric: c.metric,
                                            isWireless: wireless, operState: state)
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
