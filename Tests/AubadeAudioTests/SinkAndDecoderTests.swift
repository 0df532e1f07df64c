import AubadeCore
import AubadeTesting
import Foundation
import Testing

@testable import AubadeAudio

/// Real alsa-lib (its `file` and `null` plugins stand in for a sound card) and real libmpg123.
@Suite("ALSA sink, tone player, MP3 decoder")
struct SinkAndDecoderTests {
    static func samples(_ path: String) throws -> [Int16] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    @Test func theTonePlaysThroughALSAAtItsLevelAndPitch() async throws {
        let dir = try TemporaryDirectory("tone")
        let rig = EnginePlay(in: dir, paced: false)
        let run = await rig.play(.tone(.classic, priority: .radio, volume: 100, limit: .seconds(2)))
        let sound = run.events.filter { $0.sound != nil }
        #expect(sound.count == 2 && sound.first?.isAudible == true && sound.last?.end == .finished, "\(run.events)")
        #expect(run.pcm.count == 2 * 44_100 * 2)
        #expect(Signal.rmsDBFS(run.pcm[...]) > -20)
        let firstBeep = Signal.left(Array(run.pcm[0..<8820]))
        #expect(Signal.power(at: 880, firstBeep) > 50 * Signal.power(at: 700, firstBeep))
    }

    @Test func stopEndsTheTone() async throws {
        let dir = try TemporaryDirectory("tone")
        let rig = EnginePlay(in: dir, device: "null", paced: true)
        // The tone never ends by itself, so its ending — with the stop it was asked for as the reason, and
        // nothing else first — proves the stop was honoured. How fast a stop is heard is a bench figure.
        let run = await rig.play(.tone(.chime, priority: .radio, volume: 50)) { event, engine, id in
            if event.isAudible { engine.stop(id) }
        }
        let sound = run.events.filter { $0.sound != nil }
        #expect(sound.count == 2 && sound.last?.end == .requested, "\(run.events)")
    }

    @Test func onlyTheUnpacedPluginsArePacedByTheSystemClock() async throws {
        let dir = try TemporaryDirectory("pace")
        #expect(try !AlsaSink(device: "null").pacesItself)
        // 2 s of audio through the paced file plugin take real time: after each write the sink is never more
        // than its lead ahead of the wall clock — one device buffer (the plugin holds one) plus the latency,
        // 0.4 s here. (Behind it may fall, on a busy machine; the total is a figure.) On a thread of its own:
        // the writes block.
        let path = dir.file("out.raw")
        let (paces, aheads, took) = try await onThread { () throws(AudioError) -> (Bool, [Duration], Duration) in
            let file = try AlsaSink(device: "file:'\(path)',raw", latency: .milliseconds(200))
            try file.configure(rate: 44_100, channels: 2)
            let chunk = [Int16](repeating: 0, count: 2 * 2205)
            var aheads: [Duration] = []
            let began = ContinuousClock.now
            for i in 1...40 {
                try chunk.withUnsafeBufferPointer { buffer throws(AudioError) in try file.write(buffer) }
                aheads.append(.milliseconds(50 * i) - (ContinuousClock.now - began))
            }
            return (file.pacesItself, aheads, ContinuousClock.now - began)
        }
        #expect(!paces)
        #expect(aheads.allSatisfy { $0 <= .milliseconds(410) }, "ahead of the wall clock by up to \(aheads.max()!)")
        #expect(took >= .milliseconds(1500))
        figure("paced file plugin, 2 s of audio written in", took)
    }

    @Test func aMissingDeviceIsRetriedThenTheAlternateIsUsed() async throws {
        let (device, waited) = try await onThread { () throws(AudioError) -> (String, Duration) in
            let began = ContinuousClock.now
            let sink = try AlsaSink(device: "hw:CARD=NoSuchCard", alternate: "null", retryFor: .milliseconds(600))
            return (sink.device, ContinuousClock.now - began)
        }
        #expect(device == "null")
        #expect(waited >= .milliseconds(600))  // R19: retried before giving up on it
        let error = await onThread { () -> AudioError? in
            do throws(AudioError) {
                _ = try AlsaSink(device: "hw:CARD=NoSuchCard", alternate: "hw:CARD=NoneEither", retryFor: .zero)
                return nil
            } catch {
                return error
            }
        }
        #expect(error?.description.hasPrefix("The sound device hw:CARD=NoSuchCard cannot be opened (snd_pcm_open: ") == true)
        #expect(error?.description.hasSuffix(", nor the alternate hw:CARD=NoneEither.") == true)
    }

