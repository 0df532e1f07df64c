/// One `struct input_event` as read from /dev/input/eventN, in the layout of a 64-bit Linux
/// (`struct timeval` of two 64-bit words, then `__u16 type`, `__u16 code`, `__s32 value`: 24 bytes).
/// On a 32-bit system the time words are 32 bits (16 bytes); `size` follows the platform's word size.
public struct InputEvent: Hashable, Sendable {
    public static let typeSyn: UInt16 = 0  // EV_SYN
    public static let typeAbs: UInt16 = 3  // EV_ABS
    public static let synReport: UInt16 = 0  // SYN_REPORT
    public static let synDropped: UInt16 = 3  // SYN_DROPPED
    public static let absX: UInt16 = 0, absY: UInt16 = 1, absZ: UInt16 = 2

    static let wordSize = MemoryLayout<Int>.size
    public static let size = 2 * wordSize + 8

    /// The event's timestamp (`CLOCK_MONOTONIC` once `EVIOCSCLOCKID` is set, else the wall clock).
    public var time: Duration
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: Duration, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    /// Decodes whole events from `bytes`; a trailing partial event is left for the caller.
    public static func decode(_ bytes: UnsafeRawBufferPointer) -> [InputEvent] {
        stride(from: 0, through: bytes.count - size, by: size).map { base in
            let seconds =
                wordSize == 8
                ? bytes.loadUnaligned(fromByteOffset: base, as: Int64.self)
                : Int64(bytes.loadUnaligned(fromByteOffset: base, as: Int32.self))
            let micros =
                wordSize == 8
                ? bytes.loadUnaligned(fromByteOffset: base + 8, as: Int64.self)
                : Int64(bytes.loadUnaligned(fromByteOffset: base + 4, as: Int32.self))
            let rest = base + 2 * wordSize
            return InputEvent(
                time: .seconds(seconds) + .microseconds(micros),
                type: bytes.loadUnaligned(fromByteOffset: rest, as: UInt16.self),
                code: bytes.loadUnaligned(fromByteOffset: rest + 2, as: UInt16.self),
                value: bytes.loadUnaligned(fromByteOffset: rest + 4, as: Int32.self))
        }
    }

    /// The event's bytes, as the kernel writes them (and as uinput accepts them).
    public func encoded() -> [UInt8] {
        let (seconds, attoseconds) = time.components
        let micros = attoseconds / 1_000_000_000_000
        var bytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        if InputEvent.wordSize == 8 {
            append(seconds)
            append(micros)
        } else {
            append(Int32(truncatingIfNeeded: seconds))
            append(Int32(truncatingIfNeeded: micros))
        }
        append(type)
        append(code)
        append(value)
        return bytes
    }
}
