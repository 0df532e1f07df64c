import AubadeSystem
import Glibc
import Testing

/// The one `sockaddr_un` builder: what fits, what is refused, and the lengths the kernel is given.
@Suite("AF_UNIX address")
struct UnixAddressTests {
    static func notify(_ name: String) throws -> UnixAddress {
        try Array(name.utf8).withUnsafeBytes { try UnixAddress(notifySocket: $0) }
    }

    @Test func aPathKeepsItsBytesAndItsNul() throws {
        let address = try UnixAddress(path: "/run/aubade/clock.sqlite.sock")
        #expect(!address.isAbstract)
        #expect(Int(address.length) == MemoryLayout<sa_family_t>.size + 29 + 1)
        let (family, path) = address.withSockaddr { sa, _ in
            sa.withMemoryRebound(to: sockaddr_un.self, capacity: 1) { un in
                (
                    Int32(un.pointee.sun_family),
                    withUnsafeBytes(of: un.pointee.sun_path) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                )
            }
        }
        #expect(family == AF_UNIX)
        #expect(path == "/run/aubade/clock.sqlite.sock")
    }

    @Test func theLongestPathFitsAndOneByteMoreIsRefused() throws {
        let longest = "/" + String(repeating: "p", count: UnixAddress.capacity - 2)
        #expect(try UnixAddress(path: longest).length == socklen_t(MemoryLayout<sa_family_t>.size + UnixAddress.capacity))
        #expect(throws: Errno(ENAMETOOLONG)) { try UnixAddress(path: longest + "p") }
        #expect(throws: Errno(EINVAL)) { try UnixAddress(path: "") }
    }

    @Test func anAbstractNameHasALeadingNulAndNoTrailingOne() throws {
        let address = try Self.notify("@aubade")
        #expect(address.isAbstract)
        #expect(Int(address.length) == MemoryLayout<sa_family_t>.size + 7)
        let bytes = address.withSockaddr { sa, length in
            sa.withMemoryRebound(to: sockaddr_un.self, capacity: 1) { un in
                withUnsafeBytes(of: un.pointee.sun_path) { Array($0.prefix(Int(length) - MemoryLayout<sa_family_t>.size)) }
            }
        }
        #expect(bytes == [0] + Array("aubade".utf8))
        // An abstract name may fill all of sun_path; a byte more is refused.
        let longest = "@" + String(repeating: "a", count: UnixAddress.capacity - 1)
        #expect(try Self.notify(longest).length == socklen_t(MemoryLayout<sa_family_t>.size + UnixAddress.capacity))
        #expect(throws: Errno(ENAMETOOLONG)) { try Self.notify(longest + "a") }
        #expect(throws: Errno(EINVAL)) { try Self.notify("@") }
        // Without an @, systemd's variable names a path.
        #expect(try !Self.notify("/run/systemd/notify").isAbstract)
    }
}