    @Test func mp3DecodesToTheSameSineWhateverTheChunking() async throws {
        let dir = try TemporaryDirectory("mp3")
        let bytes = [UInt8](
            try Data(contentsOf: URL(fileURLWithPath: try await TestMedia.sineMP3(frequency: 440, seconds: 3, in: dir))))
        for chunk in [417, 4096, bytes.count] {
            let decoder = try MP3Decoder()
            var pcm: [Int16] = []
            var formats: [String] = []
            var i = 0
            while i < bytes.count {
                try bytes[i..<min(i + chunk, bytes.count)].withUnsafeBytes { raw in
                    try decoder.decode(raw) { out throws(AudioError) in
                        switch out {
                        case .format(let rate, let ch): formats.append("\(rate)/\(ch)")
                        case .pcm(let data): pcm += data.bindMemory(to: Int16.self)
                        }
                    }
                }
                i += chunk
            }
            #expect(formats == ["44100/2"])
            #expect(abs(pcm.count - 3 * 44_100 * 2) < 2 * 1152 * 2)
            let mono = Signal.left(Array(pcm[44_100..<(44_100 + 8820)]))
            #expect(Signal.power(at: 440, mono) > 100 * Signal.power(at: 660, mono))
        }
    }

    @Test func junkBeforeTheAudioIsSkipped() async throws {
        let dir = try TemporaryDirectory("mp3")
        var bytes = [UInt8](
            try Data(contentsOf: URL(fileURLWithPath: try await TestMedia.sineMP3(frequency: 440, seconds: 2, in: dir))))
        bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) } + bytes
        let decoder = try MP3Decoder()
        var produced = 0
        try bytes.withUnsafeBytes { raw in
            try decoder.decode(raw) { out throws(AudioError) in if case .pcm(let d) = out { produced += d.count } }
        }
        #expect(produced > 2 * 44_100 * 2 * 2 * 9 / 10)
    }

    @Test func garbageEndsWithAnErrorOrSilenceNeverASpin() async throws {
        // Never a spin: every one of the 200 pieces of garbage comes back from the decoder (on a thread of
        // its own, under a watchdog that only ends a decoder that hangs).
        let began = ContinuousClock.now
        let outcome = await withWatchdog(EventProcess.watchdog) {
            await onThread { () -> (pieces: Int, produced: Int, failure: AudioError?)? in
                guard let decoder = try? MP3Decoder() else { return nil }
                var produced = 0, pieces = 0
                var generator = SystemRandomNumberGenerator()
                var failure: AudioError?
                for _ in 0..<200 where failure == nil {
                    let garbage = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
                    do {
                        try garbage.withUnsafeBytes { raw in
                            try decoder.decode(raw) { out throws(AudioError) in if case .pcm(let d) = out { produced += d.count }
                            }
                        }
                    } catch let error as AudioError { failure = error } catch {}
                    pieces += 1
                }
                return (pieces, produced, failure)
            }
        }
        let returned = try #require(outcome, "the decoder did not return within the watchdog")
        let result = try #require(returned, "no MP3 decoder")
        #expect(result.failure != nil || result.pieces == 200)
        #expect(result.failure != nil || result.produced < 44_100 * 4)  // random bytes may hold a few accidental frames
        figure("mp3 decoder through 800 KiB of garbage", ContinuousClock.now - began)
    }
}

@Suite("Frames in garbage")
struct FrameRunTests {
    typealias Frame = FrameRun.Frame

    /// The verdicts on a sequence of frames, the last one's included (as at the stream's end).
    static func verdicts(_ frames: [Frame]) -> [Bool] {
        var run = FrameRun()
        var out: [Bool] = []
        for f in frames {
            switch run.next(f) {
            case .audio: out.append(true)
            case .dropped: out.append(false)
            case .nothingHeld: break
            }
        }
        out.append(run.lastIsAudio)
        return out
    }

    /// `count` Layer III frames of `size` bytes back to back from `start`.
    static func frames(from start: Int, _ count: Int, size: Int = 418, layer: Int = 3) -> [Frame] {
        (0..<count).map { Frame(start: start + $0 * size, size: size, layer: layer) }
    }

    @Test func anUnbrokenStreamIsAllAudio() {
        #expect(Self.verdicts(Self.frames(from: 0, 6)) == Array(repeating: true, count: 6))
        // Junk before the first frame (an ID3 tag, a stream joined mid-frame) is no break.
        #expect(Self.verdicts(Self.frames(from: 5000, 3)) == [true, true, true])
    }

