import Foundation

/// The room check's decision (issue 37, part 4): was the alarm heard in the room? A value fed blocks of what the
/// microphone captured, each with what the sound engine played in the same block of time; it never waits and
/// reads no clock — time is the blocks it is fed.
///
/// Heard: the tone's frequencies are in the capture (Goertzel, well above both the room's noise at that
/// frequency and the capture's own level a few semitones away), or the captured level follows the played level
/// (Pearson correlation of the two envelopes, the capture allowed to lag by up to `maxLagSeconds`: the card's and
/// the microphone's latency) while standing above the noise measured before the ring by a margin — asked only when
/// the tone is not what mostly sounded (the tone's own test is the more particular one). The blocks
/// captured just before the ring (nothing played) go in front of the envelopes, so the sound's onset is part of
/// what must be followed. Not heard: `decisionSeconds` of the ring fed without either. It decides by then at the
/// latest, whatever it is fed.
///
/// A block the capture lost (an overrun: the microphone's thread held up longer than its buffer lasts) is fed as
/// lost (`skip`): its time passes, but it is no evidence either way — it was not heard as silence, it was not heard
/// at all. So is what was played over the card's underrun, fed as not known (nil): the room may have heard silence
/// or the card's old buffer played again. Nor does a lost span before the ring count in the room's noise.
public struct RoomHearing: Sendable {
    public struct Settings: Sendable, Equatable {
        /// The capture's rate, samples per second (mono).
        public var sampleRate: Int
        /// The length of one block: 25 ms.
        public var blockSeconds = 0.025
        /// A verdict by this much of the ring's capture: 3 s.
        public var decisionSeconds = 3.0
        /// How late the microphone may hear what was played, beyond the card's own delay (already counted in when a
        /// chunk is heard): the capture's buffer, a USB microphone's latency, a loaded machine (snd-aloop in QEMU
        /// measured 100–275 ms).
        public var maxLagSeconds = 0.5
        /// How much of the capture before the ring goes in front of the envelopes.
        public var leadSeconds = 0.5
        /// The envelopes are first compared after this much of the ring, then every 0.2 s.
        public var firstLookSeconds = 1.5
        /// The correlation that counts as following (the blocks before the ring included), and the one asked of
        /// the ring's blocks alone where the played level moves in them.
        public var correlation = 0.6
        public var ringCorrelation = 0.5
        /// How far above the room's noise the capture must stand while the sound plays.
        public var levelMarginDB = 2.0
        /// The ring's own blocks, captured and with what was played known, that the envelopes must have been compared
        /// over at the lag before they can say heard: 1 s. Without losses that is there at the first look; with the
        /// capture's losses it waits for more, as a few dozen blocks of noise can follow a level by chance.
        public var minEnvelopeBlocks = 40
        /// How far the tone's frequency must stand above the noise there and the capture beside it.
        public var toneMarginDB = 12.0
        /// The share of the tone's blocks it must be found in, and at least this many blocks.
        public var toneShare = 0.5
        public var minToneBlocks = 6

        public init(sampleRate: Int) { self.sampleRate = sampleRate }

        public var blockFrames: Int { max(16, Int((Double(sampleRate) * blockSeconds).rounded())) }
        var blockDuration: Double { Double(blockFrames) / Double(sampleRate) }
        /// Blocks of the ring after which it has decided.
        public var decisionBlocks: Int { Int((decisionSeconds / blockDuration).rounded(.up)) }
        var maxLagBlocks: Int { Int((maxLagSeconds / blockDuration).rounded(.up)) }
        var leadBlocks: Int { Int((leadSeconds / blockDuration).rounded()) }
    }

    public let settings: Settings
    public private(set) var verdict: RoomVerdict = .listening
    let goertzel: Goertzel
    /// The capture before the ring (the room's noise), the blocks of it that were captured (not lost), its mean
    /// power (nil: none was captured).
    let before: [Float]
    let noiseBlocks: [Int]
    let noisePower: Double?
    var noiseAt: [Double: Double] = [:]
    /// Per block, lead first: the captured RMS (nil: the capture lost it) and what was played (nil: not known, the
    /// card underran).
    var captured: [Double?] = []
    var played: [PlayedBlock?] = []
    let lead: Int
    /// Per lag (in blocks): the tone's blocks and those in which it was found.
    var toneBlocks: [Int]
    var toneFound: [Int]

