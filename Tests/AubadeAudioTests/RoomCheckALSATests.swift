import AubadeCore
import AubadeTesting
import Foundation
import Testing

@testable import AubadeAudio

/// The room check end to end with the real alsa-lib and recorded material: the engine's own output written through
/// alsa-lib's `file` plugin and what its tap published, then captured back through a `file` PCM's `infile` (over
/// `null`) after sox delayed it, turned it down and mixed a room's noise in — heard; the same capture with the noise
/// or silence alone — not heard. The capture's instants are its sample count (the plugin is not paced), and the
/// tap's chunks are placed on the same scale by their stream position: the recording starts 1.5 s before the card's
/// first frame.
@Suite("Room check through alsa-lib: recorded, delayed, noisy")
struct RoomCheckALSATests {
    static let rate = 44_100
    static let lead = 1.5

    /// What the engine played (`tone` for 4 s at `volume`), and the tap's chunks, placed `lead` s into a recording.
    static func played(_ tone: ToneName, volume: Int, in dir: TemporaryDirectory) async -> (
        card: String, chunks: [PlaybackTap.Chunk]
    ) {
        let rig = EnginePlay(in: dir, paced: false)
        _ = await rig.play(.tone(tone, priority: .radio, volume: volume, limit: .seconds(4)))
        let chunks = rig.engine.playback.chunks(after: 0).map { c in
            var c = c
            c.heardAt = .seconds(lead) + .nanoseconds(c.position * 1_000_000_000 / Int64(rate))
            return c
        }
        return (rig.card, chunks)
    }

    /// The recording: `signal` (the card's raw stereo, or nil) delayed `delay` s and scaled by `gain`, after `lead` s,
    /// over pink noise at `noise` (0: none), 7 s in all, raw 16-bit mono.
    static func recording(
        signal: String?, delay: Double, gain: Double, noise: Double, in dir: TemporaryDirectory
    ) async throws -> String {
        let raw = ["-t", "raw", "-r", "\(rate)", "-e", "signed", "-b", "16"]
        let out = dir.file("room-\(UUID().uuidString).raw")
        let room = dir.file("noise.raw")
        try await sox(["-n"] + raw + ["-c", "1", room, "synth", "7", "pinknoise", "vol", "\(noise)"])
        guard let signal else {
            try await sox(raw + ["-c", "1", room] + raw + ["-c", "1", out])
            return out
        }
        let moved = dir.file("signal.raw")
        try await sox(
            raw + ["-c", "2", signal] + raw + ["-c", "1", moved, "remix", "1", "vol", "\(gain)", "pad", "\(lead + delay)"])
        try await sox(
            ["-m", "-v", "1"] + raw + ["-c", "1", moved, "-v", "1"] + raw + ["-c", "1", room] + raw + [
                "-c", "1", out, "trim", "0", "7",
            ])
        return out
    }

    static func sox(_ args: [String]) async throws {
        let r = try await ProcessRunner.run("/usr/bin/sox", args)
        try #require(r.status == 0, "sox \(args): \(r.stderr)")
    }

    /// Captures `file` through alsa-lib (`file` PCM, `infile`) and decides, the tap's `chunks` for what was played.
    static func capture(_ file: String, chunks: [PlaybackTap.Chunk]) throws -> (RoomVerdict?, rate: Int, channels: Int) {
        let definition = "pcm.room { type file slave.pcm { type null } file \"/dev/null\" infile \"\(file)\" format raw }"
        let mic = try AlsaCapture(device: "room", definition: definition, rate: rate)
        defer { mic.close() }
        var listening = RoomListening(rate: mic.rate)
        listening.played(chunks)
        listening.listen(since: .seconds(lead - 0.1))
        var samples: [Float] = []
        var frames = 0
        while frames < Int(6.5 * Double(mic.rate)) {
            try mic.read(frames: mic.rate / 50, into: &samples)
            listening.captured(samples, firstAt: .nanoseconds(Int64(frames) * 1_000_000_000 / Int64(mic.rate)))
            frames += samples.count
            if let verdict = listening.step() { return (verdict, mic.rate, mic.channels) }
        }
        return (nil, mic.rate, mic.channels)
    }

