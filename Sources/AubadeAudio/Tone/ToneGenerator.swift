public import AubadeCore
import AubadeTone
import Foundation

/// The built-in alarm sounds (R17) as the engine plays them: AubadeTone's synthesis — the one the second
/// waker rings with too — named by the settings' `ToneName`. No file, no curl, no mpg123: only this code and the
/// ALSA sink stand between the alarm and the speaker.
///
/// Output is signed 16-bit interleaved stereo. `peak` is the largest amplitude (0…1).
public struct ToneGenerator: Sendable {
    public let tone: ToneName
    public let peak: Double
    private var synth: ToneSynthesizer

    public init(tone: ToneName, sampleRate: Int = 44_100, peak: Double = 0.7) {
        self.tone = tone
        self.peak = max(0, min(peak, 1))
        let shape: ToneShape =
            switch tone {
            case .classic: .classic
            case .chime: .chime
            case .rising: .rising
            }
        synth = ToneSynthesizer(shape, sampleRate: sampleRate)
    }

    public var sampleRate: Int { synth.sampleRate }

    /// Renders the next `frames` stereo frames into `buffer` (which holds at least `2 * frames` samples).
    public mutating func render(into buffer: UnsafeMutableBufferPointer<Int16>, frames: Int) {
        guard frames > 0, let base = buffer.baseAddress else { return }
        synth.render(into: base, frames: frames, peak: peak)
    }

    /// The tone's frequencies `offset` frames into the last `frames` rendered: what a microphone should hear of
    /// them there.
    public func frequencies(lastRendered frames: Int, at offset: Int) -> ToneFrequencies {
        let (a, b, c) = synth.partials(atFrame: synth.framesRendered - frames + offset)
        return ToneFrequencies(Float(a), Float(b), Float(c))
    }

    public mutating func render(frames: Int) -> [Int16] {
        var out = [Int16](repeating: 0, count: 2 * frames)
        out.withUnsafeMutableBufferPointer { render(into: $0, frames: frames) }
        return out
    }
}
