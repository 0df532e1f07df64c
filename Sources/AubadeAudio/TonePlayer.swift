import AubadeCore
import Foundation
import Logging

/// Plays a built-in tone through the ALSA sink on its own thread (R17: no curl, no mpg123 on this path).
public enum TonePlayer {
    public static let sampleRate = 44_100
    static let chunkFrames = 2205  // 50 ms: stop is honoured within one chunk

    /// Starts the tone at `volume` (0–100), ramping from `fadeFrom` when given, for `duration` or until stopped.
    public static func start(_ tone: ToneName, volume: Int, fadeFrom: Int? = nil, fadeIn: Duration = .zero,
                             duration: Duration?, sink options: SinkOptions, logger: Logger? = nil) -> Playback {
        Playback.start(name: "aubade.tone") { playback in
            let began = ContinuousClock.now
            let sink: AlsaSink
            do throws(AudioError) {
                sink = try AlsaSink(device: options.device, alternate: options.alternate, paced: options.paced, logger: logger)
                try sink.configure(rate: sampleRate, channels: 2)
            } catch {
                playback.emit(.error(error.description, fatal: true))
                return .failed
            }
            defer { sink.close() }
            var generator = ToneGenerator(tone: tone)
            var gain = GainRamp(volume: fadeFrom ?? volume)
            let fadeFrames = fadeIn.frames(at: sampleRate)
            gain.ramp(to: volume, over: fadeFrom == nil ? 0 : fadeFrames)
            let totalFrames = duration?.frames(at: sampleRate)
            var written = 0
            var buffer = [Int16](repeating: 0, count: 2 * chunkFrames)
            while !playback.isStopRequested {
                if let volume = playback.takeVolumeRequest() { gain.ramp(to: volume, over: sampleRate / 20) }
                let frames = totalFrames.map { min(chunkFrames, $0 - written) } ?? chunkFrames
                guard frames > 0 else { sink.drain(); return .finished }
                var failed: AudioError?
                buffer.withUnsafeMutableBufferPointer { raw in
                    let chunk = UnsafeMutableBufferPointer(rebasing: raw[0..<(2 * frames)])
                    generator.render(into: chunk, frames: frames)
                    gain.apply(to: chunk, channels: 2)
                    do throws(AudioError) { try sink.write(UnsafeBufferPointer(chunk)) } catch { failed = error }
                }
                if let failed {
                    playback.emit(.error(failed.description, fatal: true))
                    return .failed
                }
                if written == 0 { playback.emit(.playing(after: ContinuousClock.now - began)) }
                written += frames
            }
            sink.stop()
            return .requested
        }
    }
}
