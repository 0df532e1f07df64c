public import Glibc

/// An AF_UNIX socket address: the `sockaddr_un` and the length to pass with it. A name that does not fit is
/// refused (ENAMETOOLONG), never cut — a cut path names another socket — and building one allocates nothing.
public struct UnixAddress: Sendable {
    private let address: sockaddr_un
    public let length: socklen_t

    /// Bytes `sun_path` holds (108 on Linux): a path fits in one fewer, its terminating NUL in the last.
    public static var capacity: Int { MemoryLayout.size(ofValue: sockaddr_un().sun_path) }

    /// The filesystem socket at `path` (its bytes, without a NUL): at most `capacity - 1` bytes.
    public init(path: UnsafeRawBufferPointer) throws(Errno) {
        (address, length) = try UnixAddress.build(path, abstract: false)
    }

    /// The filesystem socket at `path`.
    public init(path: String) throws(Errno) {
        var path = path
        let built = path.withUTF8 { bytes in
            Result { () throws(Errno) in try UnixAddress.build(UnsafeRawBufferPointer(bytes), abstract: false) }
        }
        (address, length) = try built.get()
    }

    /// The socket systemd names in `$NOTIFY_SOCKET`: a path, or `@name` for the abstract namespace (the `@` stands
    /// for the leading NUL, and the name has no terminating NUL, so it may fill all of `capacity`).
    public init(notifySocket name: UnsafeRawBufferPointer) throws(Errno) {
        (address, length) = try UnixAddress.build(name, abstract: name.first == UInt8(ascii: "@"))
    }

    private static func build(_ name: UnsafeRawBufferPointer, abstract: Bool) throws(Errno) -> (sockaddr_un, socklen_t) {
        guard name.count > (abstract ? 1 : 0) else { throw Errno(EINVAL) }
        guard abstract ? name.count <= capacity : name.count < capacity else { throw Errno(ENAMETOOLONG) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for i in 0..<name.count { raw[i] = name[i] }
            if abstract { raw[0] = 0 } else { raw[name.count] = 0 }
        }
        return (address, socklen_t(MemoryLayout<sa_family_t>.size + name.count + (abstract ? 0 : 1)))
    }

    /// Whether this names a socket in the abstract namespace (no file).
    public var isAbstract: Bool {
        withUnsafeBytes(of: address.sun_path) { $0[0] == 0 }
    }

    /// Calls `body` with the address as the `sockaddr` pointer and length that `connect`, `bind` and `sendto` take.
    public func withSockaddr<R, E: Error>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(E) -> R) throws(E) -> R {
        var copy = address
        return try withUnsafePointer(to: &copy) { p throws(E) in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa throws(E) in try body(sa, length) }
        }
    }
}
