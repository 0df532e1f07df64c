/// A short text of at most `capacity - 1` bytes stored inline, always NUL-terminated: what the handoff files
/// carry (a device name, a GPIO line, an alarm's name) without a heap allocation, so the second waker can read
/// them again and again after its start without allocating (R35). Bytes are kept as given (UTF-8 in practice).
public struct FixedText<let capacity: Int>: Equatable, Sendable {
    private var storage = InlineArray<capacity, UInt8>(repeating: 0)
    /// Bytes in use, not counting the terminating NUL.
    public private(set) var count = 0

    /// The empty text.
    public init() {}

    /// The bytes of `text`, cut at a character boundary to fit (a multi-byte character is never split).
    public init(_ text: String) {
        var cut = 0
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            guard cut + width <= capacity - 1 else { break }
            cut += width
        }
        var utf8 = text.utf8.makeIterator()
        for _ in 0..<cut { if let b = utf8.next() { append(b) } }
    }

    public var isEmpty: Bool { count == 0 }

    /// Byte `i` (0 ..< count).
    public subscript(i: Int) -> UInt8 { storage[i] }

    /// Empties the text.
    public mutating func removeAll() {
        for i in 0..<count { storage[i] = 0 }
        count = 0
    }

    /// Adds a byte; false (and nothing added) when full.
    @discardableResult
    public mutating func append(_ byte: UInt8) -> Bool {
        guard count < capacity - 1 else { return false }
        storage[count] = byte
        count += 1
        return true
    }

    /// Replaces the text with `bytes` (cut to fit; control characters become spaces, so a text never breaks a line).
    public mutating func set(_ bytes: UnsafeRawBufferPointer) {
        removeAll()
        for b in bytes { append(b < 0x20 || b == 0x7F ? 0x20 : b) }
    }

    /// Whether the text equals the ASCII `literal`.
    public func equals(_ literal: StaticString) -> Bool {
        guard literal.utf8CodeUnitCount == count else { return false }
        let p = literal.utf8Start
        for i in 0..<count where storage[i] != p[i] { return false }
        return true
    }

    /// Calls `body` with the text as a C string.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in body(raw.baseAddress!.assumingMemoryBound(to: CChar.self)) }
    }

    /// Calls `body` with the text's bytes (without the NUL).
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in body(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
    }

    /// The text as a `String` (for the daemon and the CLI; the waker never needs one).
    public var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    public static func == (a: Self, b: Self) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a.storage[i] != b.storage[i] { return false }
        return true
    }
}

/// A device name, a GPIO line or a path inside the handoff files.
public typealias LongText = FixedText<256>
/// An alarm's name as the waker shows it in its log (cut to 63 bytes).
public typealias ShortText = FixedText<64>
