public import AubadeCore

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
        return NetworkSnapshot.DefaultRoute(
            family: family, interface: c.interface, metric: c.metric,
            isWireless: wireless, operState: state)
    }
}
