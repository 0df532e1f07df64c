import Glibc

/// A process told apart from any later one that reuses its pid: the pid and its start time (clock ticks
/// after boot, field 22 of `/proc/<pid>/stat`). The daemon and the waker name themselves this way in their
/// files, so neither ever signals or trusts a stranger that inherited a number.
public struct ProcessIdentity: Equatable, Sendable {
    public var pid: Int32
    public var startTicks: UInt64

    public init(pid: Int32, startTicks: UInt64) {
        self.pid = pid
        self.startTicks = startTicks
    }

    /// This process.
    public static var current: ProcessIdentity {
        let pid = getpid()
        return ProcessIdentity(pid: pid, startTicks: startTicks(of: pid) ?? 0)
    }

    /// Whether that same process still runs (a zombie counts as gone).
    public var isAlive: Bool {
        guard pid > 0, let stat = ProcessIdentity.stat(of: pid) else { return false }
        return stat.ticks == startTicks && stat.state != UInt8(ascii: "Z") && stat.state != UInt8(ascii: "X")
    }

    /// The start time of process `pid`, or nil when there is none.
    public static func startTicks(of pid: Int32) -> UInt64? { stat(of: pid)?.ticks }

    /// Field 3 (state) and field 22 (start time) of /proc/<pid>/stat. The command name (field 2) may hold
    /// spaces and parentheses, so fields are counted from the last ')'.
    static func stat(of pid: Int32) -> (state: UInt8, ticks: UInt64)? {
        var path = FixedText<48>()
        for b in "/proc/".utf8 { path.append(b) }
        appendDecimal(Int64(pid), to: &path)
        for b in "/stat".utf8 { path.append(b) }
        var buffer = InlineArray<512, UInt8>(repeating: 0)
        let n: Int = path.withCString { p in
            withUnsafeMutableBytes(of: &buffer) { raw in
                let fd = open(p, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { return -1 }
                defer { close(fd) }
                return read(fd, raw.baseAddress, raw.count)
            }
        }
        guard n > 0 else { return nil }
        var paren = -1
        for i in 0..<n where buffer[i] == UInt8(ascii: ")") { paren = i }
        guard paren >= 0 else { return nil }
        // After ") ": field 3 is the state; field 22 is 19 fields further.
        var field = 2
        var i = paren + 1
        var state: UInt8 = 0
        var value: UInt64 = 0
        var inValue = false
        while i < n {
            let b = buffer[i]
            if b == UInt8(ascii: " ") {
                if inValue && field == 22 { return (state, value) }
                inValue = false
            } else {
                if !inValue {
                    field += 1
                    inValue = true
                    if field == 3 { state = b }
                }
                if field == 22 {
                    guard b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") else { return nil }
                    value = value &* 10 &+ UInt64(b - UInt8(ascii: "0"))
                }
            }
            i += 1
        }
        return field >= 22 ? (state, value) : nil
    }

    /// The process's state letter (R running, S sleeping, T stopped, D disk wait, …), or nil when it is gone.
    public var state: UInt8? {
        guard let s = ProcessIdentity.stat(of: pid), s.ticks == startTicks else { return nil }
        return s.state
    }
}

func appendDecimal<let n: Int>(_ value: Int64, to text: inout FixedText<n>) {
    if value < 0 { text.append(UInt8(ascii: "-")) }
    var digits = InlineArray<20, UInt8>(repeating: 0)
    var v = value.magnitude
    var k = 0
    repeat {
        digits[k] = UInt8(ascii: "0") + UInt8(v % 10)
        v /= 10
        k += 1
    } while v > 0
    while k > 0 {
        k -= 1
        text.append(digits[k])
    }
}