    /// `before`: what the microphone captured just before the ring's first audible frame (mono, −1…1, at the
    /// settings' rate; a second or two), its last sample just before that frame. Empty when there was none: then no
    /// noise level is asked for and no onset is compared. `lost`: the spans of `before` (sample indices) that the
    /// capture lost, silence standing in for them.
    public init(settings: Settings, before: [Float], lost: [Range<Int>] = []) {
        self.settings = settings
        goertzel = Goertzel(blockFrames: settings.blockFrames)
        self.before = before
        let n = settings.blockFrames
        let whole = before.count / n
        // Blocks counted from the end, so that the last one ends at the ring's first audible frame.
        let skipped = before.count - whole * n
        let kept = (0..<whole).filter { b in
            let range = (skipped + b * n)..<(skipped + (b + 1) * n)
            return !lost.contains { $0.overlaps(range) }
        }
        noiseBlocks = kept.map { skipped + $0 * n }
        var power = 0.0
        for start in noiseBlocks {
            for x in before[start..<(start + n)] { power += Double(x) * Double(x) }
        }
        noisePower = noiseBlocks.isEmpty ? nil : power / Double(noiseBlocks.count * n)
        lead = min(whole, settings.leadBlocks)
        for b in (whole - lead)..<whole {
            let start = skipped + b * n
            captured.append(noiseBlocks.contains(start) ? Self.rms(before[start..<(start + n)]) : nil)
            played.append(.silence)
        }
        toneBlocks = Array(repeating: 0, count: settings.maxLagBlocks + 1)
        toneFound = toneBlocks
    }

    /// Blocks of the ring fed so far (lost ones included: the ring's time).
    public var ringBlocks: Int { captured.count - lead }
    /// Blocks of the ring that were no evidence: lost by the capture, or over an underrun.
    public private(set) var lostBlocks = 0
    /// Seconds of the ring fed so far.
    public var listenedSeconds: Double { Double(ringBlocks) * settings.blockDuration }

    /// Feeds one block: `settings.blockFrames` captured samples (fewer or more are read as they are) and what was
    /// played meanwhile — nil when that is not known (the card underran: the room may have heard silence or the
    /// card's old buffer played again), and then the block is no evidence for what was played there. Returns the
    /// verdict, which once decided never changes.
    @discardableResult
    public mutating func feed(_ samples: UnsafeBufferPointer<Float>, played block: PlayedBlock?) -> RoomVerdict {
        guard verdict == .listening else { return verdict }
        captured.append(Self.rms(samples))
        played.append(block)
        if block == nil { lostBlocks += 1 }
        lookForTone(samples)
        return decide()
    }

    /// Feeds one block of the ring that the capture lost, and what was played meanwhile (nil: not known either): the
    /// ring's time passes, nothing is learnt. Returns the verdict, as `feed`.
    @discardableResult
    public mutating func skip(played block: PlayedBlock?) -> RoomVerdict {
        guard verdict == .listening else { return verdict }
        captured.append(nil)
        played.append(block)
        lostBlocks += 1
        return decide()
    }

    private mutating func decide() -> RoomVerdict {
        if let found = toneVerdict() ?? envelopeVerdict() {
            verdict = found
        } else if ringBlocks >= settings.decisionBlocks {
            let audible = played[lead...].contains { $0?.audible ?? false }
            verdict = .notHeard(evidence(basis: audible ? .neither : .nothingPlayed))
        }
        return verdict
    }

    @discardableResult
    public mutating func feed(_ samples: [Float], played block: PlayedBlock?) -> RoomVerdict {
        samples.withUnsafeBufferPointer { feed($0, played: block) }
    }

    static func rms<C: Collection>(_ samples: C) -> Double where C.Element == Float {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }
}
