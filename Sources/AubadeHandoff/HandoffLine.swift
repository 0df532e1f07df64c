/// One line of a handoff file: a key word, then fields separated by single spaces; the last field of some
/// lines is "the rest of the line" (a device name may hold spaces). Reading never allocates.
public struct HandoffLine {
    /// The line without its newline.
    public let bytes: UnsafeRawBufferPointer

    /// Whether the line's key word is `word`.
    public func isKey(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard bytes.count >= n, bytes.count == n || bytes[n] == UInt8(ascii: " ") else { return false }
        for i in 0..<n where bytes[i] != word.utf8Start[i] { return false }
        return true
    }

    /// The byte range of field `i` (0 is the first after the key), or nil when the line has fewer fields.
    public func field(_ i: Int) -> UnsafeRawBufferPointer? {
        var start = 0
        for _ in 0...i {
            guard let space = nextSpace(from: start) else { return nil }
            start = space + 1
        }
        let end = nextSpace(from: start) ?? bytes.count
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    /// Field `i` as a whole number, or nil when it is missing or not one.
    public func int(_ i: Int) -> Int64? {
        guard let f = field(i), !f.isEmpty else { return nil }
        var value: Int64 = 0
        var negative = false
        for (k, b) in f.enumerated() {
            if k == 0 && b == UInt8(ascii: "-") { negative = true; continue }
            guard b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int64(b - UInt8(ascii: "0")))
            guard !o1 && !o2 else { return nil }
            value = s
        }
        if negative && f.count == 1 { return nil }
        return negative ? -value : value
    }

    /// Everything after field `i - 1` (so `rest(0)` is all after the key); empty when there is nothing.
    public func rest(_ i: Int) -> UnsafeRawBufferPointer {
        var start = 0
        for _ in 0...i {
            guard let space = nextSpace(from: start) else { return UnsafeRawBufferPointer(rebasing: bytes[bytes.count...]) }
            start = space + 1
        }
        return UnsafeRawBufferPointer(rebasing: bytes[start...])
    }

    /// Whether field `i` is the ASCII `word`.
    public func fieldIs(_ i: Int, _ word: StaticString) -> Bool {
        guard let f = field(i), f.count == word.utf8CodeUnitCount else { return false }
        for k in 0..<f.count where f[k] != word.utf8Start[k] { return false }
        return true
    }

    private func nextSpace(from start: Int) -> Int? {
        var i = start
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: " ") { return i }
            i += 1
        }
        return nil
    }

    /// Calls `body` with each line of `text` (without its newline) until it returns false.
    public static func forEach(in text: UnsafeRawBufferPointer, _ body: (HandoffLine) -> Bool) {
        var start = 0
        while start < text.count {
            var end = start
            while end < text.count && text[end] != UInt8(ascii: "\n") { end += 1 }
            guard body(HandoffLine(bytes: UnsafeRawBufferPointer(rebasing: text[start..<end]))) else { return }
            start = end + 1
        }
    }

    /// Whether `text` is a complete handoff file: its first line is `magic` followed by a space and version 1,
    /// and its last line is "end" (a file cut short — a full disk, a torn write — is never half-believed).
    public static func isComplete(_ text: UnsafeRawBufferPointer, magic: StaticString) -> Bool {
        var first: HandoffLine?
        var last: HandoffLine?
        forEach(in: text) { line in
            if first == nil { first = line }
            if !line.bytes.isEmpty { last = line }
            return true
        }
        guard let first, first.isKey(magic), first.int(0) == 1, let last else { return false }
        return last.isKey("end") && last.bytes.count == 3
    }
}
