import Glibc

/// Starts the dedicated threads that run blocking work (alsa-lib, curl, SQLite commits, gpiod waits, sysfs
/// reads) off the cooperative pool. Each is named for the kernel from inside itself before its work begins, so
/// `ps -L`, `top -H` and /proc/<pid>/task/*/comm show which part of the clock is running ("aubade.audio",
/// "aubade.clock", "aubade-gpio", …). The name is written to /proc/thread-self/comm — what prctl(PR_SET_NAME)
/// sets — because both prctl and pthread_setname_np are out of Swift's reach without a C shim.
public enum NamedThread {
    /// The bytes of a name the kernel keeps (TASK_COMM_LEN - 1).
    public static let nameLimit = 15

    /// Starts `body` on a new thread named `name` (cut to `nameLimit` bytes), with a stack of `stackSize` bytes
    /// (nil: the system's default). The thread is detached: it ends when `body` returns. False when the system
    /// refused a new thread; `body` has not run then.
    @discardableResult
    public static func start(_ name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, max(stackSize, Int(PTHREAD_STACK_MIN))) }
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, &attributes,
            { raw in
                guard let raw else { return nil }
                let start = Unmanaged<Start>.fromOpaque(raw).takeRetainedValue()
                NamedThread.nameThisThread(start.name)
                start.body()
                return nil
            }, start)
        guard rc == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            return false
        }
        return true
    }

    /// Names the calling thread for the kernel; false when /proc refused it (the thread runs on unnamed).
    @discardableResult
    public static func nameThisThread(_ name: String) -> Bool {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var name = name
        return name.withUTF8 { bytes in
            // Cut at a character boundary within the limit, as the kernel would keep the first 15 bytes.
            var count = min(bytes.count, nameLimit)
            while count > 0, count < bytes.count, bytes[count] & 0xC0 == 0x80 { count -= 1 }
            return write(fd, bytes.baseAddress, count) == count
        }
    }

    /// The calling thread's kernel name.
    public static var currentName: String {
        let fd = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var buffer = InlineArray<32, UInt8>(repeating: 0)
        let n = withUnsafeMutableBytes(of: &buffer) { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return "" }
        return withUnsafeBytes(of: buffer) { raw in
            String(decoding: raw[0..<n].prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        }
    }

    private final class Start {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
