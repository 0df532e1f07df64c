import Glibc

/// The process's file descriptors as a resource that must never run out. libdispatch — under Swift's
/// concurrency runtime and Foundation — opens `/proc` files from its own threads and traps when it cannot,
/// so a clock that used its last descriptor (a reconnecting station, a device reopened in a loop) would die
/// at a random moment. The clock therefore raises its soft limit at start, and every part that opens
/// descriptors on its own schedule (the sound device, station connections) first checks that some stay free.
public enum FileDescriptors {
    /// Descriptors left free for the runtime whatever the clock opens.
    public static let reserve = 4

    /// Raises the soft `RLIMIT_NOFILE` to the hard limit (as a daemon should); returns the soft limit now.
    @discardableResult
    public static func raiseLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// The soft limit now.
    public static var limit: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// True when `count` more descriptors could be opened now (probed by duplicating standard input and
    /// closing the copies at once).
    public static func haveFree(_ count: Int) -> Bool {
        var probes: [Int32] = []
        defer { for fd in probes { close(fd) } }
        for _ in 0..<count {
            let fd = fcntl(0, F_DUPFD_CLOEXEC, 0)
            guard fd >= 0 else { return false }
            probes.append(fd)
        }
        return true
    }

    /// The sentence for a part that did not open something because too few descriptors are free.
    public static func exhausted(_ what: String) -> String {
        "Too few file descriptors are free to open \(what) (the limit is \(limit)); the clock keeps \(reserve) for itself and retries."
    }
}
