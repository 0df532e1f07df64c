/// Splits a SHOUTcast/Icecast byte stream with interleaved metadata (`icy-metaint`) into audio bytes and
/// metadata blocks, so the decoder only ever sees audio (mpg123's own ICY support does not work in feed
/// mode: shared/reference/swift-probe.md §4).
///
/// Layout: `metaint` audio bytes, one length byte L, then L × 16 bytes of metadata (so at most 4080), repeat.
/// An interval outside 1…65536 turns metadata off and passes everything through as audio (R23). A malformed
/// block is dropped; it never stops the audio.
public struct ICYDemuxer: Sendable {
    public static let validIntervals = 1...65536

    private enum State: Sendable {
        case audio(remaining: Int)
        case length
        case metadata(remaining: Int)
    }

    public let interval: Int?
    private var state: State
    private var block: [UInt8] = []

    /// `interval` is the `icy-metaint` header value, or nil when the server sent none.
    public init(interval: Int?) {
        if let interval, ICYDemuxer.validIntervals.contains(interval) {
            self.interval = interval
            state = .audio(remaining: interval)
        } else {
            self.interval = nil
            state = .audio(remaining: .max)
        }
    }

    /// Whether metadata is being stripped (false: a pass-through).
    public var isActive: Bool { interval != nil }

    /// Consumes `bytes`; calls `audio` with each run of audio bytes (in order, possibly several times) and
    /// returns the metadata blocks completed by this chunk, as raw bytes with trailing NUL padding removed.
    public mutating func push(_ bytes: UnsafeRawBufferPointer, audio: (UnsafeRawBufferPointer) -> Void) -> [[UInt8]] {
        guard let interval else {
            if !bytes.isEmpty { audio(bytes) }
            return []
        }
        var blocks: [[UInt8]] = []
        var i = 0
        while i < bytes.count {
            switch state {
            case .audio(let remaining):
                let n = min(remaining, bytes.count - i)
                audio(UnsafeRawBufferPointer(rebasing: bytes[i..<(i + n)]))
                i += n
                state = remaining - n == 0 ? .length : .audio(remaining: remaining - n)
            case .length:
                let length = Int(bytes[i]) * 16
                i += 1
                block.removeAll(keepingCapacity: true)
                state = length == 0 ? .audio(remaining: interval) : .metadata(remaining: length)
            case .metadata(let remaining):
                let n = min(remaining, bytes.count - i)
                block.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[i..<(i + n)]))
                i += n
                if remaining - n == 0 {
                    while block.last == 0 { block.removeLast() }
                    if !block.isEmpty { blocks.append(block) }
                    state = .audio(remaining: interval)
                } else {
                    state = .metadata(remaining: remaining - n)
                }
            }
        }
        return blocks
    }

    /// Convenience for tests and small inputs.
    public mutating func push(_ bytes: [UInt8], audio: ([UInt8]) -> Void) -> [[UInt8]] {
        bytes.withUnsafeBytes { raw in push(raw) { audio(Array($0)) } }
    }
}
