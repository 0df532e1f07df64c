import Glibc
public import NIOCore
import Synchronization

/// How the HTTP server shares its connection bound (R37, `APIServer.maxConnections`) among its clients, so that
/// no client can lock another out: one machine's connections count against a share of their own, all other
/// machines together against a pool that leaves room for the clock's own machine, and live event streams to
/// other machines against a smaller bound of their own (`LiveStreams`).
public struct FairShares: Sendable {
    /// Connections one other machine may hold at once. A browser opens at most six to one server (a page's
    /// requests and its event stream), so a page never reaches it; a script or a flood does. Past it, that
    /// peer's own oldest connection waiting for a request (a keep-alive one between requests, or one that never
    /// sent a whole request) is closed to make room; when every one of them is answering a request, the new one
    /// is closed at once instead. An IPv6 peer counts by its /64, so one device's temporary addresses are one peer.
    public var perPeer: Int
    /// Connections all other machines together may hold; the rest of `APIServer.maxConnections` is the clock's own
    /// machine's (the kiosk, the CLI, a reverse proxy on the clock itself), which the network cannot take. When
    /// this pool is full, a newcomer takes the place of a connection of the peer that holds the most, if that peer
    /// holds at least two more than the newcomer's: its oldest one waiting for a request or, when every one of them
    /// answers a request, its oldest (that request is cut off: only a peer holding more than its fair part of a
    /// full pool loses one). Otherwise the newcomer is closed at once.
    public var otherMachines: Int
    /// Live event streams (`GET /api/v1/events`) open to other machines at once; a new one past it ends the oldest.
    public var streams: Int
    /// Whether a peer is the clock's own machine: its connections take no share, are never closed for one and
    /// its streams are not counted; at `APIServer.maxConnections` they wait in the listen backlog, as every
    /// connection did before. The clock's own machine is a loopback peer (`PeerAddress.isLoopback`); a test serving
    /// on 127.0.0.1 passes its own rule, to stand in for other machines with other loopback addresses.
    public var isOwnMachine: @Sendable (SocketAddress?) -> Bool

    /// Eight per machine, 48 for all other machines together (16 of the 64 kept for the clock's own machine), 16
    /// streams. Sixteen streams are far more than a household's open pages (a phone or two, a tablet, a laptop
    /// with a few tabs), yet at most a third of the other machines' pool: streams never stay open for ever in
    /// places that requests need. Each stream also costs the clock one encoded state per change, so their
    /// number is bounded on a small machine.
    public init(
        perPeer: Int = 8, otherMachines: Int = 48, streams: Int = 16,
        isOwnMachine: @escaping @Sendable (SocketAddress?) -> Bool = { PeerAddress.isLoopback($0) }
    ) {
        self.perPeer = max(1, perPeer)
        self.otherMachines = max(1, otherMachines)
        self.streams = max(1, streams)
        self.isOwnMachine = isOwnMachine
    }
}

/// The connections from other machines that the HTTP server holds, whose they are and which of them is answering
/// a request: the decisions of `FairShares`, over keys rather than channels (a value, tested on its own). The
/// clock's own machine's connections are not in it.
struct ShareTable<Key: Hashable & Sendable>: Sendable {
    /// What becomes of a newly accepted connection.
    enum Admission: Equatable, Sendable {
        /// It is served.
        case serve
        /// It is served, and the one given is closed to make room for it.
        case serveClosing(Key)
        /// It is closed at once: its peer's share is full of connections answering requests, or the pool is full
        /// and no peer holds two more than this one.
        case refuse
    }

    private struct Held: Sendable {
        let peer: String
        let order: UInt64
        var requests = 0
    }

    let perPeer: Int
    let otherMachines: Int
    private var held: [Key: Held] = [:]
    private var counts: [String: Int] = [:]
    private var next: UInt64 = 0

    init(perPeer: Int, otherMachines: Int) {
        self.perPeer = perPeer
        self.otherMachines = otherMachines
    }

    /// A connection from `peer` (another machine) was accepted.
    mutating func admit(_ key: Key, peer: String) -> Admission {
        let mine = counts[peer, default: 0]
        var victim: Key?
        if mine >= perPeer {
            // Over its own share: it gives up its own oldest waiting connection, or the new one.
            guard let oldest = oldest(holdingMoreThan: 0, waiting: true, of: peer) else { return .refuse }
            victim = oldest
        } else if held.count >= otherMachines {
            // The pool is full: a peer holding the most (and at least two more than this one) gives way, with a
            // waiting connection if it has one.
            guard let oldest = oldest(holdingMoreThan: mine + 1, waiting: true) ?? oldest(holdingMoreThan: mine + 1)
            else { return .refuse }
            victim = oldest
        }
        if let victim { closed(victim) }
        next += 1
        held[key] = Held(peer: peer, order: next)
        counts[peer, default: 0] += 1
        return victim.map { .serveClosing($0) } ?? .serve
    }

