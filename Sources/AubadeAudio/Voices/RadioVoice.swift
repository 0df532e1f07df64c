import AubadeCore

/// A station played for listening (the radio, the sleep timer, a reserved programme, `aubade play`):
/// unsupervised — no tone at bedtime — but honest. Its first frames on the card are reported audible, and
/// again after a stall once audio flows back; a station that fails for good moves to its next address, and
/// after the last one the voice fails with the station's own sentence (never "playing" while nothing plays).
/// An episode ends where it does (`finished`), and says how far the card has played it (`SoundEvent.position`,
/// every 15 s and as it stops), so that listening goes on there the next time.
final class RadioVoice: Voice {
    let id: SoundID
    let request: SoundRequest
    private let context: VoiceContext
    private let stations: [FeedSource]
    private var index = 0
    private var feed: StationFeed?
    private var gain: GainRamp
    private(set) var begunAt: MonotonicInstant?
    private(set) var framesProduced: Int64 = 0
    private(set) var failure: String?
    private var lastRender = 0
    /// The device frame at which audio resumed (first audio, or after a gap), until the card consumes it.
    private var resumedAt: Int64?
    private var pendingResume = true
    private var announced = false
    private(set) var finished = false
    /// An episode's accounting: its frames handed to the device (device frame where each write ended, the voice's
    /// frames produced then), the frames the card consumed, and when the position was last told.
    private var writes: [(end: Int64, produced: Int64)] = []
    private var consumed: Int64 = 0
    private var toldAt: Int64 = 0
    private var positionClosed = false
    static let positionEvery: Duration = .seconds(15)

    init(id: SoundID, request: SoundRequest, stations: [FeedSource], context: VoiceContext) {
        self.id = id
        self.request = request
        self.stations = stations
        self.context = context
        gain = GainRamp(volume: request.volume)
        feed = stations.first?.feed(for: id, context: context, allowLoopback: request.allowLoopback)
        if stations.isEmpty { failure = "The station has no address." }
    }

    func prefill() -> Bool {
        guard let feed else { return true }
        return feed.prefill(frames: 1024) > 0 || feed.failedForGood
    }

    func begin(at now: MonotonicInstant) { begunAt = now }

    func render(into out: UnsafeMutableBufferPointer<Int16>, frames: Int) -> Int {
        guard let feed else { return 0 }
        let got = feed.pull(frames: frames, into: out)
        lastRender = got
        if got == 0 {
            if feed.playedToEnd {
                finished = true
                return 0
            }
            if feed.failedForGood { moveOn(after: feed) }
            // A gap: the next audio that flows is reported audible again.
            if announced { pendingResume = true }
            return 0
        }
        gain.apply(to: UnsafeMutableBufferPointer(rebasing: out[0..<(2 * got)]), channels: 2)
        framesProduced += Int64(got)
        return got
    }

    func wrote(endingAt end: Int64) {
        if lastRender > 0, feed?.source.isEpisode == true { writes.append((end, framesProduced)) }
        guard lastRender > 0, pendingResume, resumedAt == nil else { return }
        resumedAt = end - Int64(lastRender) + 1
    }

    func observe(played: Int64, now: MonotonicInstant) {
        while let w = writes.first, w.end <= played {
            consumed = w.produced
            writes.removeFirst()
        }
        if consumed - toldAt >= Int64(context.frames(RadioVoice.positionEvery)) { tellPosition(atEnd: false) }
        guard let first = resumedAt, played >= first, let begunAt else { return }
        resumedAt = nil
        pendingResume = false
        announced = true
        context.emit(.audible(id, source: index == 0 ? "station" : "alternate station", after: now - begunAt))
    }

    func deviceRestarted(now: MonotonicInstant) {
        writes.removeAll()  // what waited in the device was never heard
        resumedAt = nil
        pendingResume = true
    }

    func setVolume(_ volume: Int) { gain.ramp(to: volume, over: context.rate / 20) }

    func stop() {
        if !positionClosed, feed?.source.isEpisode == true {
            // Played out: all of it was heard (the engine drains the device). Else what the card consumed.
            if finished { consumed = framesProduced }
            tellPosition(atEnd: finished)
            positionClosed = true
        }
        feed?.stop()
        feed = nil
    }

    /// How far into the episode the card has played.
    private func tellPosition(atEnd: Bool) {
        guard let feed, !positionClosed else { return }
        toldAt = consumed
        context.emit(.position(id, byte: feed.byte(atFrame: consumed), atEnd: atEnd))
    }

    /// The current address failed for good: try the next one, or fail with its reason.
    private func moveOn(after failed: StationFeed) {
        let reason = failed.takeFailure() ?? "The station cannot be played."
        failed.stop()
        index += 1
        if index < stations.count {
            feed = stations[index].feed(for: id, context: context, allowLoopback: request.allowLoopback)
        } else {
            feed = nil
            failure = reason
        }
    }

    /// The station's network buffer, for the memory soak (R25).
    var bufferLevel: BufferLevel? { feed?.bufferLevel }
}
