import Foundation
import Glibc
import Synchronization

/// The names the clock answers to in a request's Host header (DNS rebinding gets 403, R31): the bind
/// address, localhost, the loopback addresses, the machine's host name and name.local, the machine's own
/// interface addresses (looked up again at most once a minute: DHCP may change them) and `allowed`.
final class HostPolicy: Sendable {
    private let fixed: Set<String>
    private let cache = Mutex<(at: Date, addresses: Set<String>)>((.distantPast, []))

    init(bind: String, allowed: [String]) {
        var names: Set<String> = ["localhost", "127.0.0.1", "::1", "localhost.localdomain"]
        if !["0.0.0.0", "::", ""].contains(bind) { names.insert(HostPolicy.normalised(bind)) }
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count) == 0 {
            let host = HostPolicy.normalised(HostPolicy.text(buffer))
            if !host.isEmpty {
                names.insert(host)
                names.insert(host + ".local")
                if let short = host.split(separator: ".").first.map(String.init) {
                    names.insert(short)
                    names.insert(short + ".local")
                }
            }
        }
        for name in allowed { names.insert(HostPolicy.normalised(name)) }
        fixed = names
    }

    /// Whether `authority` (the Host header: "name", "name:port", "[v6]:port") names this clock.
    func allows(_ authority: String) -> Bool {
        let host = HostPolicy.hostPart(of: authority)
        if host.isEmpty { return false }
        if fixed.contains(host) { return true }
        return ownAddresses().contains(host)
    }

    /// The host of an authority, lowercased, without port, brackets or a trailing dot.
    static func hostPart(of authority: String) -> String {
        var text = Substring(authority.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return "" }
            text = text[text.index(after: text.startIndex)..<close]
        } else if let colon = text.lastIndex(of: ":"), text.filter({ $0 == ":" }).count == 1 {
            text = text[..<colon]
        }
        return normalised(String(text))
    }

    /// A NUL-terminated C string in `buffer` as text.
    static func text(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func normalised(_ name: String) -> String {
        var n = name.lowercased()
        if n.hasPrefix("["), n.hasSuffix("]") { n = String(n.dropFirst().dropLast()) }
        while n.hasSuffix(".") { n.removeLast() }
        return n
    }

    private func ownAddresses() -> Set<String> {
        let now = Date()
        if let fresh = cache.withLock({ now.timeIntervalSince($0.at) < 60 ? $0.addresses : nil }) { return fresh }
        var found: Set<String> = []
        var list: UnsafeMutablePointer<ifaddrs>?
        if getifaddrs(&list) == 0 {
            var cursor = list
            while let entry = cursor {
                if let address = entry.pointee.ifa_addr {
                    let family = Int32(address.pointee.sa_family)
                    if family == AF_INET || family == AF_INET6 {
                        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                        let length = socklen_t(
                            family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
                        if getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 {
                            let text = HostPolicy.text(host)
                            found.insert(HostPolicy.normalised(String(text.split(separator: "%").first ?? Substring(text))))
                        }
                    }
                }
                cursor = entry.pointee.ifa_next
            }
            freeifaddrs(list)
        }
        cache.withLock { $0 = (now, found) }
        return found
    }
}
