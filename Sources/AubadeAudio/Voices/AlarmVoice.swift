import AubadeCore
import Logging

/// An alarm's sound, supervised (R16): each turn writes the station's audio or the tone, as
/// `SoundSupervisor` decides from what the card actually consumed. "Verified audio" is 2 s of the station
/// without a gap above −40 dBFS, counted on consumed frames (the `snd_pcm_delay` accounting of the device),
/// or — while the tone plays and the station is tried in the background — on the station's audio as it
/// arrives. Switching never touches the device: a fallback is seamless. An episode (a `podcast:` alarm's file) is
/// supervised like a station; when it has played to its end the tone follows at once and rings until the alarm is
/// stopped (the episode is not played again).
final class AlarmVoice: Voice {
    let id: SoundID
    let request: SoundRequest
    private let context: VoiceContext
    private let logger: Logger?
    private let sources: [FeedSource]
    private let toneVolume: Int
    private var feed: StationFeed?
    private var feedIndex: Int?
    private var feedEndedAt: MonotonicInstant?
    private var supervisor: SoundSupervisor
    private var tone: ToneGenerator
    private var stationGain: GainRamp
    private var toneGain: GainRamp
    private var stationRamped = false
    private(set) var begunAt: MonotonicInstant?
    private(set) var framesProduced: Int64 = 0
    var failure: String? { nil }  // an alarm never gives up: the tone is always there
    /// The frames of the tone rendered in the last turn, nil on the station (for the room check).
    private var toneRendered: Int?
    /// Chunks written but not yet consumed by the card.
    private var inFlight: [Written] = []
    private var lastTurn: Turn?
    /// The station's chunks of the last 2 s (consumed by the card, or taken in the background while the tone
    /// plays): the window "verified audio" is judged on.
    private var window: [(meanSquare: Double, full: Bool)] = []
    private let windowChunks: Int
    private var lastNow = MonotonicInstant(.zero)

    struct Turn {
        var frames: Int
        /// The station's level in it (mean square before the volume), and whether the station filled it.
        var meanSquare: Double
        var full: Bool
        var tone: Bool
    }

    struct Written {
        var end: Int64
        var turn: Turn
    }

    /// RMS above −40 dBFS counts as audible (RELIABILITY.md's definition).
    static let audibleRMS = 32768.0 * 0.01
    /// A feed that ended for good while the tone plays is tried again after this long.
    static let refetchDelay: Duration = .seconds(30)
    /// The turn the engine writes an alarm in: 1024 frames, 23 ms at 44.1 kHz.
    static let chunkFrames = 1024

    /// Prepares the alarm: its primary station starts connecting at once (pre-roll).
    init(id: SoundID, request: SoundRequest, context: VoiceContext, logger: Logger?) {
        self.id = id
        self.request = request
        self.context = context
        self.logger = logger
        sources = FeedSource.of(request.content)
        if case .tone(let name) = request.content {
            tone = ToneGenerator(tone: name, sampleRate: context.rate)
        } else {
            tone = ToneGenerator(tone: request.fallback?.tone ?? .classic, sampleRate: context.rate)
        }
        toneVolume = request.fallback?.toneVolume ?? request.volume
        supervisor = SoundSupervisor(
            stationCount: sources.count, startedAt: MonotonicInstant(.zero),
            preselectedFallback: request.fallback?.preselected)
        stationGain = GainRamp(volume: request.fadeStartVolume)
        toneGain = GainRamp(volume: toneVolume)
        windowChunks = 2 * context.rate / AlarmVoice.chunkFrames
        syncFeed(now: MonotonicInstant(.zero))
    }

    /// Ready when the station's first audio is decoded — or when it already failed (a refused connection is
    /// knowable at once: the alarm then begins on its fallback without waiting out the pre-roll).
    func prefill() -> Bool {
        guard let feed, supervisor.current != .tone else { return true }
        return feed.prefill(frames: AlarmVoice.chunkFrames) > 0 || feed.hasFailed || feed.hasEnded
    }

    func begin(at now: MonotonicInstant) {
        begunAt = now
        lastNow = now
        supervisor = SoundSupervisor(
            stationCount: sources.count, startedAt: now,
            preselectedFallback: request.fallback?.preselected)
        if let reason = request.fallback?.preselected, !sources.isEmpty {
            context.emit(.fallback(id, from: name(of: .station(0)), to: "tone", reason: reason))
        }
    }

    func render(into out: UnsafeMutableBufferPointer<Int16>, frames: Int) -> Int {
        syncFeed(now: lastNow)
        let got = feed?.pull(frames: frames, into: out) ?? 0
        let meanSquare = AlarmVoice.meanSquare(UnsafeBufferPointer(rebasing: out[0..<(2 * got)]))
        let samples = UnsafeMutableBufferPointer(rebasing: out[0..<(2 * frames)])
        switch supervisor.current {
        case .station:
            for i in (2 * got)..<(2 * frames) { out[i] = 0 }
            if got > 0 && !stationRamped {
                stationRamped = true
                stationGain.ramp(to: request.volume, over: context.frames(request.fadeIn))
            }
            stationGain.apply(to: samples, channels: 2)
        case .tone:
            tone.render(into: out, frames: frames)
            toneGain.apply(to: samples, channels: 2)
        }
        let onTone = supervisor.current == .tone
        toneRendered = onTone ? frames : nil
        lastTurn = Turn(frames: frames, meanSquare: meanSquare, full: got == frames, tone: onTone)
        // On the tone, the station (fetched in the background) is judged on what arrives, not what is heard.
        if onTone { remember(meanSquare, full: got == frames) }
        framesProduced += Int64(frames)
        return frames
    }

