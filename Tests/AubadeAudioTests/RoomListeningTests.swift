import AubadeCore
import Foundation
import Testing

@testable import AubadeAudio

/// The room check's bookkeeping without a device: the engine's chunks and a capture read 20 ms at a time, each read
/// stamped, on one time scale (seconds from the capture's first sample). The ring's first audible frame is heard at
/// 1.5 s; the room hears it 100 ms later, at a third of its level, over faint noise.
@Suite("Room check: the capture as it comes, with an overrun or an underrun")
struct RoomListeningTests {
    static let rate = 16_000
    static let ring = 1.5
    static let delay = 0.1

    /// The classic tone's rhythm: four 100 ms beeps of 880 Hz (with its octave) 100 ms apart, then 800 ms of quiet.
    static func tone(_ i: Int) -> Float {
        let t = Double(i) / Double(rate)
        let inPeriod = t.truncatingRemainder(dividingBy: 1.6)
        guard inPeriod < 0.8, inPeriod.truncatingRemainder(dividingBy: 0.2) < 0.1 else { return 0 }
        return Float(0.5 * (0.75 * sin(2 * .pi * 880 * t) + 0.25 * sin(4 * .pi * 880 * t)))
    }

    /// A station's steady sound: a 440 Hz sine.
    static func steady(_ i: Int) -> Float { Float(0.4 * sin(2 * .pi * 440 * Double(i) / Double(rate))) }

    /// What the tap published for 5 s of `signal` (the tone: with its frequencies): 25 ms pieces, heard from `ring`
    /// on — from piece `underrunAt` on, 400 ms later (the card underran and restarted).
    static func chunks(_ signal: (Int) -> Float, tone: Bool, underrunAt: Int = .max) -> [PlaybackTap.Chunk] {
        let n = rate / 40
        return (0..<200).map { k in
            let samples = (k * n..<(k + 1) * n).map(signal)
            let rms = (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(n)).squareRoot()
            let sounding = tone && samples[n / 2] != 0  // the tone in the piece's middle, as the engine says it
            let heard = ring + Double(k * n) / Double(rate) + (k >= underrunAt ? 0.4 : 0)
            return PlaybackTap.Chunk(
                sequence: Int64(k + 1), position: Int64(k * n), frames: n, rate: rate,
                heardAt: .nanoseconds(Int64(heard * 1e9)), running: true,
                block: PlayedBlock(rms: Float(rms), tone: sounding ? ToneFrequencies(880, 1760) : .none))
        }
    }

    /// Faint white noise (a linear congruential generator: the same every run).
    static func noise(_ i: Int) -> Float {
        let x = UInt32(truncatingIfNeeded: (i &* 1_103_515_245 &+ 12_345) >> 8) & 0xFFFF
        return (Float(x) / 32768 - 1) * 0.003
    }

    /// Reads 20 ms at a time for 6 s of capture — `signal` from `ring` + `delay` on if `heard`, over the noise —
    /// none in `lost` (seconds of the capture: an overrun), until a verdict.
    static func listen(
        _ signal: @escaping (Int) -> Float = tone, chunks: [PlaybackTap.Chunk]? = nil, heard: Bool,
        lost: Range<Double> = 0..<0
    ) -> RoomVerdict? {
        var listening = RoomListening(rate: rate)
        listening.played(chunks ?? Self.chunks(signal, tone: true))
        listening.listen(since: .milliseconds(1400))
        let read = rate / 50
        let offset = Int((ring + delay) * Double(rate))
        for start in stride(from: 0, to: 6 * rate, by: read) {
            let at = Double(start) / Double(rate)
            if lost.contains(at) { continue }
            let samples = (start..<(start + read)).map { i in
                noise(i) + (heard && i >= offset ? signal(i - offset) / 3 : 0)
            }
            listening.captured(samples, firstAt: .nanoseconds(Int64(at * 1e9)))
            if let verdict = listening.step() { return verdict }
        }
        return nil
    }

    @Test func whatTheCaptureLostIsNoEvidenceAndTheRestIsHeard() throws {
        // The first 2 s of the ring lost but its first 50 ms: most of its beeps were never captured. Had silence
        // stood in for them as evidence, the tone would be found in too few of its blocks.
        let verdict = try #require(Self.listen(heard: true, lost: 1.66..<3.6))
        #expect(verdict.heard == true, "\(verdict)")
        let lost = try #require(verdict.evidence?.lostSeconds)
        #expect(lost > 1.8 && lost < 2.0, "\(verdict)")
    }

    @Test func aCaptureWithAnOverrunAndNoSoundIsNotHeardAtThreeSeconds() throws {
        let verdict = try #require(Self.listen(heard: false, lost: 1.66..<3.6))
        #expect(verdict.heard == false, "\(verdict)")
        #expect(abs((verdict.evidence?.listenedSeconds ?? 0) - 3) < 0.01, "\(verdict)")
    }

    @Test func aSteadyStationIsHeardByItsOnsetAgainstTheNoiseUpToItsFirstFrame() throws {
        // The tap's chunks are known before the capture reaches them (the engine writes ahead of the card): the
        // room's noise is still the 1.5 s captured up to the first frame, and the onset part of what is followed.
        let verdict = try #require(Self.listen(Self.steady, chunks: Self.chunks(Self.steady, tone: false), heard: true))
        #expect(verdict.evidence?.basis == .envelope, "\(verdict)")
        #expect((verdict.evidence?.aboveNoiseDB ?? 0) > 20, "\(verdict)")
    }

    @Test func anUnderrunIsNoEvidenceWhateverTheCardPlayedMeanwhile() throws {
        // The card underran 1 s into a steady station and what followed was heard 400 ms later; meanwhile it played
        // its old buffer again (snd-aloop after the machine stalled), so the room heard no gap. Had the gap been
        // taken as silence the room did not follow, the station's level would not be found.
        let chunks = Self.chunks(Self.steady, tone: false, underrunAt: 40)
        let verdict = try #require(Self.listen(Self.steady, chunks: chunks, heard: true))
        #expect(verdict.evidence?.basis == .envelope, "\(verdict)")
        let quiet = try #require(Self.listen(Self.steady, chunks: chunks, heard: false))
        #expect(quiet.heard == false, "\(quiet)")
    }
}
