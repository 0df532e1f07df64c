/// Splits a SHOUTcast/Icecast byte stream with interleaved metadata (`icy-metaint`) into audio bytes and
/// metadata blocks, so the decoder only ever sees audio (mpg123's own ICY support does not work in feed
/// mode: it finds no titles and corrupts the audio).
///
/// Layout: `metaint` audio bytes, one length byte L, then L × 16 bytes of metadata (so at most 4080), repeat.
///
/// R23 — a metadata error never stops the audio:
/// - an interval outside 1…65536 turns metadata off from the start: everything passes through as audio;
/// - a block that shows the framing is lost turns metadata off from there on (`failure` says why), and the
///   rest passes through as audio: a block that fills its length with text and does not end its last field
///   (`…';`) overflows it (the server sent more than L × 16 bytes, e.g. a title longer than 4080 bytes), and a
///   block that does not start with a `Key=` field is audio cut out at the wrong place (a wrong `icy-metaint`).
///   Passing through is the lesser harm: mpg123 skips the few stray metadata bytes and resynchronises, while
///   stripping at a lost cadence would cut a block's worth of audio out of every interval.
public struct ICYDemuxer: Sendable {
    public static let validIntervals = 1...65536

    private enum State: Sendable {
        case audio(remaining: Int)
        case length
        case metadata(remaining: Int, declared: Int)
    }

    /// The interval being stripped; nil when metadata is off.
    public private(set) var interval: Int?
    /// Why metadata was turned off mid-stream, if it was.
    public private(set) var failure: String?
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

    /// What `push` finds, in stream order.
    public enum Piece {
        case audio(UnsafeRawBufferPointer)
        /// A metadata block, trailing NUL padding removed.
        case block([UInt8])
        /// Metadata has just been turned off (`failure`); what follows is all audio.
        case metadataOff(String)
    }

    /// Consumes `bytes` and hands each piece to `handle` in stream order, so a title or a fault is known
    /// before the audio that follows it.
    public mutating func push(_ bytes: UnsafeRawBufferPointer, _ handle: (Piece) -> Void) {
        var i = 0
        while i < bytes.count {
            guard let interval else {
                handle(.audio(UnsafeRawBufferPointer(rebasing: bytes[i...])))
                return
            }
            switch state {
            case .audio(let remaining):
                let n = min(remaining, bytes.count - i)
                handle(.audio(UnsafeRawBufferPointer(rebasing: bytes[i..<(i + n)])))
                i += n
                state = remaining - n == 0 ? .length : .audio(remaining: remaining - n)
            case .length:
                let length = Int(bytes[i]) * 16
                i += 1
                block.removeAll(keepingCapacity: true)
                state = length == 0 ? .audio(remaining: interval) : .metadata(remaining: length, declared: length)
            case .metadata(let remaining, let declared):
                let n = min(remaining, bytes.count - i)
                block.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[i..<(i + n)]))
                i += n
                guard remaining - n == 0 else {
                    state = .metadata(remaining: remaining - n, declared: declared)
                    continue
                }
                state = .audio(remaining: interval)
                while block.last == 0 { block.removeLast() }
                if let why = ICYDemuxer.lostFraming(block, declared: declared) {
                    // What the server meant as the block's overflow is passed on with the rest.
                    failure = why
                    self.interval = nil
                    state = .audio(remaining: .max)
                    handle(.metadataOff(why))
                } else if !block.isEmpty {
                    handle(.block(block))
                }
            }
        }
    }

    /// Calls `audio` with each run of audio bytes and returns the metadata blocks completed by this chunk.
    public mutating func push(_ bytes: UnsafeRawBufferPointer, audio: (UnsafeRawBufferPointer) -> Void) -> [[UInt8]] {
        var blocks: [[UInt8]] = []
        push(bytes) { piece in
            switch piece {
            case .audio(let run): audio(run)
            case .block(let b): blocks.append(b)
            case .metadataOff: break
            }
        }
        return blocks
    }

    /// Why `block` (trailing NULs removed) shows that the framing is lost, or nil when it is plausible metadata.
    static func lostFraming(_ block: [UInt8], declared: Int) -> String? {
        guard !block.isEmpty else { return nil }
        if !startsWithField(block) {
            return "a metadata block holds no Key='…' field, so the icy-metaint interval is wrong"
        }
        if block.count == declared && block.last != UInt8(ascii: ";") {
            return declared == 4080
                ? "a metadata block is longer than 4080 bytes"
                : "a metadata block is longer than its length byte says (\(declared) bytes)"
        }
        return nil
    }

    /// `Name=` at the start: letters, digits or `_`, starting with a letter, then `=`.
    private static func startsWithField(_ block: [UInt8]) -> Bool {
        guard let first = block.first, isLetter(first) else { return false }
        for byte in block.dropFirst() {
            if byte == UInt8(ascii: "=") { return true }
            guard isLetter(byte) || byte == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                return false
            }
        }
        return false
    }

    private static func isLetter(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
    }

    /// Convenience for tests and small inputs.
    public mutating func push(_ bytes: [UInt8], audio: ([UInt8]) -> Void) -> [[UInt8]] {
        bytes.withUnsafeBytes { raw in push(raw, audio: { audio(Array($0)) }) }
    }
}
