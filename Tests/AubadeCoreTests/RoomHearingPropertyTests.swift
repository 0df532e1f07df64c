import AubadeCore
import Foundation
import PropertyBased
import Testing

/// The room check's decision as properties, on signals made at random (`RoomSignals`): what was played, delayed by up
/// to 450 ms and attenuated, over a room's noise, is heard; silence and noise that has nothing to do with what was
/// played — however loud — are not; blocks the capture lost are evidence neither way; every input is decided by 3 s
/// of the ring; and the Goertzel finds a tone among noise and not where it is absent.
@Suite("Room check: heard or not heard in the room, as properties")
struct RoomHearingPropertyTests {
    typealias S = RoomSignals

    struct Case: Sendable, CustomStringConvertible {
        var seed: UInt64
        var tone: Bool
        var noise: S.Noise
        var delay: Int  // samples
        var gain: Double
        var noiseLevel: Double
        var peak: Double
        var description: String {
            "seed \(seed) \(tone ? "tone" : "radio") noise \(noise) at \(noiseLevel), delay \(delay), gain \(gain), peak \(peak)"
        }
    }

    static func cases(signalOverNoiseDB: ClosedRange<Double>) -> Generator<Case, Shrink.None<Case>> {
        Generator { rng in
            let peak = Double.random(in: 0.2...0.8, using: &rng)
            let gain = Double.random(in: 0.02...1, using: &rng)
            let tone = Bool.random(using: &rng)
            // The noise is set against what reaches the microphone: `signalOverNoiseDB` above or below it.
            let signalRMS = peak * gain * (tone ? 0.4 : 0.35)
            let noiseLevel = signalRMS / pow(10, Double.random(in: signalOverNoiseDB, using: &rng) / 20)
            return Case(
                seed: UInt64.random(in: 0...UInt64.max, using: &rng), tone: tone,
                noise: S.Noise.allCases.randomElement(using: &rng)!, delay: Int.random(in: 0...(S.rate * 45 / 100), using: &rng),
                gain: gain, noiseLevel: min(noiseLevel, 0.3), peak: peak)
        }
    }

    static let classic = ToneFrequencies(880, 1760)

    struct Probe: Sendable, CustomStringConvertible {
        var seed: UInt64
        var frequency: Double
        var amplitude: Double
        var noiseShare: Double
        var description: String { "seed \(seed) f \(frequency) a \(amplitude) noise share \(noiseShare)" }
    }

    /// The played signal and its blocks for a case, 4 s long.
    static func played(_ c: Case, _ random: inout S.Random) -> ([Float], [PlayedBlock]) {
        let signal = c.tone ? S.tone(seconds: 4, peak: c.peak) : S.radio(seconds: 4, peak: c.peak, random: &random)
        return (signal, S.playedBlocks(signal, tone: c.tone ? classic : .none))
    }

    /// Heard is claimed under a room's steady noise (white or pink) and under bursts for the tone; a radio under bursts
    /// is not in the claim: the noise measured before the ring can be a lull, so the ring's level above it is
    /// under-counted (3.6 dB for a case drawn at 6 dB or more, see the regression below), and not heard is then the
    /// safe answer — the ladder climbs a step early.
    @Test("what was played, delayed up to 450 ms and attenuated, over the room's noise, is heard within 3 s")
    func thePlayedSoundDelayedAndAttenuatedIsHeard() async {
        await propertyCheck(count: 150, input: Self.cases(signalOverNoiseDB: 6...30)) { c in
            var c = c
            if c.noise == .bursts, !c.tone { c.noise = c.seed % 2 == 0 ? .white : .pink }
            var random = S.Random(state: c.seed)
            let before = S.noise(c.noise, level: c.noiseLevel, count: S.rate * 3 / 2, random: &random)
            let (signal, blocks) = Self.played(c, &random)
            let noise = S.noise(c.noise, level: c.noiseLevel, count: signal.count, random: &random)
            let capture = S.room(signal, delay: c.delay, gain: c.gain, noise: noise)
            let (verdict, fed) = S.decide(before: before, capture: capture, played: blocks)
            #expect(verdict.heard == true, "\(c): \(verdict)")
            #expect(fed <= 120, "decided within 3 s")
        }
    }

