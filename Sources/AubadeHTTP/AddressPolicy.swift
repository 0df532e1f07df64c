import Foundation

/// Which peer addresses a stream may connect to (R32), checked on the address actually being connected to,
/// for the first request and every redirect. Link-local, multicast, unspecified and broadcast addresses are
/// always refused; loopback only when allowed (a local test server); private LAN ranges are allowed (a NAS).
public struct AddressPolicy: Sendable {
    public var allowLoopback: Bool

    public init(allowLoopback: Bool) {
        self.allowLoopback = allowLoopback
    }

    /// nil when allowed, else why not (for the error sentence).
    public func refusal(ipv4 a: (UInt8, UInt8, UInt8, UInt8)) -> String? {
        switch a {
        case (127, _, _, _): return allowLoopback ? nil : "a loopback address"
        case (169, 254, _, _): return "a link-local address"
        case (224...239, _, _, _): return "a multicast address"
        case (0, _, _, _): return "an unspecified address"
        case (255, 255, 255, 255): return "the broadcast address"
        default: return nil
        }
    }

    /// The same for an IPv6 address (16 bytes, network order); IPv4-mapped addresses are checked as IPv4.
    public func refusal(ipv6 b: [UInt8]) -> String? {
        guard b.count == 16 else { return "an invalid address" }
        if b[0..<10].allSatisfy({ $0 == 0 }), b[10] == 0xFF, b[11] == 0xFF {
            return refusal(ipv4: (b[12], b[13], b[14], b[15]))
        }
        if b[0..<15].allSatisfy({ $0 == 0 }) {
            if b[15] == 1 { return allowLoopback ? nil : "a loopback address" }
            if b[15] == 0 { return "an unspecified address" }
        }
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return "a link-local address" }
        if b[0] == 0xFF { return "a multicast address" }
        return nil
    }

    /// Checks a `sockaddr` (AF_INET or AF_INET6).
    func refusal(_ address: UnsafeRawPointer, family: Int32) -> String? {
        switch family {
        case AF_INET:
            let v4 = address.loadUnaligned(as: sockaddr_in.self)
            let raw = withUnsafeBytes(of: v4.sin_addr) { Array($0) }
            return refusal(ipv4: (raw[0], raw[1], raw[2], raw[3]))
        case AF_INET6:
            let v6 = address.loadUnaligned(as: sockaddr_in6.self)
            return refusal(ipv6: withUnsafeBytes(of: v6.sin6_addr) { Array($0) })
        default:
            return "an address of an unknown family"
        }
    }
}
