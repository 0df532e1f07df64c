import Glibc

/// A system call that failed, by its errno. Plain data: making, copying or throwing one allocates nothing.
public struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: Int32

    public init(_ code: Int32) {
        self.code = code
    }

    /// The calling thread's `errno` now (EIO when it is 0: a call failed without saying why).
    public static var current: Errno { Errno(errno == 0 ? EIO : errno) }

    /// The C library's words for it ("No such file or directory").
    public var description: String { String(cString: strerror(code)) }
}
