import AubadeTone
import Testing

/// The one tone synthesis, as the sound engine and the second waker both render it. (The engine's samples are
/// pinned, digest for digest, in AubadeAudioTests' `ToneGoldenTests`.)
@Suite("Tone synthesis")
struct ToneSynthesizerTests {
    static func render(_ shape: ToneShape, frames: Int, pieces: [Int]? = nil, level: Double = 1) -> [Int16] {
        var synth = ToneSynthesizer(shape)
        var out = [Int16](repeating: 0, count: 2 * frames)
        out.withUnsafeMutableBufferPointer { buffer in
            var done = 0
            for n in pieces ?? [frames] {
                synth.render(into: buffer.baseAddress! + 2 * done, frames: n, peak: 0.7, level: level)
                done += n
            }
        }
        return out
    }

    @Test(arguments: ToneShape.allCases)
    func chunksOfAnySizeGiveTheSameSamples(_ shape: ToneShape) {
        // The waker renders 1024 frames at a time, the engine whatever the device asks for.
        let whole = Self.render(shape, frames: 44_100)
        #expect(Self.render(shape, frames: 44_100, pieces: Array(repeating: 1024, count: 43) + [68]) == whole)
        #expect(Self.render(shape, frames: 44_100, pieces: [1, 999, 20_000, 23_100]) == whole)
    }

    @Test(arguments: ToneShape.allCases)
    func aLevelScalesEverySample(_ shape: ToneShape) {
        let full = Self.render(shape, frames: 8820)
        let quarter = Self.render(shape, frames: 8820, level: 0.25)
        // Each sample is the full one × 0.25, rounded once: never more than a step from a quarter of it.
        #expect(zip(full, quarter).allSatisfy { abs(Double($0) * 0.25 - Double($1)) <= 0.75 })
        #expect(full.contains { $0 != 0 })
        #expect(Self.render(shape, frames: 8820, level: 0).allSatisfy { $0 == 0 })
    }

    @Test func theWakersQuietestStartIsTheEnginesCurve() {
        // The waker starts a ring at the alarm's volume on the engine's 40-dB curve, at 10 at the least.
        #expect(VolumeCurve.decibels(100) == 0)
        #expect(abs(VolumeCurve.decibels(10) - -36) < 1e-9)
        #expect(VolumeCurve.decibels(150) == 0 && VolumeCurve.decibels(-5) == -40)
    }
}
