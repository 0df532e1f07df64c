import Foundation

/// The Goertzel algorithm: the amplitude of one frequency in a block of samples, without a whole FFT — what the
/// room check asks of the tone (is 880 Hz in what the microphone heard?). A Hann window keeps a strong sound at
/// another frequency from leaking into the one asked about. Pure; allocates nothing.
public struct Goertzel: Sendable {
    /// The Hann window for one block length, and its sum (what a full-scale sine's amplitude is measured against).
    public let window: [Float]
    private let windowSum: Double

    public init(blockFrames: Int) {
        let n = max(1, blockFrames)
        window = (0..<n).map { i in
            n == 1 ? 1 : Float(0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n - 1)))
        }
        windowSum = window.reduce(0) { $0 + Double($1) }
    }

    /// The amplitude (0…1 for a full-scale sine) of `frequency` in `samples` (−1…1) at `rate`: a sine of amplitude
    /// `a` at that frequency reads close to `a`; noise of RMS `σ` reads about `2σ/√N`. Samples beyond the window's
    /// length are ignored; fewer are windowed as far as they go.
    public func amplitude(of frequency: Double, in samples: UnsafeBufferPointer<Float>, rate: Int) -> Double {
        let n = min(samples.count, window.count)
        guard n > 0, rate > 0, frequency > 0, frequency < Double(rate) / 2 else { return 0 }
        let k = 2 * cos(2 * Double.pi * frequency / Double(rate))
        var s1 = 0.0
        var s2 = 0.0
        for i in 0..<n {
            let s = Double(samples[i] * window[i]) + k * s1 - s2
            s2 = s1
            s1 = s
        }
        let power = max(0, s1 * s1 + s2 * s2 - k * s1 * s2)
        return 2 * power.squareRoot() / windowSum
    }

    /// As above, for an array.
    public func amplitude(of frequency: Double, in samples: [Float], rate: Int) -> Double {
        samples.withUnsafeBufferPointer { amplitude(of: frequency, in: $0, rate: rate) }
    }
}
