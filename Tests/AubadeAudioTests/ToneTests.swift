import AubadeCore
import AubadeTesting
import AubadeTone
import Foundation
import Testing

@testable import AubadeAudio

@Suite("Built-in tone")
struct ToneTests {
    @Test(arguments: ToneName.allCases)
    func everyToneIsLoudWithoutClicks(tone: ToneName) {
        var g = ToneGenerator(tone: tone, peak: 0.7)
        let pcm = g.render(frames: 44_100 * 4)
        // Audible (R16's measure: RMS above −40 dBFS) in every 2-second window.
        #expect(Signal.rmsDBFS(pcm[0..<(2 * 88_200)]) > -25)
        #expect(Signal.rmsDBFS(pcm[(2 * 88_200)...]) > -25)
        #expect(pcm.max()! <= Int16(0.71 * 32767))
        // No clicks: adjacent samples never jump by more than a 1.2 kHz sine at full scale allows.
        let left = Signal.left(pcm)
        let maxStep = zip(left, left.dropFirst()).map { abs($1 - $0) }.max()!
        #expect(maxStep < 0.7 * 2 * .pi * 1800 / 44_100 * 1.05, "\(tone): step \(maxStep)")
        // Both channels carry the same sound.
        #expect(stride(from: 0, to: pcm.count, by: 2).allSatisfy { pcm[$0] == pcm[$0 + 1] })
    }

    @Test func classicBeepsAt880Hz() {
        var g = ToneGenerator(tone: .classic)
        let mono = Signal.left(g.render(frames: 4410))  // the first 100 ms beep
        let at880 = Signal.power(at: 880, mono), at600 = Signal.power(at: 600, mono), at1000 = Signal.power(at: 1000, mono)
        #expect(at880 > 50 * at600 && at880 > 50 * at1000)
    }

    @Test func renderingIsContinuousAcrossCalls() {
        var whole = ToneGenerator(tone: .rising)
        var pieces = ToneGenerator(tone: .rising)
        let a = whole.render(frames: 3000)
        let b = pieces.render(frames: 1234) + pieces.render(frames: 1766)
        #expect(a == b)
    }
}

@Suite("Software volume")
struct VolumeTests {
    @Test func curve() {
        #expect(VolumeCurve.gain(100) == 1)
        #expect(abs(VolumeCurve.decibels(60) - -16) < 1e-9)
        #expect(VolumeCurve.gain(0) == 0)
        #expect(VolumeCurve.gain(10) > 0.01)  // the quietest alarm volume is still audible
        #expect((1...100).allSatisfy { VolumeCurve.gain($0) > VolumeCurve.gain($0 - 1) })
    }

    @Test func rampIsSmoothAndEndsAtTheTarget() {
        var ramp = GainRamp(volume: 20)
        ramp.ramp(to: 100, over: 44_100)
        var samples = [Int16](repeating: 10_000, count: 2 * 44_100)
        samples.withUnsafeMutableBufferPointer { ramp.apply(to: $0, channels: 2) }
        let left = stride(from: 0, to: samples.count, by: 2).map { Int(samples[$0]) }
        #expect(abs(left.first! - 251) <= 3)  // volume 20 = −32 dB: 10 000 × 0.0251
        #expect(left.last! == 10_000)
        #expect(zip(left, left.dropFirst()).allSatisfy { $1 >= $0 && $1 - $0 <= 3 })  // monotone, tiny steps
        #expect(!ramp.isRamping)
    }

    @Test func aSteadyGainScalesEverySampleAndUnityLeavesThemAlone() {
        let input: [Int16] = [10_000, -10_000, 32_767, -32_768, 0, 1, 12_345, -7]
        var quieter = GainRamp(volume: 60)  // −16 dB
        var s = input
        s.withUnsafeMutableBufferPointer { quieter.apply(to: $0, channels: 2) }
        let g = VolumeCurve.gain(60)
        #expect(zip(s, input).allSatisfy { abs(Double($0) - Double($1) * g) <= 1 })
        var unity = GainRamp(volume: 100)
        var same = input
        same.withUnsafeMutableBufferPointer { unity.apply(to: $0, channels: 2) }
        #expect(same == input)
    }

    @Test func aSteadyGainIsTheClampedQ15ProductForEverySample() {
        let all = (Int(Int16.min)...Int(Int16.max)).map { Int16($0) }
        for gain in [1.0 - 1e-9, 0.999, 0.5, VolumeCurve.gain(60), VolumeCurve.gain(1), 1e-6, 0] {
            let q = Int32((gain * 32768).rounded())
            var s = all
            s.withUnsafeMutableBufferPointer { GainRamp.scale($0, by: gain) }
            #expect(s == all.map { Int16(clamping: (Int32($0) * q + 16384) >> 15) })
        }
    }

    @Test func aRampGivesTheSameSamplesWhateverTheChunking() {
        let input = (0..<(2 * 3000)).map { Int16(truncatingIfNeeded: ($0 * 7919) % 60_000 - 30_000) }
        var whole = GainRamp(volume: 30)
        whole.ramp(to: 90, over: 2000)
        var a = input
        a.withUnsafeMutableBufferPointer { whole.apply(to: $0, channels: 2) }
        var pieces = GainRamp(volume: 30)
        pieces.ramp(to: 90, over: 2000)
        var b = input
        b.withUnsafeMutableBufferPointer { buf in
            var start = 0
            for frames in [1, 333, 1665, 1001] {  // splits inside and after the ramp
                pieces.apply(to: UnsafeMutableBufferPointer(rebasing: buf[(2 * start)..<(2 * (start + frames))]), channels: 2)
                start += frames
            }
        }
        #expect(a == b)
        #expect(!pieces.isRamping && abs(pieces.currentDB - VolumeCurve.decibels(90)) < 1e-9)
    }

    @Test func zeroMutes() {
        var ramp = GainRamp(volume: 0)
        var s: [Int16] = [1000, -1000]
        s.withUnsafeMutableBufferPointer { ramp.apply(to: $0, channels: 2) }
        #expect(s == [0, 0])
    }
}