    func toneFrequencies(atFrame offset: Int) -> ToneFrequencies {
        toneRendered.map { tone.frequencies(lastRendered: $0, at: offset) } ?? .none
    }

    func wrote(endingAt end: Int64) {
        if let lastTurn { inFlight.append(Written(end: end, turn: lastTurn)) }
        lastTurn = nil
    }

    /// Hands the new facts to the supervisor and carries out its decisions.
    func observe(played: Int64, now: MonotonicInstant) {
        lastNow = now
        var heardTone = false
        while let first = inFlight.first, first.end <= played {
            if first.turn.tone { heardTone = true } else { remember(first.turn.meanSquare, full: first.turn.full) }
            inFlight.removeFirst()
        }
        var decisions: [SoundSupervisor.Decision]
        if let feed, feed.playedToEnd, case .station = supervisor.current {
            decisions = supervisor.ended(now: now, reason: "The episode ended.")
        } else if let feed, feed.playedToEnd, let index = feedIndex {
            supervisor.ended(source: index)  // it ended in the background, under the tone: not read again
            decisions = supervisor.update(now: now, heard: false, failure: nil)
        } else {
            decisions = supervisor.update(now: now, heard: verified, failure: feed?.takeFailure())
        }
        if heardTone { decisions += supervisor.toneHeard(now: now) }
        for decision in decisions { carry(decision) }
    }

    func deviceRestarted(now: MonotonicInstant) {
        inFlight.removeAll()
        window.removeAll()
        supervisor.deviceRestarted(now: now)
    }

    func setVolume(_ volume: Int) {
        stationGain.ramp(to: volume, over: context.rate / 20)
    }

    func stop() {
        feed?.stop()
        feed = nil
    }

    private func remember(_ meanSquare: Double, full: Bool) {
        window.append((meanSquare, full))
        if window.count > windowChunks { window.removeFirst() }
    }

    /// Verified audio (RELIABILITY.md): the station filled every chunk of the last 2 s and their RMS is above
    /// −40 dBFS. A quiet passage inside music does not fail it; a gap in the data, or a short burst, does.
    private var verified: Bool {
        guard window.count >= windowChunks, window.allSatisfy(\.full) else { return false }
        let mean = window.reduce(0) { $0 + $1.meanSquare } / Double(window.count)
        return mean > AlarmVoice.audibleRMS * AlarmVoice.audibleRMS
    }

    private func carry(_ decision: SoundSupervisor.Decision) {
        switch decision {
        case .audible(let source, let after):
            context.emit(.audible(id, source: name(of: source), after: after))
        case .fallBack(let from, let to, let reason):
            logger?.warning("alarm falls back from \(name(of: from)) to \(name(of: to)): \(reason)")
            context.emit(.fallback(id, from: name(of: from), to: name(of: to), reason: reason))
            window.removeAll()
            if to == .tone { toneGain = GainRamp(volume: toneVolume) }
            stationRamped = false
            stationGain = GainRamp(volume: request.fadeStartVolume)
        case .recover(let to):
            context.emit(.recovered(id, to: name(of: to)))
            stationRamped = true
            stationGain = GainRamp(volume: request.volume)
        }
    }

    /// What the events call a source: "episode" for a podcast's, else the supervisor's word ("station",
    /// "alternate station", "tone").
    private func name(of source: SoundSupervisor.Source) -> String {
        if case .station(let i) = source, i < sources.count, sources[i].isEpisode { return "episode" }
        return source.description
    }

    /// Keeps the feed on the station the supervisor wants; restarts a dead one (after a pause) while on the tone.
    private func syncFeed(now: MonotonicInstant) {
        guard let wanted = supervisor.stationToFetch, wanted < sources.count else {
            feed?.stop()
            feed = nil
            feedIndex = nil
            return
        }
        if feed != nil, feedIndex == wanted {
            guard feed!.hasEnded, supervisor.current == .tone else { return }
            let endedAt = feedEndedAt ?? now
            feedEndedAt = endedAt
            guard now - endedAt >= AlarmVoice.refetchDelay else { return }
        }
        feed?.stop()
        feedEndedAt = nil
        window.removeAll()
        feed = sources[wanted].feed(for: id, context: context, allowLoopback: request.allowLoopback)
        feedIndex = wanted
    }

    /// Mean of the squared samples (the RMS squared).
    static func meanSquare(_ samples: UnsafeBufferPointer<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        var sum = 0.0
        for s in samples { sum += Double(s) * Double(s) }
        return sum / Double(samples.count)
    }

    /// The station's network buffer, for the memory soak (R25).
    var bufferLevel: BufferLevel? { feed?.bufferLevel }
}
