import AubadeCore
import AubadeHardware
import AubadeTesting
import Foundation
import Testing

/// The default route and its interface, read from fake /proc/net and /sys/class/net trees.
@Suite("Network status from /proc and /sys")
struct NetworkStatusTests {
    static let header = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT"

    /// A fake tree: route tables and interfaces (name → (wireless marker or nil, operstate)).
    static func tree(route: String?, ipv6: String?, interfaces: [String: (String?, String)]) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory("netstatus")
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir.file("proc/net"), withIntermediateDirectories: true)
        if let route { try route.write(toFile: dir.file("proc/net/route"), atomically: true, encoding: .utf8) }
        if let ipv6 { try ipv6.write(toFile: dir.file("proc/net/ipv6_route"), atomically: true, encoding: .utf8) }
        for (name, (marker, state)) in interfaces {
            let base = dir.file("sys/class/net/\(name)")
            try fm.createDirectory(atPath: base, withIntermediateDirectories: true)
            try "\(state)\n".write(toFile: "\(base)/operstate", atomically: true, encoding: .utf8)
            if let marker { try fm.createDirectory(atPath: "\(base)/\(marker)", withIntermediateDirectories: true) }
        }
        return dir
    }

    static func v4(_ iface: String, dest: String = "00000000", flags: String = "0003", metric: Int, mask: String = "00000000")
        -> String
    {
        "\(iface)\t\(dest)\t0102A8C0\t\(flags)\t0\t0\t\(metric)\t\(mask)\t0\t0\t0"
    }

    static func v6(
        _ iface: String, dest: String = String(repeating: "0", count: 32), len: String = "00", metric: Int,
        flags: String = "00000003"
    ) -> String {
        "\(dest) \(len) \(String(repeating: "0", count: 32)) 00 fe800000000000000000000000000001 \(String(format: "%08x", metric)) 00000001 00000000 \(flags) \(iface)"
    }

    @Test func theLowestMetricDefaultRouteWinsAndItsInterfaceIsDescribed() throws {
        let route = [
            Self.header, Self.v4("eth0", metric: 202), Self.v4("wlan0", metric: 303),
            Self.v4("eth0", dest: "0002A8C0", flags: "0001", metric: 0, mask: "00FFFFFF"),
        ].joined(separator: "\n")
        let ipv6 = [
            Self.v6("wlan0", metric: 600), Self.v6("lo", metric: 0xffff_ffff, flags: "00200200"),
            Self.v6("eth0", dest: "fe800000000000000000000000000000", len: "40", metric: 256),
        ].joined(separator: "\n")
        let dir = try Self.tree(
            route: route, ipv6: ipv6,
            interfaces: ["eth0": (nil, "up"), "wlan0": ("phy80211", "up")])
        let snapshot = SysfsNetworkStatus(root: dir.path).current()
        #expect(snapshot.ipv4 == .init(family: .ipv4, interface: "eth0", metric: 202, isWireless: false, operState: "up"))
        #expect(snapshot.ipv6 == .init(family: .ipv6, interface: "wlan0", metric: 600, isWireless: true, operState: "up"))
        #expect(snapshot.problems.isEmpty)
        let decision = NetworkPolicy.streaming(wifiOnly: true, network: snapshot)
        #expect(
            decision
                == .refuse(
                    reason:
                        "Wi-Fi-only mode is on, but the IPv4 default route goes through eth0, which is not a wireless interface.")
        )
    }

    @Test func aWirelessDefaultRouteAllowsStreamingInWifiOnlyMode() throws {
        let route = [Self.header, Self.v4("wlan0", metric: 600)].joined(separator: "\n")
        let dir = try Self.tree(route: route, ipv6: "", interfaces: ["wlan0": ("wireless", "up")])
        let snapshot = SysfsNetworkStatus(root: dir.path).current()
        #expect(snapshot.ipv4?.isWireless == true)
        #expect(snapshot.ipv6 == nil)
        #expect(NetworkPolicy.streaming(wifiOnly: true, network: snapshot) == .allow)
    }

    @Test func rejectRoutesAndLoopbackAreNotDefaultRoutes() throws {
        let route = [Self.header, Self.v4("eth0", flags: "0201", metric: 0), Self.v4("lo", metric: 0)].joined(separator: "\n")
        let dir = try Self.tree(route: route, ipv6: Self.v6("lo", metric: 0xffff_ffff, flags: "00200200"), interfaces: [:])
        let snapshot = SysfsNetworkStatus(root: dir.path).current()
        #expect(snapshot.routes.isEmpty)
        #expect(snapshot.problems.isEmpty)
    }

    @Test func anInterfaceWithoutOperstateReadsAsUnreadable() throws {
        let dir = try Self.tree(
            route: [Self.header, Self.v4("wlan0", metric: 1)].joined(separator: "\n"), ipv6: nil,
            interfaces: [:])
        let snapshot = SysfsNetworkStatus(root: dir.path).current()
        #expect(snapshot.ipv4?.operState == "")
        #expect(snapshot.ipv4?.isWireless == false)
    }

    @Test func noIPv6InTheKernelIsNotAProblemButAnUnreadableRouteTableIs() throws {
        let dir = try Self.tree(route: nil, ipv6: nil, interfaces: [:])
        let snapshot = SysfsNetworkStatus(root: dir.path).current()
        #expect(snapshot.problems.count == 1)
        #expect(
            snapshot.problems.first?.hasPrefix(
                "The IPv4 route table cannot be read (\(dir.path)/proc/net/route: No such file or directory).") == true)
    }

    @Test func thisMachinesOwnTablesParse() {
        let snapshot = SysfsNetworkStatus().current()
        #expect(snapshot.problems.isEmpty)
        for route in snapshot.routes { #expect(!route.interface.isEmpty && route.interface != "lo") }
    }

    @Test func changesAreNoticedByPollingOnlyWhileSomeoneListens() async throws {
        let route = [Self.header, Self.v4("wlan0", metric: 600)].joined(separator: "\n")
        let dir = try Self.tree(route: route, ipv6: nil, interfaces: ["wlan0": ("wireless", "up")])
        let status = SysfsNetworkStatus(root: dir.path)
        let stream = status.changes(every: .milliseconds(20))
        // The change is made once the first state was seen (the stream keeps only the newest state, so a
        // change made before a slow listener looked would replace it).
        let seen = StreamRecorder(stream)
        #expect(await seen.wait { $0.count >= 1 })
        try "dormant\n".write(toFile: dir.file("sys/class/net/wlan0/operstate"), atomically: true, encoding: .utf8)
        #expect(await seen.wait { $0.count >= 2 })
        seen.cancel()
        #expect(seen.elements.map { $0.ipv4?.operState } == ["up", "dormant"])
    }

    @Test func theFakeAndNullStandIns() async {
        let fake = FakeNetworkStatus()
        let seen = StreamRecorder(fake.changes(every: .milliseconds(10)))
        #expect(await seen.wait { $0.count >= 1 })  // the first state, before the change (see above)
        fake.set(NetworkSnapshot(ipv4: .init(family: .ipv4, interface: "wlan0", metric: 1, isWireless: true, operState: "up")))
        #expect(await seen.wait { $0.count >= 2 })
        seen.cancel()
        #expect(seen.elements.map { $0.ipv4?.interface } == [nil, "wlan0"])
        let null = NullNetworkStatus().current()
        #expect(
            NetworkPolicy.streaming(wifiOnly: true, network: null)
                == .refuse(
                    reason:
                        "Wi-Fi-only mode is on and the default route cannot be checked: The network status is not available on this machine."
                ))
    }
}
