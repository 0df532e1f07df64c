public import AubadeCore

/// The room check's bookkeeping, with no thread and no device: the capture as it comes (each read with when its
/// first sample was captured), what the engine played (its tap's chunks, placed as one stream: `PlayedTimeline`),
/// and the decision. From `listen(since:)` it finds the first audible frame the engine wrote after that instant,
/// takes the 1.5 s captured before it as the room's noise, and feeds `RoomHearing` block by block — each block of
/// capture with what was played in the same span of time, or, where the capture lost samples or the card underran,
/// the block as lost — until it decides. Time is one scale for both (the monotonic clock in the daemon; in a test,
/// any).
public struct RoomListening: Sendable {
    public let rate: Int
    /// How much capture is kept while no ring is listened to, and how much noise is taken before one.
    public static let keep: Duration = .seconds(3)
    public static let noise: Duration = .milliseconds(1500)
    /// No audible frame this long after `since`: nothing was played, and that is the verdict.
    public static let firstAudibleLimit: Duration = .seconds(25)
    /// How far a read's stamp may stray from where the stream says it is before it is believed.
    public static let jitter: Duration = .milliseconds(30)

    private var history: [Float] = []
    private var historyStart: Duration = .zero
    /// The spans of `history` (sample indices) the capture lost: silence stands in for them, and they are no evidence.
    private var lost: [Range<Int>] = []
    private var timeline = PlayedTimeline()
    private var since: Duration?
    private var start: Duration?
    private var hearing: RoomHearing?
    private var nextBlock: Duration = .zero
    private let settings: RoomHearing.Settings
    private let blockLength: Duration

    public init(rate: Int) {
        self.rate = rate
        settings = RoomHearing.Settings(sampleRate: rate)
        blockLength = .nanoseconds(Int64(settings.blockFrames) * 1_000_000_000 / Int64(rate))
    }

    /// The end of the capture so far.
    public var capturedUntil: Duration { historyStart + frames(history.count) }
    public var listening: Bool { since != nil }
    /// The ring's first audible frame, once found.
    public var firstAudible: Duration? { start }

    /// Samples captured, the first at `firstAt`. The capture is one stream: a read's stamp only corrects it when it
    /// is more than `jitter` away — later (samples lost to an overrun: silence stands in for them, so what came
    /// before keeps its time, and they are marked lost) or earlier (the stamps' clock and the card's drifted:
    /// everything moves).
    public mutating func captured(_ samples: [Float], firstAt: Duration) {
        if history.isEmpty {
            historyStart = firstAt
        } else {
            let gap = firstAt - capturedUntil
            if gap > RoomListening.jitter {
                let missing = min(Int((gap.inSeconds * Double(rate)).rounded()), rate * 10)
                lost.append(history.count..<(history.count + missing))
                history.append(contentsOf: repeatElement(0, count: missing))
            } else if gap < .zero - RoomListening.jitter {
                historyStart += gap
            }
        }
        history.append(contentsOf: samples)
        // While a ring is listened to, everything from the noise before it on; else the last few seconds.
        let keepFrom = since.map { (start ?? $0) - RoomListening.noise } ?? (capturedUntil - RoomListening.keep)
        let drop = min(history.count, max(0, index(of: keepFrom)))
        if drop > rate / 2 {
            history.removeFirst(drop)
            historyStart += frames(drop)
            lost = lost.compactMap { r in r.upperBound > drop ? max(0, r.lowerBound - drop)..<(r.upperBound - drop) : nil }
        }
    }

    /// Chunks the engine wrote.
    public mutating func played(_ chunks: [PlaybackTap.Chunk]) {
        for c in chunks {
            timeline.append(
                position: c.position, frames: c.frames, rate: c.rate, heardAt: c.heardAt, running: c.running, block: c.block)
        }
        timeline.forget(before: capturedUntil - RoomListening.keep - .seconds(2))
    }

    /// Listens for a ring whose sound begins at `since` (its first audible frame is looked for from there).
    public mutating func listen(since instant: Duration) {
        since = instant
        start = nil
        hearing = nil
    }

    /// Feeds every block now complete; returns the verdict once there is one (and then listens no more).
    public mutating func step() -> RoomVerdict? {
        guard let since else { return nil }
        if start == nil {
            guard let first = timeline.firstAudible(from: since) else {
                guard capturedUntil - since > RoomListening.firstAudibleLimit else { return nil }
                return finish(.notHeard(RoomEvidence(basis: .nothingPlayed, listenedSeconds: 0)))
            }
            // Where it is placed for good (not while the device has yet to start), unless that takes a second.
            guard (timeline.settledUntil ?? .zero) > first || capturedUntil > first + .seconds(1) else { return nil }
            // The engine writes ahead of the card: the noise is all that was captured up to that frame, once it is.
            guard capturedUntil >= first else { return nil }
            start = first
            let from = max(0, index(of: first - RoomListening.noise))
            let to = max(from, min(history.count, index(of: first)))
            let lostBefore = lost.compactMap { r in
                r.overlaps(from..<to) ? (max(r.lowerBound, from) - from)..<(min(r.upperBound, to) - from) : nil
            }
            hearing = RoomHearing(settings: settings, before: Array(history[from..<to]), lost: lostBefore)
            nextBlock = first
        }
        guard var hearing else { return nil }
        defer { self.hearing = hearing }
        while capturedUntil >= nextBlock + blockLength {
            let end = nextBlock + blockLength
            // What was played there must be placed for good, unless the engine has written nothing for a second
            // past it.
            guard (timeline.settledUntil ?? .zero) >= end || capturedUntil > end + .seconds(1) else { break }
            // Not known where the card underran (it may have gone on playing); lost where the capture lost samples.
            let played = timeline.unknown(from: nextBlock, to: end) ? nil : timeline.played(from: nextBlock, to: end)
            let i = max(0, index(of: nextBlock))
            let range = min(i, history.count)..<min(i + settings.blockFrames, history.count)
            let verdict =
                lost.contains(where: { $0.overlaps(range) })
                ? hearing.skip(played: played) : hearing.feed(Array(history[range]), played: played)
            nextBlock = end
            if verdict != .listening { return finish(verdict) }
        }
        return nil
    }

    private mutating func finish(_ verdict: RoomVerdict) -> RoomVerdict {
        since = nil
        start = nil
        hearing = nil
        return verdict
    }

    private func frames(_ n: Int) -> Duration { .nanoseconds(Int64(n) * 1_000_000_000 / Int64(rate)) }

    private func index(of instant: Duration) -> Int { Int(((instant - historyStart).inSeconds * Double(rate)).rounded()) }
}
