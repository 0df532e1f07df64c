import NIOCore
import Synchronization
import Testing

@testable import AubadeServer

/// `FairShares`' decisions on their own: `ShareTable` (connections from other machines: each peer's share, the
/// pool they share, who gives way), `LiveStreams` (the oldest stream past the bound ends) and the peer names shares
/// are kept under.
@Suite("Fair shares")
struct FairSharesTests {
    @Test func pastItsShareAPeerGivesUpItsOwnOldestWaitingConnectionOrTheNewOne() {
        var table = ShareTable<Int>(perPeer: 3, otherMachines: 10)
        #expect((1...3).map { table.admit($0, peer: "a") } == [.serve, .serve, .serve])
        // All three wait for a request: the oldest makes room.
        #expect(table.admit(4, peer: "a") == .serveClosing(1))
        #expect(table.count(of: "a") == 3)
        // 2 and 3 answer requests, 4 waits: 4 makes room.
        table.began(2)
        table.began(3)
        #expect(table.admit(5, peer: "a") == .serveClosing(4))
        // Every one of its connections answers a request (an event stream, say): the new one is refused.
        table.began(5)
        #expect(table.admit(6, peer: "a") == .refuse)
        #expect(table.count(of: "a") == 3)
        // Another peer is not touched by a's share.
        #expect(table.admit(7, peer: "b") == .serve)
        // A response written: that connection waits again, and is the one to go.
        table.ended(3)
        #expect(table.admit(8, peer: "a") == .serveClosing(3))
        // A connection that closed no longer counts.
        table.closed(2)
        #expect(table.admit(9, peer: "a") == .serve)
        #expect(table.count(of: "a") == 3 && table.total == 4)
    }

    @Test func whenThePoolIsFullThePeerHoldingTheMostGivesWayToOneHoldingTwoLess() {
        var table = ShareTable<Int>(perPeer: 4, otherMachines: 6)
        for key in 1...4 { _ = table.admit(key, peer: "big") }
        for key in 5...6 { _ = table.admit(key, peer: "small") }
        #expect(table.total == 6)
        // A newcomer: "big" holds 4 > 0 + 1, its oldest waiting one goes.
        #expect(table.admit(7, peer: "new") == .serveClosing(1))
        // "small" holds 2 and asks again: "big" holds 3 = 2 + 1, no one gives way for it.
        #expect(table.admit(8, peer: "small") == .refuse)
        // Another newcomer: "big" (3) and "small" (2) both hold more than 0 + 1; the one holding the most gives way.
        #expect(table.admit(9, peer: "other") == .serveClosing(2))
        // "big" answers requests on both of its connections: "small" gives way instead.
        table.began(3)
        table.began(4)
        #expect(table.admit(10, peer: "last") == .serveClosing(5))
        // Only "big" holds two more than a newcomer, and both its connections answer requests: its oldest goes
        // all the same.
        #expect(table.admit(11, peer: "late") == .serveClosing(3))
        // Now every peer holds one: no one gives way, the newcomer is refused.
        #expect(table.admit(12, peer: "later") == .refuse)
        #expect(table.total == 6)
    }

    @Test func pastTheBoundTheOldestStreamEnds() {
        let streams = LiveStreams(bound: 2)
        let ended = Mutex<[Int]>([])
        let first = streams.opened { ended.withLock { $0.append(1) } }
        let second = streams.opened { ended.withLock { $0.append(2) } }
        #expect(ended.withLock { $0 } == [] && streams.count == 2)
        let third = streams.opened { ended.withLock { $0.append(3) } }
        #expect(ended.withLock { $0 } == [1] && streams.count == 2)
        // One that ended by itself frees its place: the next new one ends no other.
        streams.closed(second)
        _ = streams.opened { ended.withLock { $0.append(4) } }
        #expect(ended.withLock { $0 } == [1] && streams.count == 2)
        // Closing one already ended changes nothing.
        streams.closed(first)
        #expect(streams.count == 2)
        _ = streams.opened { ended.withLock { $0.append(5) } }
        #expect(ended.withLock { $0 } == [1, 3])
        _ = third
    }

    @Test func aPeersShareIsKeptUnderItsAddressOrItsIPv6Slash64() throws {
        #expect(ConnectionShares.peerKey(try SocketAddress(ipAddress: "192.168.1.20", port: 5000)) == "192.168.1.20")
        let temporary = try SocketAddress(ipAddress: "2001:db8:1:2:aaaa:bbbb:cccc:dddd", port: 5000)
        let other = try SocketAddress(ipAddress: "2001:db8:1:2::1", port: 6000)
        #expect(ConnectionShares.peerKey(temporary) == "2001:db8:1:2::/64")
        #expect(ConnectionShares.peerKey(other) == ConnectionShares.peerKey(temporary))
        #expect(ConnectionShares.peerKey(try SocketAddress(ipAddress: "::ffff:192.168.1.20", port: 1)) == "::ffff:192.168.1.20")
        #expect(ConnectionShares.peerKey(nil) == "unknown")
    }
}
