public import AubadeApp
import Foundation
public import Hummingbird
public import NIOCore

/// What a request carries through the middleware to its route: who sent it (the connected address — never a
/// header such as X-Forwarded-For, R30), whether that is the clock's own machine, the token it proved, and its
/// body, read once and bounded.
public struct APIContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's address as connected (nil when unknown: then it is not the clock's own machine).
    public let peer: SocketAddress?
    /// The token the request proved, if any.
    public var token: TokenRegistry.Entry?
    /// The request's body, read by `BodyGuard` (empty for a GET).
    public var body = ByteBuffer()

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress
    }

    public var maxUploadSize: Int { 64 * 1024 }

    /// Whether the request comes from the clock's own machine: a loopback peer (127.0.0.0/8, ::1, or an IPv4
    /// loopback address mapped into IPv6).
    public var fromOwnMachine: Bool { PeerAddress.isLoopback(peer) }

    /// The peer's address as text, the rate limiter's key ("unknown" when there is none).
    var peerKey: String { peer?.ipAddress ?? "unknown" }
}

/// Classifies peer addresses.
public enum PeerAddress {
    /// True for a loopback address: 127.0.0.0/8, ::1, ::ffff:127.x.y.z. Nil (unknown) is not.
    public static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard let address, let ip = address.ipAddress?.lowercased() else { return false }
        switch address {
        case .v4: return ip.hasPrefix("127.")
        case .v6: return ip == "::1" || ip.hasPrefix("::ffff:127.")
        default: return false
        }
    }
}
