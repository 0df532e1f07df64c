import AubadeCore

/// A built-in tone or chime (R17), unsupervised: its first frames on the card are reported audible.
final class ToneVoice: Voice {
    let id: SoundID
    let request: SoundRequest
    private let context: VoiceContext
    private var generator: ToneGenerator
    private var gain: GainRamp
    private(set) var begunAt: MonotonicInstant?
    private(set) var framesProduced: Int64 = 0
    private var firstFrameEnd: Int64?
    private var lastRender = 0
    private var announced = false
    var failure: String? { nil }

    init(id: SoundID, request: SoundRequest, tone: ToneName, context: VoiceContext) {
        self.id = id
        self.request = request
        self.context = context
        generator = ToneGenerator(tone: tone, sampleRate: context.rate)
        gain = GainRamp(volume: request.volume)
    }

    func prefill() -> Bool { true }

    func begin(at now: MonotonicInstant) { begunAt = now }

    func render(into out: UnsafeMutableBufferPointer<Int16>, frames: Int) -> Int {
        generator.render(into: out, frames: frames)
        gain.apply(to: UnsafeMutableBufferPointer(rebasing: out[0..<(2 * frames)]), channels: 2)
        framesProduced += Int64(frames)
        lastRender = frames
        return frames
    }

    func wrote(endingAt end: Int64) {
        if firstFrameEnd == nil { firstFrameEnd = end - Int64(lastRender) + 1 }
    }

    func observe(played: Int64, now: MonotonicInstant) {
        guard !announced, let first = firstFrameEnd, played >= first, let begunAt else { return }
        announced = true
        context.emit(.audible(id, source: request.priority == .chime ? "chime" : "tone", after: now - begunAt))
    }

    func deviceRestarted(now: MonotonicInstant) {
        firstFrameEnd = nil
        announced = false
    }

    func toneFrequencies(atFrame offset: Int) -> ToneFrequencies {
        generator.frequencies(lastRendered: lastRender, at: offset)
    }

    func setVolume(_ volume: Int) { gain.ramp(to: volume, over: context.rate / 20) }

    func stop() {}
}