    @Test("a tone is heard even under noise as loud as itself")
    func aToneIsHeardUnderLoudNoise() async {
        await propertyCheck(count: 60, input: Self.cases(signalOverNoiseDB: 0...6)) { c in
            var c = c
            c.tone = true
            var random = S.Random(state: c.seed)
            let before = S.noise(c.noise, level: c.noiseLevel, count: S.rate * 3 / 2, random: &random)
            let (signal, blocks) = Self.played(c, &random)
            let noise = S.noise(c.noise, level: c.noiseLevel, count: signal.count, random: &random)
            let (verdict, _) = S.decide(
                before: before, capture: S.room(signal, delay: c.delay, gain: c.gain, noise: noise), played: blocks)
            #expect(verdict.evidence?.basis == .tone, "\(c): \(verdict)")
        }
    }

    @Test("silence, or noise that has nothing to do with what was played — even loud — is not heard, by 3 s")
    func silenceOrUnrelatedNoiseIsNotHeard() async {
        await propertyCheck(count: 200, input: Self.cases(signalOverNoiseDB: -20...20)) { c in
            var random = S.Random(state: c.seed)
            // Steady noise, white or pink: a room's own. (Noise that swells and falls on its own rhythm can, a few
            // times in a hundred, happen to follow a station's level: then the room check says heard and the ladder
            // climbs at its usual pace — what it did before there was a microphone.)
            var c = c
            if c.noise == .bursts { c.noise = c.seed % 2 == 0 ? .white : .pink }
            let silent = c.seed % 5 == 0
            let level = silent ? 0 : c.noiseLevel
            let before = S.noise(c.noise, level: level, count: S.rate * 3 / 2, random: &random)
            let (signal, blocks) = Self.played(c, &random)
            let capture = S.noise(c.noise, level: level, count: signal.count, random: &random)
            let (verdict, fed) = S.decide(before: before, capture: capture, played: blocks)
            #expect(verdict.heard == false, "\(c) \(silent ? "silent" : ""): \(verdict)")
            #expect(fed == 120, "not heard exactly at 3 s of the ring")
        }
    }

    /// The lost blocks' property claims heard under a room's steady noise (white or pink), not under noise that swells
    /// and falls on its own rhythm: there a radio's level is followed only just (the ring's correlation a little over
    /// 0.5 at 6 dB with the longest delays), and losing a few of its blocks can honestly leave too little to say heard
    /// by 3 s — not heard is then the safe answer, the ladder climbs. Bursts stay in the property without a loss.
    @Test("blocks the capture lost are no evidence: what was played is still heard, unrelated noise still not, by 3 s")
    func blocksTheCaptureLostAreNoEvidence() async {
        await propertyCheck(count: 150, input: Self.cases(signalOverNoiseDB: 6...30)) { c in
            Self.checkLostBlocks(c)
        }
    }

    /// The lost blocks' property for one case: the room with the sound is heard by 3 s, the same room without it is
    /// not, exactly at 3 s.
    static func checkLostBlocks(_ c: Case) {
        var c = c
        if c.noise == .bursts { c.noise = c.seed % 2 == 0 ? .white : .pink }
        var random = S.Random(state: c.seed)
        let before = S.noise(c.noise, level: c.noiseLevel, count: S.rate * 3 / 2, random: &random)
        let (signal, blocks) = Self.played(c, &random)
        let noise = S.noise(c.noise, level: c.noiseLevel, count: signal.count, random: &random)
        let lost = S.lostSpans(random: &random)
        // Silence stands in for what was lost, as the capture's history keeps it.
        var capture = S.room(signal, delay: c.delay, gain: c.gain, noise: noise)
        for k in lost { for i in (k * S.block)..<((k + 1) * S.block) { capture[i] = 0 } }
        let (heard, fed) = S.decide(before: before, capture: capture, played: blocks, lost: lost)
        #expect(heard.heard == true, "\(c), lost \(lost.sorted()): \(heard)")
        #expect(fed <= 120, "decided within 3 s")
        // The same room without the sound: steady noise, or silence.
        let level = c.seed % 5 == 0 ? 0 : c.noiseLevel
        var room = S.noise(c.noise, level: level, count: signal.count, random: &random)
        for k in lost { for i in (k * S.block)..<((k + 1) * S.block) { room[i] = 0 } }
        let (notHeard, all) = S.decide(
            before: S.noise(c.noise, level: level, count: S.rate * 3 / 2, random: &random), capture: room,
            played: blocks, lost: lost)
        #expect(notHeard.heard == false, "\(c) without the sound, lost \(lost.sorted()): \(notHeard)")
        #expect(all == 120, "not heard exactly at 3 s of the ring")
        #expect(notHeard.evidence.map { abs($0.lostSeconds - Double(lost.count) * 0.025) < 1e-9 } == true)
    }

