/// May the radio be streamed now? With Wi-Fi-only (`appSet.isWifi`) on, only when every default route
/// (IPv4 and IPv6, each the lowest-metric one) goes through a wireless interface that is up — a stream may
/// use either family, so one wired default route is enough to refuse. Otherwise always.
///
/// Pure. A refusal carries one sentence naming the interface, for the user and the alarm's history; the
/// alarm then plays the built-in tone.
public enum NetworkPolicy {
    public enum Decision: Hashable, Sendable {
        case allow
        case refuse(reason: String)

        public var isAllowed: Bool { self == .allow }
    }

    public static func streaming(wifiOnly: Bool, network: NetworkSnapshot) -> Decision {
        guard wifiOnly else { return .allow }
        let routes = network.routes
        guard !routes.isEmpty else {
            if let problem = network.problems.first {
                return .refuse(reason: "Wi-Fi-only mode is on and the default route cannot be checked: \(trimmed(problem)).")
            }
            return .refuse(
                reason: "Wi-Fi-only mode is on and there is no default route, so there is no Wi-Fi connection to stream over.")
        }
        for route in routes {
            if !route.isWireless {
                return .refuse(
                    reason:
                        "Wi-Fi-only mode is on, but the \(route.family.rawValue) default route goes through \(route.interface), which is not a wireless interface."
                )
            }
            if !route.isUp {
                let state = route.operState.isEmpty ? "unreadable" : route.operState
                return .refuse(
                    reason:
                        "Wi-Fi-only mode is on, but the wireless interface \(route.interface) that carries the \(route.family.rawValue) default route is not up (state: \(state))."
                )
            }
        }
        return .allow
    }

    private static func trimmed(_ sentence: String) -> String {
        sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }
}
