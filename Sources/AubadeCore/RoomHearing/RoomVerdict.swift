import Foundation

/// What the room check decided: still listening, heard in the room, or not heard in it — with what it found.
public enum RoomVerdict: Sendable, Equatable, CustomStringConvertible {
    case listening
    case heard(RoomEvidence)
    case notHeard(RoomEvidence)

    /// Nil while listening.
    public var heard: Bool? {
        switch self {
        case .listening: nil
        case .heard: true
        case .notHeard: false
        }
    }

    public var evidence: RoomEvidence? {
        switch self {
        case .listening: nil
        case .heard(let e), .notHeard(let e): e
        }
    }

    /// "heard in the room: …", "not heard in the room: …", or "listening".
    public var description: String {
        switch self {
        case .listening: "listening"
        case .heard(let e): "heard in the room: \(e)"
        case .notHeard(let e): "not heard in the room: \(e)"
        }
    }
}

/// What the microphone showed: which test decided and its figures.
public struct RoomEvidence: Sendable, Equatable, CustomStringConvertible {
    public enum Basis: String, Sendable, Equatable {
        /// The tone's frequencies were found in the capture.
        case tone
        /// The captured level followed the played level.
        case envelope
        /// Neither test passed.
        case neither
        /// Nothing audible was played in the window: there was nothing to hear.
        case nothingPlayed = "nothing-played"
    }

    public var basis: Basis
    /// The best correlation of the captured level with the played level over the lags tried (nil: not computable —
    /// too few blocks, or a played level that never changed).
    public var correlation: Double?
    /// How long after it played the microphone heard it, at the best lag, in seconds.
    public var lagSeconds: Double?
    /// The captured level while the sound played, above the room's noise measured before, in dB (nil: no noise
    /// was measured).
    public var aboveNoiseDB: Double?
    /// Of the tone's blocks (at its best lag), how many showed its frequencies, and how many there were.
    public var toneFound: Int
    public var toneBlocks: Int
    /// Seconds of the ring's capture the decision saw.
    public var listenedSeconds: Double
    /// Of those, the seconds that were no evidence either way: lost by the capture (an overrun), or by the card (an
    /// underrun, when the room may have heard silence or the card's old buffer).
    public var lostSeconds: Double

    public init(
        basis: Basis, correlation: Double? = nil, lagSeconds: Double? = nil, aboveNoiseDB: Double? = nil,
        toneFound: Int = 0, toneBlocks: Int = 0, listenedSeconds: Double, lostSeconds: Double = 0
    ) {
        self.basis = basis
        self.correlation = correlation
        self.lagSeconds = lagSeconds
        self.aboveNoiseDB = aboveNoiseDB
        self.toneFound = toneFound
        self.toneBlocks = toneBlocks
        self.listenedSeconds = listenedSeconds
        self.lostSeconds = lostSeconds
    }

    public var description: String {
        var parts: [String] = []
        switch basis {
        case .tone:
            parts.append("the tone's frequencies in \(toneFound) of its \(toneBlocks) blocks")
        case .envelope:
            parts.append("the level followed the sound")
        case .neither:
            parts.append("neither the tone nor the sound's level was found in \(Self.format(listenedSeconds)) s")
        case .nothingPlayed:
            parts.append("nothing audible was played in \(Self.format(listenedSeconds)) s")
        }
        if basis != .tone, let correlation { parts.append("correlation \(Self.format(correlation))") }
        if basis == .neither, toneBlocks > 0 { parts.append("tone in \(toneFound) of \(toneBlocks) blocks") }
        if basis != .neither, basis != .nothingPlayed, let lagSeconds {
            parts.append("\(Int((lagSeconds * 1000).rounded())) ms late")
        }
        if let aboveNoiseDB { parts.append("\(Self.format(aboveNoiseDB)) dB above the room's noise") }
        if lostSeconds > 0 { parts.append("\(Self.format(lostSeconds)) s of it no evidence (lost, or the card underran)") }
        return parts.joined(separator: ", ")
    }

    static func format(_ x: Double) -> String {
        guard x.isFinite else { return x > 0 ? "inf" : "-inf" }
        return String(format: "%.2f", x).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
    }
}
