import AubadeCore
import Testing

/// Wi-Fi-only mode (`appSet.isWifi`): when streaming is allowed, and the sentence when it is not.
@Suite("Network policy")
struct NetworkPolicyTests {
    typealias Route = NetworkSnapshot.DefaultRoute

    static func v4(_ name: String, wireless: Bool, _ state: String = "up") -> Route {
        Route(family: .ipv4, interface: name, metric: 600, isWireless: wireless, operState: state)
    }

    static func v6(_ name: String, wireless: Bool, _ state: String = "up") -> Route {
        Route(family: .ipv6, interface: name, metric: 1024, isWireless: wireless, operState: state)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let wifiOnly: Bool
        let network: NetworkSnapshot
        /// nil = allowed; else the exact refusal.
        let refusal: String?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "off: a wired route streams", wifiOnly: false, network: NetworkSnapshot(ipv4: v4("eth0", wireless: false)),
            refusal: nil),
        Case(
            name: "off: no route at all is not the policy's business", wifiOnly: false, network: NetworkSnapshot(),
            refusal: nil),
        Case(
            name: "on: wireless and up", wifiOnly: true, network: NetworkSnapshot(ipv4: v4("wlan0", wireless: true)),
            refusal: nil),
        Case(
            name: "on: wireless on both families", wifiOnly: true,
            network: NetworkSnapshot(ipv4: v4("wlan0", wireless: true), ipv6: v6("wlan0", wireless: true)), refusal: nil),
        Case(
            name: "on: IPv6-only Wi-Fi", wifiOnly: true, network: NetworkSnapshot(ipv6: v6("wlan0", wireless: true)),
            refusal: nil),
        Case(
            name: "on: operstate unknown counts as up", wifiOnly: true,
            network: NetworkSnapshot(ipv4: v4("wlan0", wireless: true, "unknown")), refusal: nil),
        Case(
            name: "on: wired default route", wifiOnly: true, network: NetworkSnapshot(ipv4: v4("eth0", wireless: false)),
            refusal: "Wi-Fi-only mode is on, but the IPv4 default route goes through eth0, which is not a wireless interface."),
        Case(
            name: "on: wired IPv6 beside wireless IPv4", wifiOnly: true,
            network: NetworkSnapshot(ipv4: v4("wlan0", wireless: true), ipv6: v6("eth0", wireless: false)),
            refusal: "Wi-Fi-only mode is on, but the IPv6 default route goes through eth0, which is not a wireless interface."),
        Case(
            name: "on: wireless but dormant", wifiOnly: true,
            network: NetworkSnapshot(ipv4: v4("wlan0", wireless: true, "dormant")),
            refusal:
                "Wi-Fi-only mode is on, but the wireless interface wlan0 that carries the IPv4 default route is not up (state: dormant)."
        ),
        Case(
            name: "on: wireless with an unreadable state", wifiOnly: true,
            network: NetworkSnapshot(ipv4: v4("wlan0", wireless: true, "")),
            refusal:
                "Wi-Fi-only mode is on, but the wireless interface wlan0 that carries the IPv4 default route is not up (state: unreadable)."
        ),
        Case(
            name: "on: no default route", wifiOnly: true, network: NetworkSnapshot(),
            refusal: "Wi-Fi-only mode is on and there is no default route, so there is no Wi-Fi connection to stream over."),
        Case(
            name: "on: route table unreadable", wifiOnly: true,
            network: NetworkSnapshot(problems: ["The IPv4 route table cannot be read (/proc/net/route: Permission denied)."]),
            refusal:
                "Wi-Fi-only mode is on and the default route cannot be checked: The IPv4 route table cannot be read (/proc/net/route: Permission denied)."
        ),
    ]

    @Test(arguments: cases)
    func decide(_ c: Case) {
        let decision = NetworkPolicy.streaming(wifiOnly: c.wifiOnly, network: c.network)
        if let refusal = c.refusal {
            #expect(decision == .refuse(reason: refusal))
            #expect(!decision.isAllowed)
        } else {
            #expect(decision == .allow)
        }
    }
}
