import AubadeCore
import Foundation

/// Test signals for the room check, made from a seed: what a radio or a tone plays, and what a room adds.
struct RoomSignals {
    static let rate = 16_000
    static let block = 400  // 25 ms

    /// SplitMix64: the same seed, the same signals.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func uniform(_ r: ClosedRange<Double>) -> Double { r.lowerBound + unit() * (r.upperBound - r.lowerBound) }
        /// A standard normal sample (Box–Muller).
        mutating func gaussian() -> Double {
            let u = max(unit(), 1e-12)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * unit())
        }
    }

    enum Noise: CaseIterable, Sendable {
        case white, pink, bursts
    }

    /// `count` samples of room noise at RMS about `level`: white, pink (Kellet's filter), or white noise switched
    /// on and off at random (a room where things happen, on their own time).
    static func noise(_ kind: Noise, level: Double, count: Int, random: inout Random) -> [Float] {
        var out = [Float](repeating: 0, count: count)
        var b = [Double](repeating: 0, count: 7)
        var on = true
        var left = 0
        for i in 0..<count {
            let w = random.gaussian()
            switch kind {
            case .white:
                out[i] = Float(w * level)
            case .pink:
                b[0] = 0.99886 * b[0] + w * 0.0555179
                b[1] = 0.99332 * b[1] + w * 0.0750759
                b[2] = 0.96900 * b[2] + w * 0.1538520
                b[3] = 0.86650 * b[3] + w * 0.3104856
                b[4] = 0.55000 * b[4] + w * 0.5329522
                b[5] = -0.7616 * b[5] - w * 0.0168980
                let p = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + w * 0.5362
                b[6] = w * 0.115926
                out[i] = Float(p * 0.11 * level)
            case .bursts:
                if left == 0 {
                    on.toggle()
                    left = Int(random.uniform(0.05...0.6) * Double(rate))
                }
                left -= 1
                out[i] = on ? Float(w * level * 1.4) : Float(w * level * 0.1)
            }
        }
        return out
    }

    /// A radio's sound: noise-like programme (several partials and noise) under an envelope that changes every
    /// 50–300 ms between 0.1 and 1 of `peak`, as speech and music do.
    static func radio(seconds: Double, peak: Double, random: inout Random) -> [Float] {
        let count = Int(seconds * Double(rate))
        var out = [Float](repeating: 0, count: count)
        let partials = (0..<4).map { _ in random.uniform(150...2500) }
        var level = 0.5
        var target = 0.5
        var left = 0
        for i in 0..<count {
            if left == 0 {
                target = random.uniform(0.1...1)
                left = Int(random.uniform(0.05...0.3) * Double(rate))
            }
            left -= 1
            level += (target - level) * 0.003
            let t = Double(i) / Double(rate)
            var s = 0.3 * random.gaussian()
            for f in partials { s += 0.35 * sin(2 * .pi * f * t) }
            out[i] = Float(peak * level * s / 1.6)
        }
        return out
    }

    /// The classic tone's rhythm at 16 kHz: 100 ms beeps 100 ms apart, four, then 800 ms of quiet; 880 Hz with its
    /// octave. Also returns its frequencies.
    static func tone(seconds: Double, peak: Double, frequency: Double = 880) -> [Float] {
        let count = Int(seconds * Double(rate))
        return (0..<count).map { i in
            let t = Double(i) / Double(rate)
            let inPeriod = t.truncatingRemainder(dividingBy: 1.6)
            guard inPeriod < 0.8, inPeriod.truncatingRemainder(dividingBy: 0.2) < 0.1 else { return 0 }
            return Float(peak * (0.75 * sin(2 * .pi * frequency * t) + 0.25 * sin(4 * .pi * frequency * t)))
        }
    }

    /// What the engine would publish for `signal`: per block its RMS, and `tone` where the block is audible.
    static func playedBlocks(_ signal: [Float], tone: ToneFrequencies = .none) -> [PlayedBlock] {
        stride(from: 0, to: signal.count - block + 1, by: block).map { start in
            let slice = signal[start..<(start + block)]
            let rms = Float((slice.reduce(0) { $0 + Double($1) * Double($1) } / Double(block)).squareRoot())
            return PlayedBlock(rms: rms, tone: rms >= PlayedBlock.audibleRMS ? tone : .none)
        }
    }

    /// The room: `signal` delayed by `delay` samples and scaled by `gain`, over `noise` (at least as long).
    static func room(_ signal: [Float], delay: Int, gain: Double, noise: [Float]) -> [Float] {
        var out = noise
        for i in 0..<signal.count where i + delay < out.count {
            out[i + delay] += Float(Double(signal[i]) * gain)
        }
        return out
    }

    /// Feeds `capture` block by block with `played` until a verdict (or the blocks run out); returns it and the
    /// number of blocks fed. The blocks in `lost` are fed as lost by the capture.
    static func decide(
        before: [Float], capture: [Float], played: [PlayedBlock], lost: Set<Int> = []
    ) -> (RoomVerdict, blocks: Int) {
        var hearing = RoomHearing(settings: .init(sampleRate: rate), before: before)
        var fed = 0
        for (k, p) in played.enumerated() where (k + 1) * block <= capture.count {
            fed += 1
            let v =
                lost.contains(k)
                ? hearing.skip(played: p) : hearing.feed(Array(capture[(k * block)..<((k + 1) * block)]), played: p)
            if v != .listening { return (v, fed) }
        }
        return (hearing.verdict, fed)
    }

    /// Blocks of the ring the capture lost: one to three spans of 4 to 16 blocks (0.1 to 0.4 s) in its first 2.5 s.
    static func lostSpans(random: inout Random) -> Set<Int> {
        var lost: Set<Int> = []
        for _ in 0..<(1 + Int(random.unit() * 3)) {
            let start = Int(random.uniform(0...84))
            lost.formUnion(start..<(start + 4 + Int(random.unit() * 13)))
        }
        return lost
    }
}