    @Test func theEnginesToneDelayedTurnedDownAndUnderNoiseIsHeard() async throws {
        let dir = try TemporaryDirectory("room")
        let (card, chunks) = await Self.played(.classic, volume: 90, in: dir)
        #expect(
            chunks.contains { $0.block.tone == ToneFrequencies(880, 1760) && $0.block.audible }, "the tap says it was the tone")
        let file = try await Self.recording(signal: card, delay: 0.15, gain: 0.1, noise: 0.05, in: dir)
        let (verdict, rate, channels) = try Self.capture(file, chunks: chunks)
        #expect(rate == Self.rate && channels == 1)
        #expect(verdict?.heard == true, "\(String(describing: verdict))")
        let lag = try #require(verdict?.evidence?.lagSeconds)
        #expect(abs(lag - 0.15) <= 0.05, "heard 150 ms after it played: \(lag)")
        print("room check, tone: \(verdict!) after \(verdict!.evidence!.listenedSeconds) s of the ring")
    }

    @Test func theTapSaysWhatReachedTheCardChunkByChunk() async throws {
        let dir = try TemporaryDirectory("room")
        let (card, chunks) = await Self.played(.classic, volume: 50, in: dir)
        let pcm = try SinkAndDecoderTests.samples(card)
        #expect(!chunks.isEmpty)
        #expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.position + Int64($0.frames) == $1.position }, "contiguous")
        #expect(chunks.last.map { Int($0.position) + $0.frames } == pcm.count / 2, "every frame on the card is in a chunk")
        #expect(chunks.allSatisfy { $0.frames <= PlaybackTap.pieceFrames }, "pieces finer than the room check's blocks")
        for c in chunks {
            let frames = pcm[(2 * Int(c.position))..<(2 * (Int(c.position) + c.frames))]
            let rms = (frames.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(frames.count)).squareRoot() / 32768
            #expect(abs(Double(c.block.rms) - rms) < 1e-4, "chunk at \(c.position): \(c.block.rms) vs \(rms) on the card")
            // The classic's frequencies where its beep sounds in the piece's middle, none between its beeps.
            let beeping = frames.contains { $0 != 0 }
            if c.block.tone == ToneFrequencies(880, 1760) {
                #expect(beeping, "a tone said where the card is silent at \(c.position)")
            }
            if !beeping { #expect(c.block.tone.isNone, "chunk at \(c.position)") }
        }
        #expect(
            chunks.contains { $0.block.tone.isNone } && chunks.contains { !$0.block.tone.isNone }, "beeps and gaps told apart")
    }

    @Test func theRisingToneIsHeardByItsSweepAndLevel() async throws {
        let dir = try TemporaryDirectory("room")
        let (card, chunks) = await Self.played(.rising, volume: 90, in: dir)
        let file = try await Self.recording(signal: card, delay: 0.25, gain: 0.2, noise: 0.05, in: dir)
        let (verdict, _, _) = try Self.capture(file, chunks: chunks)
        #expect(verdict?.heard == true, "\(String(describing: verdict))")
    }

    @Test(arguments: [0.0, 0.05, 0.3])
    func noiseOrSilenceAloneIsNotHeard(noise: Double) async throws {
        let dir = try TemporaryDirectory("room")
        let (_, chunks) = await Self.played(.classic, volume: 90, in: dir)
        let file = try await Self.recording(signal: nil, delay: 0, gain: 0, noise: noise, in: dir)
        let (verdict, _, _) = try Self.capture(file, chunks: chunks)
        #expect(verdict?.heard == false, "\(String(describing: verdict))")
        #expect(abs((verdict?.evidence?.listenedSeconds ?? 0) - 3) < 0.01, "decided at 3 s of the ring")
    }

    @Test func aMicrophoneThatCannotBeOpenedIsOneSentenceAndNoVerdict() async throws {
        let check = RoomCheck(microphone: "hw:97,0", playback: PlaybackTap())
        let outcome = await check.listen(since: MonotonicInstant(.zero))
        check.shutdown()
        guard case .unavailable(let why) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(why.contains("hw:97,0") && why.contains("snd_pcm_open"), "\(why)")
    }
}
