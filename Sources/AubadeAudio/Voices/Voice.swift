import AubadeCore

/// One sound on the engine's audio thread: what it renders each turn and what it makes of what the card
/// consumed. Voices emit their own events (audible, title, fallback…); the engine emits `ready` and `stopped`.
///
/// Contract: not Sendable — created, driven and stopped on the audio thread. `render` never blocks.
protocol Voice: AnyObject {
    var id: SoundID { get }
    var request: SoundRequest { get }
    /// When it began sounding (nil while only prepared).
    var begunAt: MonotonicInstant? { get }
    /// Frames rendered since it began.
    var framesProduced: Int64 { get }
    /// Set when the voice cannot go on (its station failed for good and it has no fallback).
    var failure: String? { get }
    /// Set when it played everything it had (an episode to its end): it ends `finished`, what waits in the device
    /// played out.
    var finished: Bool { get }
    /// Pre-roll: connects and buffers. True when it could begin at once.
    func prefill() -> Bool
    func begin(at now: MonotonicInstant)
    /// Fills `out` with up to `frames` interleaved stereo frames; returns how many it produced (0: nothing
    /// to play yet — a station still connecting).
    func render(into out: UnsafeMutableBufferPointer<Int16>, frames: Int) -> Int
    /// The frames of the last `render` were handed to the device and end at `end` (the device's `written`).
    func wrote(endingAt end: Int64)
    /// The card consumed frames up to `played`: judge what was heard.
    func observe(played: Int64, now: MonotonicInstant)
    /// The device was reopened, or what waited in it was dropped: frames written before never played.
    func deviceRestarted(now: MonotonicInstant)
    /// Moves to `volume` over 50 ms (no click).
    func setVolume(_ volume: Int)
    /// Releases its network side; it reports nothing afterwards. Idempotent.
    func stop()
    /// The built-in tone's frequencies `offset` frames into what the last `render` produced (`.none` for anything
    /// else), published with what was written for the room check.
    func toneFrequencies(atFrame offset: Int) -> ToneFrequencies
}

/// What voices need from the engine.
struct VoiceContext: Sendable {
    let rate: Int
    /// The highest bandwidth of an HLS variant picked, bits per second.
    let hlsBandwidthCap: Int
    let emit: @Sendable (SoundEvent) -> Void

    /// Frames in `d` at the engine's rate.
    func frames(_ d: Duration) -> Int { Int(d.inSeconds * Double(rate)) }
}

extension Voice {
    var finished: Bool { false }
    func toneFrequencies(atFrame offset: Int) -> ToneFrequencies { .none }
}

extension FeedSource {
    /// Starts reading this source for voice `id`: titles and stream notes go straight to the events.
    func feed(for id: SoundID, context: VoiceContext, allowLoopback: Bool) -> StationFeed {
        let emit = context.emit
        return StationFeed(
            source: self, rate: context.rate, allowLoopback: allowLoopback, hlsBandwidthCap: context.hlsBandwidthCap
        ) { event in
            if case .title(let title) = event { emit(.title(id, title)) } else { emit(.stream(id, event)) }
        }
    }
}
