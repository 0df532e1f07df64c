import Foundation

extension RoomHearing {
    // MARK: The tone (Goertzel)

    /// Counts, for each lag, whether the block just captured shows the tone played that many blocks before.
    mutating func lookForTone(_ samples: UnsafeBufferPointer<Float>) {
        let i = captured.count - 1
        var amplitudes: [Double: Double] = [:]
        for lag in 0...settings.maxLagBlocks {
            let j = i - lag
            guard j >= lead, let block = played[j], block.audible, !block.tone.isNone else { continue }
            toneBlocks[lag] += 1
            let partials = block.tone.hertz
            let found = partials.contains { f in
                let a = amplitude(f, samples, &amplitudes)
                let beside = references(of: f, avoiding: partials).map { amplitude($0, samples, &amplitudes) }.max() ?? 0
                let floor = max(noiseAmplitude(at: f), beside, RoomHearing.quietest)
                return a >= floor * pow(10, settings.toneMarginDB / 20)
            }
            if found { toneFound[lag] += 1 }
        }
    }

    /// −80 dBFS: below this a frequency is not there at all (a digitally silent capture).
    static let quietest = 1e-4

    private func amplitude(_ f: Double, _ samples: UnsafeBufferPointer<Float>, _ cache: inout [Double: Double]) -> Double {
        if let a = cache[f] { return a }
        let a = goertzel.amplitude(of: f, in: samples, rate: settings.sampleRate)
        cache[f] = a
        return a
    }

    /// Frequencies a few semitones either side of `f` (a fifth below, a fourth-and-more above) that no partial of
    /// the tone is near: what the capture's level is beside the tone.
    private func references(of f: Double, avoiding partials: [Double]) -> [Double] {
        [f * 0.7, f * 1.45].filter { r in
            r < Double(settings.sampleRate) / 2 - 100 && partials.allSatisfy { abs($0 - r) > 100 }
        }
    }

    /// The room's level at `f` before the ring: the mean Goertzel amplitude over the blocks captured then.
    mutating func noiseAmplitude(at f: Double) -> Double {
        if let a = noiseAt[f] { return a }
        let n = settings.blockFrames
        var sum = 0.0
        before.withUnsafeBufferPointer { all in
            for start in noiseBlocks {
                sum += goertzel.amplitude(
                    of: f, in: UnsafeBufferPointer(rebasing: all[start..<(start + n)]), rate: settings.sampleRate)
            }
        }
        let a = noiseBlocks.isEmpty ? 0 : sum / Double(noiseBlocks.count)
        noiseAt[f] = a
        return a
    }

    /// Heard when, at some lag, the tone was found in enough of its blocks.
    func toneVerdict() -> RoomVerdict? {
        guard let lag = bestToneLag(), toneBlocks[lag] >= settings.minToneBlocks,
            toneFound[lag] >= settings.minToneBlocks,
            Double(toneFound[lag]) >= settings.toneShare * Double(toneBlocks[lag])
        else { return nil }
        return .heard(evidence(basis: .tone))
    }

    func bestToneLag() -> Int? {
        let lags = toneBlocks.indices.filter { toneBlocks[$0] > 0 }
        return lags.max { share($0) < share($1) }
    }

    private func share(_ lag: Int) -> Double { Double(toneFound[lag]) / Double(max(1, toneBlocks[lag])) }

    // MARK: The envelope (correlation)

    /// Heard when the captured level follows the played level at some lag and stands above the noise; asked after
    /// `firstLookSeconds` of the ring, then every 0.2 s and at the last block.
    func envelopeVerdict() -> RoomVerdict? {
        let first = Int((settings.firstLookSeconds / settings.blockDuration).rounded())
        let every = max(1, Int((0.2 / settings.blockDuration).rounded()))
        guard ringBlocks >= first, (ringBlocks - first) % every == 0 || ringBlocks >= settings.decisionBlocks else {
            return nil
        }
        // The tone has a test of its own, far more particular than a level that rises and falls: while it is what
        // sounds, its frequencies decide.
        let sounding = played[lead...].compactMap { $0 }.filter(\.audible)
        guard sounding.filter({ !$0.tone.isNone }).count * 2 < sounding.count else { return nil }
        guard let best = bestCorrelation(), best.r >= settings.correlation else { return nil }
        // Enough of the ring itself must have been compared: with a third of it lost, pink noise once followed a
        // station at 0.63 over 24 blocks, 2.3 dB above the room.
        let ring = levels(lag: best.lag, from: lead)
        guard ring.captured.count >= settings.minEnvelopeBlocks else { return nil }
        // The onset alone must not decide: noise that happens to swell as the ring begins follows a step too. Where
        // the played level moves during the ring, the capture must follow it there as well.
        if let during = Self.correlation(ring), during < settings.ringCorrelation { return nil }
        if let above = aboveNoise(lag: best.lag), above < settings.levelMarginDB { return nil }
        return .heard(evidence(basis: .envelope))
    }

