/// Parses the kernel's route tables for default routes. Pure text in, candidates out.
enum RouteTables {
    struct Candidate: Hashable {
        var interface: String
        var metric: Int
    }

    private static let up = 0x0001  // RTF_UP
    private static let reject = 0x0200  // RTF_REJECT ("unreachable" routes, e.g. IPv6's default on lo)

    /// /proc/net/route: a header line, then "Iface Destination Gateway Flags RefCnt Use Metric Mask …",
    /// addresses and flags in hex, the metric in decimal. A default route has destination and mask 0.
    static func ipv4Defaults(_ text: String) -> [Candidate] {
        text.split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard f.count >= 8, f[1] == "00000000", f[7] == "00000000",
                let flags = Int(f[3], radix: 16), let metric = Int(f[6])
            else { return nil }
            return usable(String(f[0]), flags) ? Candidate(interface: String(f[0]), metric: metric) : nil
        }
    }

    /// /proc/net/ipv6_route: "dest destlen src srclen nexthop metric refcnt use flags iface", all hex.
    /// A default route has a zero destination of length 0.
    static func ipv6Defaults(_ text: String) -> [Candidate] {
        text.split(separator: "\n").compactMap { line in
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard f.count >= 10, f[0].allSatisfy({ $0 == "0" }), f[1] == "00",
                let metric = Int(f[5], radix: 16), let flags = Int(f[8], radix: 16)
            else { return nil }
            return usable(String(f[9]), flags) ? Candidate(interface: String(f[9]), metric: metric) : nil
        }
    }

    /// The lowest metric wins; ties go to the first listed (the kernel's order).
    static func best(_ candidates: [Candidate]) -> Candidate? {
        candidates.enumerated().min { ($0.element.metric, $0.offset) < ($1.element.metric, $1.offset) }?.element
    }

    private static func usable(_ interface: String, _ flags: Int) -> Bool {
        flags & up != 0 && flags & reject == 0 && interface != "lo"
    }
}
