/// The frequencies of a built-in tone sounding in one block (up to three partials; 0 where there is none), as the
/// sound engine publishes them beside what it wrote. Plain data, so the audio thread can publish it without
/// allocating.
public struct ToneFrequencies: Sendable, Equatable {
    public var first: Float
    public var second: Float
    public var third: Float

    public init(_ first: Float, _ second: Float = 0, _ third: Float = 0) {
        self.first = first
        self.second = second
        self.third = third
    }

    /// No tone.
    public static let none = ToneFrequencies(0)

    public var isNone: Bool { first <= 0 && second <= 0 && third <= 0 }

    /// The partials that sound, in hertz.
    public var hertz: [Double] { [first, second, third].filter { $0 > 0 }.map(Double.init) }
}

/// What the sound engine played in one block of time: the RMS level of what it wrote (0…1 of full scale) and,
/// while a built-in tone sounds, its frequencies.
public struct PlayedBlock: Sendable, Equatable {
    public var rms: Float
    public var tone: ToneFrequencies

    public init(rms: Float, tone: ToneFrequencies = .none) {
        self.rms = rms
        self.tone = tone
    }

    public static let silence = PlayedBlock(rms: 0)

    /// −60 dBFS: below it a block counts as nothing played. Lower than the engine's "audible" (−40 dBFS over 2 s,
    /// RELIABILITY.md's term): the self-test's chirp is quiet on purpose, and a microphone hears it all the same.
    public static let audibleRMS: Float = 0.001

    public var audible: Bool { rms >= PlayedBlock.audibleRMS }
}