    /// The highest correlation over the lags (the blocks before the ring included), and its lag; nil when the
    /// played level never changed.
    func bestCorrelation() -> (r: Double, lag: Int)? {
        var best: (r: Double, lag: Int)?
        for lag in 0...settings.maxLagBlocks {
            guard let r = correlation(lag: lag, from: 0), r > (best?.r ?? -2) else { continue }
            best = (r, lag)
        }
        return best
    }

    /// The correlation of the captured level from block `from + lag` on with the played level `lag` blocks before,
    /// over the blocks the capture did not lose.
    func correlation(lag: Int, from: Int) -> Double? {
        Self.correlation(levels(lag: lag, from: from))
    }

    /// The pairs the envelopes are compared over: the captured level from block `from + lag` on, and the played level
    /// `lag` blocks before, where the capture did not lose the block and what was played is known.
    func levels(lag: Int, from: Int) -> (captured: [Double], played: [Double]) {
        var x: [Double] = []
        var y: [Double] = []
        for i in (from + lag)..<max(from + lag, captured.count) {
            guard let level = captured[i], let block = played[i - lag] else { continue }
            x.append(level)
            y.append(Double(block.rms))
        }
        return (x, y)
    }

    /// The correlation of the pairs; nil for fewer than 8 of them, or a played level that barely changed.
    static func correlation(_ pairs: (captured: [Double], played: [Double])) -> Double? {
        guard pairs.captured.count >= 8 else { return nil }
        return pearson(pairs.captured, pairs.played)
    }

    /// The capture's power while the sound played (at `lag`) over the room's noise, in dB; nil without a noise
    /// measurement or an audible block.
    func aboveNoise(lag: Int) -> Double? {
        guard let noisePower else { return nil }
        var sum = 0.0
        var count = 0
        for i in max(lead, lag)..<max(lead, lag, captured.count) where played[i - lag]?.audible ?? false {
            guard let level = captured[i] else { continue }
            sum += level * level
            count += 1
        }
        guard count > 0 else { return nil }
        return 10 * log10(max(sum / Double(count), 1e-20) / max(noisePower, 1e-12))
    }

    static func pearson(_ x: [Double], _ y: [Double]) -> Double? {
        let n = Double(min(x.count, y.count))
        guard n >= 2 else { return nil }
        let mx = x.reduce(0, +) / n
        let my = y.reduce(0, +) / n
        var sxy = 0.0
        var sxx = 0.0
        var syy = 0.0
        for (a, b) in zip(x, y) {
            sxy += (a - mx) * (b - my)
            sxx += (a - mx) * (a - mx)
            syy += (b - my) * (b - my)
        }
        // A played level that barely changed (its spread under 10 % of its mean) has no envelope to follow.
        guard syy / n > max(1e-6, 0.01 * my * my), sxx > 0 else { return nil }
        return sxy / (sxx * syy).squareRoot()
    }

    // MARK: Evidence

    func evidence(basis: RoomEvidence.Basis) -> RoomEvidence {
        let corr = bestCorrelation()
        let toneLag = bestToneLag()
        let lag: Int? = basis == .tone ? toneLag : corr?.lag
        return RoomEvidence(
            basis: basis, correlation: corr?.r, lagSeconds: lag.map { Double($0) * settings.blockDuration },
            aboveNoiseDB: aboveNoise(lag: lag ?? 0), toneFound: toneLag.map { toneFound[$0] } ?? 0,
            toneBlocks: toneLag.map { toneBlocks[$0] } ?? 0, listenedSeconds: listenedSeconds,
            lostSeconds: Double(lostBlocks) * settings.blockDuration)
    }
}