    /// The connection began answering a request.
    mutating func began(_ key: Key) { held[key]?.requests += 1 }

    /// The connection's response has been written.
    mutating func ended(_ key: Key) { held[key]?.requests -= 1 }

    /// The connection closed (or was closed to make room): it no longer counts.
    mutating func closed(_ key: Key) {
        guard let gone = held.removeValue(forKey: key) else { return }
        counts[gone.peer, default: 1] -= 1
        if counts[gone.peer] == 0 { counts[gone.peer] = nil }
    }

    /// How many connections `peer` holds.
    func count(of peer: String) -> Int { counts[peer, default: 0] }

    /// How many connections all other machines hold.
    var total: Int { held.count }

    /// A connection of a peer holding more than `floor` (of `peer` only, when given), answering no request when
    /// `waiting`: of those peers, one holding the most; its oldest such connection.
    private func oldest(holdingMoreThan floor: Int, waiting: Bool = false, of peer: String? = nil) -> Key? {
        var best: (key: Key, count: Int, order: UInt64)?
        for (key, connection) in held
        where (!waiting || connection.requests == 0) && (peer == nil || connection.peer == peer) {
            let count = counts[connection.peer, default: 0]
            guard count > floor else { continue }
            if let b = best, count < b.count || (count == b.count && connection.order > b.order) { continue }
            best = (key, count, connection.order)
        }
        return best?.key
    }
}

/// `FairShares` at the HTTP server: every accepted connection is admitted here once its pipeline is set up
/// (`KeptHTTP1Channel`), and each request is noted while it is answered (`APIServer.http1`). A connection refused
/// or closed to make room is closed on its own event loop, like one closed by the idle timeout. Thread-safe.
final class ConnectionShares: Sendable {
    let limits: FairShares
    private struct State: Sendable {
        var table: ShareTable<ObjectIdentifier>
        var channels: [ObjectIdentifier: any Channel] = [:]
    }
    private let state: Mutex<State>

    init(_ limits: FairShares) {
        self.limits = limits
        state = Mutex(State(table: ShareTable(perPeer: limits.perPeer, otherMachines: limits.otherMachines)))
    }

    /// A connection was accepted; it is served, or closed at once (see `FairShares`), and it may close another.
    func admit(_ channel: any Channel) {
        let address = channel.remoteAddress
        guard !limits.isOwnMachine(address) else { return }
        let key = ObjectIdentifier(channel)
        let peer = Self.peerKey(address)
        let (served, victim) = state.withLock { s -> (Bool, (any Channel)?) in
            switch s.table.admit(key, peer: peer) {
            case .serve:
                s.channels[key] = channel
                return (true, nil)
            case .serveClosing(let other):
                s.channels[key] = channel
                return (true, s.channels.removeValue(forKey: other))
            case .refuse:
                return (false, nil)
            }
        }
        guard served else {
            channel.close(promise: nil)
            return
        }
        // The close future completes while the channel still lives, so its identifier is not yet reused.
        channel.closeFuture.whenComplete { [self] _ in
            state.withLock { s in
                s.table.closed(key)
                s.channels[key] = nil
            }
        }
        victim?.close(promise: nil)
    }

    /// `channel` began answering a request.
    func began(_ channel: any Channel) { state.withLock { $0.table.began(ObjectIdentifier(channel)) } }

    /// `channel`'s response has been written.
    func ended(_ channel: any Channel) { state.withLock { $0.table.ended(ObjectIdentifier(channel)) } }

    /// How many connections other machines hold, and how many of them `peer` (as `peerKey` names it) holds.
    func held(by peer: String? = nil) -> Int {
        state.withLock { s in peer.map { s.table.count(of: $0) } ?? s.table.total }
    }

    /// The name a peer's share is kept under: its address, or for IPv6 its /64 (an IPv4 address mapped into IPv6
    /// is that IPv4 address).
    static func peerKey(_ address: SocketAddress?) -> String {
        guard let address else { return "unknown" }
        if case .v6 = address, let text = address.ipAddress {
            var bytes = [UInt8](repeating: 0, count: 16)
            guard inet_pton(AF_INET6, text, &bytes) == 1 else { return text }
            let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
            if !mapped {
                let groups = stride(from: 0, to: 8, by: 2).map {
                    String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
                }
                return groups.joined(separator: ":") + "::/64"
            }
        }
        return address.ipAddress ?? "unknown"
    }
}
