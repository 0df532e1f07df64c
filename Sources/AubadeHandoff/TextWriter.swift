import Glibc

/// A fixed buffer that lines of text are built in: the handoff files and the waker's log lines. Allocated once
/// (at start); appending never allocates — what does not fit is dropped and `overflowed` says so.
/// Not thread-safe: one owner.
public final class TextWriter {
    private let buffer: UnsafeMutablePointer<UInt8>
    public let capacity: Int
    public private(set) var count = 0
    /// Set when something did not fit since the last `reset`.
    public private(set) var overflowed = false

    public init(capacity: Int) {
        self.capacity = capacity
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    /// Empties the buffer.
    public func reset() {
        count = 0
        overflowed = false
    }

    /// The bytes written so far.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: buffer, count: count) }

    /// The text so far as a `String` (tests and the daemon's side only).
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    public func byte(_ b: UInt8) {
        guard count < capacity else { overflowed = true; return }
        buffer[count] = b
        count += 1
    }

    public func text(_ s: StaticString) {
        let p = s.utf8Start
        for i in 0..<s.utf8CodeUnitCount { byte(p[i]) }
    }

    public func text<let n: Int>(_ t: FixedText<n>) {
        for i in 0..<t.count { byte(t[i]) }
    }

    public func raw(_ bytes: UnsafeRawBufferPointer) {
        for b in bytes { byte(b) }
    }

    /// A whole number in decimal.
    public func int(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        var digits = InlineArray<20, UInt8>(repeating: 0)
        var n = value.magnitude
        var k = 0
        repeat {
            digits[k] = UInt8(ascii: "0") + UInt8(n % 10)
            n /= 10
            k += 1
        } while n > 0
        while k > 0 {
            k -= 1
            byte(digits[k])
        }
    }

    public func int(_ value: Int) { int(Int64(value)) }

    /// Milliseconds as seconds with three decimals: 1764050400123 → "1764050400.123".
    public func seconds(milliseconds ms: Int64) {
        if ms < 0 { byte(UInt8(ascii: "-")) }
        let m = ms.magnitude
        int(Int64(m / 1000))
        byte(UInt8(ascii: "."))
        let frac = m % 1000
        byte(UInt8(ascii: "0") + UInt8(frac / 100))
        byte(UInt8(ascii: "0") + UInt8(frac / 10 % 10))
        byte(UInt8(ascii: "0") + UInt8(frac % 10))
    }

    /// A JSON string literal of `bytes` (quotes, backslashes and control characters escaped).
    public func jsonString(_ bytes: UnsafeRawBufferPointer) {
        byte(UInt8(ascii: "\""))
        for b in bytes {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                byte(UInt8(ascii: "\\"))
                byte(b)
            case 0..<0x20:
                text("\\u00")
                let hex: StaticString = "0123456789abcdef"
                byte(hex.utf8Start[Int(b >> 4)])
                byte(hex.utf8Start[Int(b & 15)])
            default:
                byte(b)
            }
        }
        byte(UInt8(ascii: "\""))
    }

    public func jsonString<let n: Int>(_ t: FixedText<n>) {
        t.withBytes { jsonString($0) }
    }

    public func jsonString(_ s: StaticString) {
        jsonString(UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// Writes the buffer to `fd` with one `write(2)` (a log line never interleaves with another).
    public func write(to fd: Int32) {
        var done = 0
        while done < count {
            let n = Glibc.write(fd, buffer + done, count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            done += n
        }
    }
}

extension TextWriter {
    /// Unix milliseconds as an ISO-8601 UTC instant, to the second: 1764057600000 → "2025-11-25T08:00:00Z".
    public func iso8601(milliseconds ms: Int64) {
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        var days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        // Civil date from days since 1970-01-01 (H. Hinnant's days_from_civil, inverted).
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        int(year)
        byte(UInt8(ascii: "-"))
        twoDigits(month)
        byte(UInt8(ascii: "-"))
        twoDigits(day)
        byte(UInt8(ascii: "T"))
        twoDigits(inDay / 3600)
        byte(UInt8(ascii: ":"))
        twoDigits(inDay / 60 % 60)
        byte(UInt8(ascii: ":"))
        twoDigits(inDay % 60)
        byte(UInt8(ascii: "Z"))
    }

    private func twoDigits(_ n: Int64) {
        byte(UInt8(ascii: "0") + UInt8(n / 10 % 10))
        byte(UInt8(ascii: "0") + UInt8(n % 10))
    }
}
