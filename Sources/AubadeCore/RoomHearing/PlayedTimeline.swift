/// What the sound engine played, on a time line, asked block by block: the engine publishes each chunk it wrote
/// (its level, its tone, when its first frame is heard); the room check asks what was played between two instants
/// — the span of one block of capture — and gets the chunks' power weighted by how much of the block each covers.
/// Time is any common scale (the monotonic clock in the daemon; seconds from the first frame in a recording).
/// Pure; chunks must come in order of time.
public struct PlayedTimeline: Sendable {
    public struct Chunk: Sendable, Equatable {
        /// When its first frame is heard, and how long it lasts.
        public var start: Duration
        public var length: Duration
        public var block: PlayedBlock

        public init(start: Duration, length: Duration, block: PlayedBlock) {
            self.start = start
            self.length = length
            self.block = block
        }

        var end: Duration { start + length }
    }

    private var chunks: [Chunk] = []

    public init() {}

    public mutating func append(_ chunk: Chunk) {
        chunks.append(chunk)
    }

    /// The end of the last chunk known (nil: none yet) — a block after it cannot be asked about yet.
    public var knownUntil: Duration? { chunks.last?.end }

    /// The first chunk at or after `instant` whose level is audible: the ring's first audible frame.
    public func firstAudible(from instant: Duration) -> Duration? {
        chunks.first { $0.end > instant && $0.block.audible }.map { max($0.start, instant) }
    }

    /// What was played in [from, to): RMS over the span (silence where no chunk covers it), and the tone of the chunk
    /// covering most of it.
    public func played(from: Duration, to: Duration) -> PlayedBlock {
        let span = (to - from).inSeconds
        guard span > 0 else { return .silence }
        var power = 0.0
        var tone = ToneFrequencies.none
        var toneCover = 0.0
        for chunk in chunks where chunk.end > from && chunk.start < to {
            let cover = (min(chunk.end, to) - max(chunk.start, from)).inSeconds
            power += Double(chunk.block.rms) * Double(chunk.block.rms) * cover
            if !chunk.block.tone.isNone, cover > toneCover {
                tone = chunk.block.tone
                toneCover = cover
            }
        }
        return PlayedBlock(rms: Float((power / span).squareRoot()), tone: toneCover >= span / 2 ? tone : .none)
    }

    /// Forgets chunks that ended before `instant`.
    public mutating func forget(before instant: Duration) {
        if let keep = chunks.firstIndex(where: { $0.end >= instant }) {
            chunks.removeFirst(keep)
        } else {
            chunks.removeAll(keepingCapacity: true)
        }
    }
}