    /// Found by a fresh clone's run of the lost blocks' property: pink noise, with 28 of the first 60 blocks of the
    /// ring lost, "followed" a station's level at 0.63 (450 ms late, 2.27 dB above the room) over 24 blocks — heard
    /// where nothing was played. The envelopes now need 40 of the ring's own blocks compared before they say heard.
    @Test("regression: a third of the ring lost, pink noise alone does not follow a station by chance")
    func lostBlocksUnderPinkNoiseRegression() {
        Self.checkLostBlocks(
            Case(
                seed: 13_102_757_536_811_963_877, tone: false, noise: .pink, delay: 3310, gain: 0.15354359326093525,
                noiseLevel: 0.0038714482807256814, peak: 0.4915416356362331))
    }

    /// Found by looping the lost blocks' property over many seeds (about 1 case in 2,500 failed): a radio under bursts
    /// 377 ms late, 9 blocks lost. Without the loss the ring's correlation at its lag is 0.52 and it is heard at 2.9 s;
    /// with it 0.48, under the 0.5 asked: not heard at 3 s (the safe direction). Under steady noise it is heard.
    @Test("regression: a radio under bursts that loses 9 blocks may be not heard; under steady noise it is heard")
    func lostBlocksUnderBurstsRegression() {
        let c = Case(
            seed: 7_297_411_665_190_934_319, tone: false, noise: .bursts, delay: 6032, gain: 0.1293029922585739,
            noiseLevel: 0.0072892412209158335, peak: 0.3304129091547938)
        func run(_ c: Case, losing: Bool) -> (RoomVerdict, Int, Set<Int>) {
            var random = S.Random(state: c.seed)
            let before = S.noise(c.noise, level: c.noiseLevel, count: S.rate * 3 / 2, random: &random)
            let (signal, blocks) = Self.played(c, &random)
            let noise = S.noise(c.noise, level: c.noiseLevel, count: signal.count, random: &random)
            let lost = losing ? S.lostSpans(random: &random) : []
            var capture = S.room(signal, delay: c.delay, gain: c.gain, noise: noise)
            for k in lost { for i in (k * S.block)..<((k + 1) * S.block) { capture[i] = 0 } }
            let (verdict, fed) = S.decide(before: before, capture: capture, played: blocks, lost: lost)
            return (verdict, fed, lost)
        }
        let (lossy, fed, lost) = run(c, losing: true)
        #expect(lost == Set([31, 32, 33, 34, 35, 41, 42, 43, 44]))
        #expect(lossy.heard == false && fed == 120, "\(lossy)")
        #expect(run(c, losing: false).0.heard == true)
        for noise in [S.Noise.white, .pink] {
            var steady = c
            steady.noise = noise
            let (verdict, fed, _) = run(steady, losing: true)
            #expect(verdict.heard == true && fed <= 120, "\(noise): \(verdict)")
        }
    }

    /// Found by a fresh clone's run: a radio under bursts, 38 ms late at gain 0.94, drawn at 6 dB or more over the
    /// noise, measured only 3.6 dB above the noise heard before the ring (a lull), correlation 0.62: not heard at 3 s
    /// (the safe direction). Under steady noise of the same level it is heard.
    @Test("regression: a radio under bursts after a lull may be not heard; under steady noise it is heard")
    func radioUnderBurstsAfterALullRegression() {
        let c = Case(
            seed: 7_614_886_251_587_360_427, tone: false, noise: .bursts, delay: 1675, gain: 0.9351485339140534,
            noiseLevel: 0.06075406555984923, peak: 0.4271086575602644)
        func run(_ c: Case) -> (RoomVerdict, Int) {
            var random = S.Random(state: c.seed)
            let before = S.noise(c.noise, level: c.noiseLevel, count: S.rate * 3 / 2, random: &random)
            let (signal, blocks) = Self.played(c, &random)
            let noise = S.noise(c.noise, level: c.noiseLevel, count: signal.count, random: &random)
            return S.decide(before: before, capture: S.room(signal, delay: c.delay, gain: c.gain, noise: noise), played: blocks)
        }
        let (bursts, fed) = run(c)
        #expect(bursts.heard == false && fed == 120, "\(bursts)")
        for noise in [S.Noise.white, .pink] {
            var steady = c
            steady.noise = noise
            let (verdict, fed) = run(steady)
            #expect(verdict.heard == true && fed <= 120, "\(noise): \(verdict)")
        }
    }

