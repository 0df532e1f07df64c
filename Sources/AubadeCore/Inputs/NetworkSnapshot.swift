/// The facts the Wi-Fi-only policy needs: for each IP family, the interface that carries the default route.
public struct NetworkSnapshot: Hashable, Sendable {
    public enum Family: String, Hashable, Sendable, Codable {
        case ipv4 = "IPv4"
        case ipv6 = "IPv6"
    }

    /// The winning (lowest-metric) default route of one family.
    public struct DefaultRoute: Hashable, Sendable {
        public var family: Family
        public var interface: String
        public var metric: Int
        /// `/sys/class/net/<if>/wireless` or `phy80211` exists.
        public var isWireless: Bool
        /// `/sys/class/net/<if>/operstate` ("up", "down", "dormant", "unknown", …; "" if unreadable).
        public var operState: String

        public init(family: Family, interface: String, metric: Int, isWireless: Bool, operState: String) {
            self.family = family
            self.interface = interface
            self.metric = metric
            self.isWireless = isWireless
            self.operState = operState
        }

        /// "up", or "unknown" (drivers that do not report a state, e.g. some USB and tunnel devices).
        public var isUp: Bool { operState == "up" || operState == "unknown" }
    }

    public var ipv4: DefaultRoute?
    public var ipv6: DefaultRoute?
    /// Sentences for route tables that could not be read (e.g. no IPv6 in the kernel is not a problem,
    /// an unreadable /proc/net/route is).
    public var problems: [String]

    public init(ipv4: DefaultRoute? = nil, ipv6: DefaultRoute? = nil, problems: [String] = []) {
        self.ipv4 = ipv4
        self.ipv6 = ipv6
        self.problems = problems
    }

    public var routes: [DefaultRoute] { [ipv4, ipv6].compactMap { $0 } }
}