    @Test func aFalseFrameInGarbageIsDropped() {
        // Four frames, a false sync 300 bytes into the garbage after them (a Layer I header: 8 kHz, say),
        // then the stream again.
        let before = Self.frames(from: 0, 4)
        let fake = Frame(start: 4 * 418 + 300, size: 96, layer: 1)
        let after = Self.frames(from: 10_000, 4)
        let v = Self.verdicts(before + [fake] + after)
        // The frame before the garbage is dropped (its successor does not join it: mpg123 read its body out of
        // the garbage), the false frame is dropped, and of the frames after it the first two are dropped: with
        // 418-byte frames, their 511-byte reservoir reaches back into the garbage.
        #expect(v == [true, true, true, false, false, false, false, true, true])
    }

    @Test func layersIAndIIHaveNoReservoirSoTheFirstJoinedPairAfterAGapIsAudio() {
        let v = Self.verdicts(Self.frames(from: 0, 2, size: 417, layer: 2) + Self.frames(from: 2000, 3, size: 417, layer: 2))
        #expect(v == [true, false, false, true, true])
    }

    @Test func smallLayerIIIFramesNeedSeveralBeforeTheReservoirIsClean() {
        // 32 kbps stereo MPEG-1 frames are 104 bytes, 68 of them main data (104 less the header and 32 bytes of
        // side information): 511 bytes of reservoir reach back over eight of them.
        let small = { (start: Int, count: Int) in
            (0..<count).map {
                Frame(
                    start: start + $0 * 104, size: 104, layer: 3,
                    mainData: FrameRun.mainDataBytes(size: 104, mpeg1: true, mono: false, crc: false))
            }
        }
        #expect(FrameRun.mainDataBytes(size: 104, mpeg1: true, mono: false, crc: false) == 68)
        let v = Self.verdicts(small(0, 1) + small(1000, 11))
        #expect(v == [false, false, false, false, false, false, false, false, false, true, true, true])
    }

    @Test func aStationWithTitlesPassedThroughAsAudioPlaysNoNoise() async throws {
        // What the decoder sees once ICY metadata is off (R23) on a server whose titles overflow their block: after
        // every 8192 bytes of audio, a length byte and 20,000 bytes of title. Before the frames were judged,
        // mpg123 played the frames cut by the titles and the false frame headers it found as full-scale noise
        // several times a second.
        let dir = try TemporaryDirectory("mp3")
        let mp3 = [UInt8](
            try Data(contentsOf: URL(fileURLWithPath: try await TestMedia.sineMP3(frequency: 440, seconds: 20, in: dir))))
        let title = [UInt8(255)] + Array("StreamTitle='\(String(repeating: "A", count: 20_000))';".utf8)
        var wire: [UInt8] = []
        for start in stride(from: 0, to: mp3.count, by: 8192) {
            wire += mp3[start..<min(start + 8192, mp3.count)] + title
        }
        let decoder = try MP3Decoder(outputRate: 44_100)
        var pcm: [Int16] = []
        let take = { (out: MP3Decoder.Output) in if case .pcm(let d) = out { pcm += d.bindMemory(to: Int16.self) } }
        for start in stride(from: 0, to: wire.count, by: 4096) {
            try wire[start..<min(start + 4096, wire.count)].withUnsafeBytes { try decoder.decode($0, output: take) }
        }
        try decoder.finish(output: take)
        // The sine is at half scale (−9 dBFS RMS): nothing louder reached the output in any hundredth of a
        // second, and no tenth of a second sounds like anything but the sine (the tone the test once mistook a
        // burst of noise for, say).
        let peak = pcm.map { abs(Int($0)) }.max() ?? 0
        #expect(peak < 20_000, "peak \(peak) of 32767")
        let loud = Signal.windows(pcm, seconds: 0.01).filter { Signal.rmsDBFS($0.samples) > -8 }.map(\.at)
        #expect(loud.isEmpty, "louder than the sine at \(loud) s")
        #expect(Signal.firstHeard(880, over: 440, in: pcm) == nil)
        // What was dropped is the frames next to the titles, not the station.
        #expect(decoder.droppedFrames > 0)
        #expect(Double(pcm.count) / 2 / 44_100 > 14, "\(Double(pcm.count) / 2 / 44_100) s of 20")
    }
}