    @Test("any input is decided by 3 s of the ring, and a verdict never changes")
    func everyInputIsDecidedByThreeSeconds() async {
        let gen = Generator<UInt64, Shrink.None<UInt64>> { rng in UInt64.random(in: 0...UInt64.max, using: &rng) }
        await propertyCheck(count: 100, input: gen) { seed in
            var random = S.Random(state: seed)
            let rate = [8_000, 16_000, 44_100, 48_000][Int(seed % 4)]
            var hearing = RoomHearing(
                settings: .init(sampleRate: rate),
                before: (0..<Int(random.uniform(0...40_000))).map { _ in Float(random.uniform(-0.5...0.5)) })
            let n = hearing.settings.blockFrames
            var first: RoomVerdict?
            for k in 0..<200 {
                let samples = (0..<Int(random.uniform(Double(n / 2)...Double(2 * n)))).map { _ in
                    Float(random.uniform(-1...1) * random.unit())
                }
                let tone = random.unit() < 0.3 ? ToneFrequencies(Float(random.uniform(100...3000))) : .none
                let block = PlayedBlock(rms: Float(random.unit() * 0.5), tone: tone)
                let v =
                    switch random.unit() {
                    case ..<0.1: hearing.skip(played: block)
                    case ..<0.2: hearing.feed(samples, played: nil)
                    default: hearing.feed(samples, played: block)
                    }
                if let f = first { #expect(v == f, "a verdict never changes") } else if v != .listening { first = v }
                if k + 1 >= hearing.settings.decisionBlocks { #expect(v != .listening, "decided by 3 s (rate \(rate))") }
            }
        }
    }

    @Test("the Goertzel finds a tone among noise, and reads little where it is absent")
    func goertzelFindsAToneAndNotWhereItIsAbsent() async {
        let gen = Generator<Probe, Shrink.None<Probe>> { rng in
            Probe(
                seed: UInt64.random(in: 0...UInt64.max, using: &rng), frequency: Double.random(in: 200...4000, using: &rng),
                amplitude: Double.random(in: 0.01...0.5, using: &rng), noiseShare: Double.random(in: 0...0.5, using: &rng))
        }
        let goertzel = Goertzel(blockFrames: S.block)
        await propertyCheck(count: 300, input: gen) { input in
            let (f, amplitude, noiseShare) = (input.frequency, input.amplitude, input.noiseShare)
            var random = S.Random(state: input.seed)
            let phase = random.uniform(0...(2 * .pi))
            let noise = S.noise(.white, level: amplitude * noiseShare, count: S.block, random: &random)
            let step: Double = 2 * Double.pi * f / Double(S.rate)
            let tone: [Float] = (0..<S.block).map { (i: Int) -> Float in Float(amplitude * sin(step * Double(i) + phase)) }
            let both = zip(tone, noise).map { $0 + $1 }
            let found = goertzel.amplitude(of: f, in: both, rate: S.rate)
            #expect(abs(found - amplitude) < 0.25 * amplitude, "f \(f) a \(amplitude) noise \(noiseShare): read \(found)")
            let absent = goertzel.amplitude(of: f, in: noise, rate: S.rate)
            #expect(absent < 0.3 * amplitude, "noise alone reads \(absent) at \(f)")
            let elsewhere = goertzel.amplitude(of: f < 2000 ? f * 1.5 : f / 1.5, in: tone, rate: S.rate)
            #expect(elsewhere < 0.05 * amplitude, "a tone at \(f) reads \(elsewhere) a fifth away")
        }
    }
}
