import AubadeAudio
import AubadeCore
import Testing

/// The engine's built-in tones, sample for sample: digests of a minute of each tone, captured from
/// `ToneGenerator` before its synthesis moved into the module it now shares with the second waker. A change to
/// any formula, constant or evaluation order that moves even one sample by one step fails here.
@Suite("Built-in tone: samples as captured")
struct ToneGoldenTests {
    /// FNV-1a (64-bit) over the little-endian bytes of the interleaved samples.
    static func digest(_ samples: [Int16]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for s in samples {
            let u = UInt16(bitPattern: s)
            hash ^= UInt64(u & 0xFF)
            hash &*= 0x0000_0100_0000_01b3
            hash ^= UInt64(u >> 8)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    struct Golden: Sendable, CustomTestStringConvertible {
        let tone: ToneName
        let rate: Int
        let peak: Double
        let digest: UInt64
        /// A few samples (left channel) at frames 0, 1000, 22 050 and 100 000.
        let probes: [Int16]
        var testDescription: String { "\(tone) at \(rate) Hz, peak \(peak)" }
    }

    static let probeFrames = [0, 1000, 22_050, 100_000]
    static let seconds = 60

    static let golden: [Golden] = [
        // The engine's rate and peak (44.1 kHz, 0.7), and two others so that neither parameter is left out.
        Golden(tone: .classic, rate: 44100, peak: 0.7, digest: 0x526b_5dae_062a_5b45, probes: [0, -4533, 0, 552]),
        Golden(tone: .chime, rate: 44100, peak: 0.7, digest: 0x1aed_0635_ee41_8a95, probes: [0, -3132, -3279, -5921]),
        Golden(tone: .rising, rate: 44100, peak: 0.7, digest: 0x1075_e2a3_e91a_e0a9, probes: [980, 9672, 13718, -17666]),
        Golden(tone: .classic, rate: 48000, peak: 0.7, digest: 0x4990_fdac_0e6c_4905, probes: [0, 8321, 15779, 8321]),
        Golden(tone: .chime, rate: 48000, peak: 0.7, digest: 0xabe2_ad3b_8b2b_f535, probes: [0, -9921, 1830, -3438]),
        Golden(tone: .rising, rate: 48000, peak: 0.7, digest: 0x8437_61b5_f746_166d, probes: [900, 2141, 2772, -5418]),
        Golden(tone: .classic, rate: 22050, peak: 1.0, digest: 0x6c5b_8154_4199_9645, probes: [0, -12591, 0, 0]),
        Golden(tone: .chime, rate: 22050, peak: 1.0, digest: 0x9965_3d05_c5c8_bf5d, probes: [0, -8177, 8994, -22405]),
        Golden(tone: .rising, rate: 22050, peak: 1.0, digest: 0x1f6f_70bd_79ef_2f91, probes: [2792, -8662, 3483, 21121]),
    ]

    @Test(arguments: golden)
    func aMinuteMatchesTheCapture(_ g: Golden) {
        var generator = ToneGenerator(tone: g.tone, sampleRate: g.rate, peak: g.peak)
        let pcm = generator.render(frames: g.rate * Self.seconds)
        #expect(Self.probeFrames.map { pcm[2 * $0] } == g.probes)
        #expect(Self.digest(pcm) == g.digest)
    }
}
