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

@Suite("Format changes mid-stream")
struct FormatGateTests {
    typealias Format = FormatGate.Format
    static let cd = Format(rate: 44_100, channels: 2)

    /// Announces `format` (nil: none) then admits `bytes` of 16-bit PCM in it; what the gate said to each.
    static func step(_ gate: inout FormatGate, _ format: Format?, _ bytes: Int) -> (
        configure: Bool, admission: FormatGate.Admission
    ) {
        let configure = format.map { gate.announce($0) } ?? false
        return (configure, gate.admit(seconds: seconds(bytes, format ?? cd)))
    }

    static func seconds(_ bytes: Int, _ format: Format) -> Double {
        Double(bytes) / Double(2 * format.channels * format.rate)
    }

    @Test func theFirstFormatIsTakenAtOnce() {
        var gate = FormatGate()
        let first = Self.step(&gate, Self.cd, 4608)
        #expect(first.configure && first.admission == .play)
        let again = Self.step(&gate, Self.cd, 4608)  // the same again: nothing to do
        #expect(!again.configure && again.admission == .play)
    }

    @Test func aFalseSyncInGarbageIsDroppedAndNeverReachesTheDevice() {
        var gate = FormatGate()
        _ = Self.step(&gate, Self.cd, 4608)
        let odd = Self.step(&gate, Format(rate: 8000, channels: 1), 2 * 1152)
        let odder = Self.step(&gate, Format(rate: 22_050, channels: 2), 4 * 576)
        let back = Self.step(&gate, Self.cd, 4608)  // the stream's own format again
        #expect(!odd.configure && odd.admission == .drop)
        #expect(!odder.configure && odder.admission == .drop)
        #expect(!back.configure && back.admission == .play)
        #expect(gate.current == Self.cd)
    }

    @Test func aRealChangeIsTakenAfterAQuarterOfASecond() {
        var gate = FormatGate()
        _ = Self.step(&gate, Self.cd, 4608)
        let dvd = Format(rate: 48_000, channels: 2)
        var admissions = [Self.step(&gate, dvd, 4 * 1152).admission]
        while admissions.last == .drop { admissions.append(gate.admit(seconds: Self.seconds(4 * 1152, dvd))) }
        // 11 frames of 1152 reach 0.25 s at 48 kHz: 10 are dropped, the 11th switches and plays.
        #expect(admissions == Array(repeating: .drop, count: 10) + [.switchTo(dvd)])
        #expect(gate.current == dvd)
        let next = gate.admit(seconds: Self.seconds(4 * 1152, dvd))
        #expect(next == .play)
    }
}
