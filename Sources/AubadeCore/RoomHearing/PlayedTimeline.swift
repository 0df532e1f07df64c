/// What the sound engine played, on a time line, asked block by block: the engine publishes each chunk it wrote
/// (its level, its tone, when its first frame is heard); the room check asks what was played between two instants
/// — the span of one block of capture — and gets the chunks' power weighted by how much of the block each covers.
/// Time is any common scale (the monotonic clock in the daemon; seconds from the first frame in a recording).
/// Pure; chunks must come in order of time.
///
/// The engine's chunks are one stream (`append(streamed:)`): each is placed by its position in the stream from one
/// anchor — when the stream's frame 0 is heard — not by its own reading, so that chunks follow one another without
/// gaps or overlaps the card never played. A reading moves the anchor only when it strays more than `jitter` from
/// it, and only a reading of a running device settles it: what is written before the device starts (and after an
/// underrun stopped it) is heard once it starts, later than any estimate made while it waited.
///
/// An underrun — a reading later than the anchor — leaves a span between what played before and what plays after
/// that the engine cannot speak for: a card stopped by it plays silence, but one whose buffer went on playing (a
/// DMA ring replayed, snd-aloop's loop after the machine stalled) played old sound. That span is `unknown`, and the
/// room check takes it as no evidence.
public struct PlayedTimeline: Sendable {
    public struct Chunk: Sendable, Equatable {
        /// When its first frame is heard, and how long it lasts.
        public var start: Duration
        public var length: Duration
        public var block: PlayedBlock
        /// Its first frame's position in the engine's stream and the stream's rate (0: placed by `start` alone).
        var position: Int64 = 0
        var rate = 0

        public init(start: Duration, length: Duration, block: PlayedBlock) {
            self.start = start
            self.length = length
            self.block = block
        }

        var end: Duration { start + length }
    }

    /// How far a reading may stray from the stream's anchor before it is believed.
    public static let jitter: Duration = .milliseconds(30)

    private var chunks: [Chunk] = []
    /// The spans an underrun left, in order.
    private var gaps: [Range<Duration>] = []
    /// The stream being placed: when its frame 0 is heard, whether a running device said so, the position after its
    /// last chunk, and the index of the first chunk placed since the last running device's reading (nil: none).
    private var anchor: Duration = .zero
    private var settled = false
    private var nextPosition: Int64?
    private var provisional: Int?
    private var underrun = false

    public init() {}

    /// A chunk placed by its own `start` (a recording's, or a test's); it ends any stream being placed.
    public mutating func append(_ chunk: Chunk) {
        chunks.append(chunk)
        nextPosition = nil
        provisional = nil
    }

    /// One chunk of the engine's stream: `frames` at `position` (`rate` frames a second), heard at `heardAt` by the
    /// engine's reading of the device — `running`: a running device's reading; false: the device had not started
    /// (or had stopped), and the chunk waits with it. A position that does not follow the last chunk's starts a new
    /// stream (the device reopened, or what it held dropped).
    public mutating func append(
        position: Int64, frames: Int, rate: Int, heardAt: Duration, running: Bool, block: PlayedBlock
    ) {
        let rate = max(1, rate)
        let own = heardAt - Self.duration(frames: position, rate: rate)
        var chunk = Chunk(start: heardAt, length: Self.duration(frames: Int64(frames), rate: rate), block: block)
        chunk.position = position
        chunk.rate = rate
        if nextPosition != position {
            anchor = own
            settled = running
            provisional = nil
        } else if running, !settled || abs((own - anchor).inSeconds) > Self.jitter.inSeconds {
            // The first running reading, or one beyond the jitter: later after an underrun, earlier when the device's
            // clock and ours drifted. The chunks written while the device waited are heard from it on; those placed
            // by a running reading keep their place.
            underrun = settled && own > anchor
            anchor = own
            settled = true
        }
        chunks.append(chunk)
        if !running, provisional == nil { provisional = chunks.count - 1 }
        let from = running ? (provisional ?? chunks.count - 1) : chunks.count - 1
        for i in from..<chunks.count {
            chunks[i].start = anchor + Self.duration(frames: chunks[i].position, rate: chunks[i].rate)
        }
        if underrun, from > 0, chunks[from - 1].end < chunks[from].start {
            gaps.append(chunks[from - 1].end..<chunks[from].start)
        }
        underrun = false
        if running { provisional = nil }
        nextPosition = position + Int64(frames)
    }

    /// The end of the last chunk known (nil: none yet) — a block after it cannot be asked about yet.
    public var knownUntil: Duration? { chunks.last?.end }

    /// The end of what is placed for good: chunks written while the device waited may still move later.
    public var settledUntil: Duration? {
        guard let provisional else { return knownUntil }
        return provisional > 0 ? chunks[provisional - 1].end : nil
    }

    /// Whether [from, to) meets a span an underrun left: what the room heard there, the engine cannot say.
    public func unknown(from: Duration, to: Duration) -> Bool {
        gaps.contains { $0.lowerBound < to && $0.upperBound > from }
    }

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

    /// Forgets chunks that ended before `instant` (the stream being placed keeps its anchor).
    public mutating func forget(before instant: Duration) {
        gaps.removeAll { $0.upperBound < instant }
        let keep = chunks.firstIndex(where: { $0.end >= instant }) ?? chunks.count
        guard keep > 0 else { return }
        chunks.removeFirst(keep)
        provisional = provisional.map { $0 - keep }.flatMap { $0 >= 0 ? $0 : (chunks.isEmpty ? nil : 0) }
    }

    static func duration(frames: Int64, rate: Int) -> Duration {
        .nanoseconds(frames * 1_000_000_000 / Int64(rate))
    }
}
