import AubadeCore
import Foundation
import Logging
import Synchronization

/// Plays an internet radio stream: `StreamFetcher` on a network thread fills a bounded ring; this playback's
/// own thread decodes (mpg123), applies the volume and writes to ALSA. Events: connecting, playing (time to
/// first audio on the device), title, stalled, reconnecting, error, stopped.
public enum StreamPlayer {
    public struct Options: Sendable {
        public var volume: Int
        public var duration: Duration?
        public var allowLoopback: Bool
        public var stallTimeout: Duration = .seconds(10)
        public var ringBytes = 256 * 1024

        public init(volume: Int, duration: Duration? = nil, allowLoopback: Bool = false) {
            self.volume = volume
            self.duration = duration
            self.allowLoopback = allowLoopback
        }
    }

    /// Input that yields no audio at all beyond this is not MP3 (R22: never a busy loop on garbage).
    static let maxBytesWithoutAudio = 128 * 1024

    public static func start(_ url: StreamURL, options: Options, sink: SinkOptions, logger: Logger? = nil) -> Playback {
        Playback.start(name: "aubade.stream") { playback in
            let began = ContinuousClock.now
            let ring = ByteRing(capacity: options.ringBytes)
            playback.attach(ring)
            let started = Atomic<Bool>(false)
            var transfer = CurlTransfer.Options()
            transfer.policy = AddressPolicy(allowLoopback: options.allowLoopback)
            transfer.stallTimeout = options.stallTimeout
            let fetcher = StreamFetcher(url: url, options: transfer, ring: ring, playback: playback,
                                        audioStarted: { started.load(ordering: .relaxed) })
            let network = Thread { fetcher.run() }
            network.name = "aubade.network"
            network.start()
            defer {
                playback.stop()
                ring.close()
            }
            return decodeLoop(ring: ring, playback: playback, options: options, sink: sink, began: began,
                              started: { started.store(true, ordering: .relaxed) }, logger: logger)
        }
    }

    private static func decodeLoop(ring: ByteRing, playback: Playback, options: Options, sink sinkOptions: SinkOptions,
                                   began: ContinuousClock.Instant, started: () -> Void, logger: Logger?) -> StopReason {
        let decoder: MP3Decoder
        let sink: AlsaSink
        do throws(AudioError) {
            decoder = try MP3Decoder()
            sink = try AlsaSink(device: sinkOptions.device, alternate: sinkOptions.alternate, paced: sinkOptions.paced, logger: logger)
        } catch {
            playback.emit(.error(error.description, fatal: true))
            return .failed
        }
        defer { sink.close() }
        var gain = GainRamp(volume: options.volume)
        var formats = FormatGate()
        var input = [UInt8](repeating: 0, count: 16 * 1024)
        var pcm = [Int16]()
        var playing = false
        var playedFrames = 0
        var bytesWithoutAudio = 0
        let limitFrames: (Int) -> Int? = { rate in options.duration?.frames(at: rate) }
        while !playback.isStopRequested {
            if let volume = playback.takeVolumeRequest() { gain.ramp(to: volume, over: max(sink.rate, 44_100) / 20) }
            let n = input.withUnsafeMutableBytes { ring.read(into: $0, timeout: 0.1) }
            if n == 0 {
                // The fetcher closes the ring when it gives up, and also when a stop was requested.
                if ring.isFinished { return playback.isStopRequested ? .requested : .failed }
                continue
            }
            var failure: AudioError?
            var finished = false
            bytesWithoutAudio += n
            input.withUnsafeBytes { raw in
                do throws(AudioError) {
                    try decoder.decode(UnsafeRawBufferPointer(rebasing: raw[0..<n])) { out throws(AudioError) in
                        switch out {
                        case .format(let rate, let channels):
                            if formats.announce(.init(rate: rate, channels: channels)) {
                                try sink.configure(rate: rate, channels: channels)
                            }
                        case .pcm(let bytes):
                            switch formats.admit(bytes: bytes.count) {
                            case .play: break
                            case .drop: return  // PCM in a format not (yet) believed is not audio either
                            case .switchTo(let format): try sink.configure(rate: format.rate, channels: format.channels)
                            }
                            bytesWithoutAudio = 0
                            // One ring read can hold a second of audio: a stop must not wait for all of it.
                            guard !finished, !playback.isStopRequested, sink.channels > 0 else { return }
                            pcm.removeAll(keepingCapacity: true)
                            pcm.append(contentsOf: bytes.bindMemory(to: Int16.self))
                            var frames = pcm.count / sink.channels
                            if let limit = limitFrames(sink.rate), playedFrames + frames >= limit {
                                frames = max(0, limit - playedFrames)
                                finished = true
                            }
                            try pcm.withUnsafeMutableBufferPointer { buf throws(AudioError) in
                                let slice = UnsafeMutableBufferPointer(rebasing: buf[0..<(frames * sink.channels)])
                                gain.apply(to: slice, channels: sink.channels)
                                try sink.write(UnsafeBufferPointer(slice))
                            }
                            playedFrames += frames
                            if !playing && frames > 0 {
                                playing = true
                                started()
                                playback.emit(.playing(after: ContinuousClock.now - began))
                            }
                        }
                    }
                } catch { failure = error }
            }
            if failure == nil, bytesWithoutAudio > maxBytesWithoutAudio {
                failure = AudioError("The stream is not decodable MP3 (\(maxBytesWithoutAudio / 1024) KiB without a single audio frame).")
            }
            if let failure {
                playback.emit(.error(failure.description, fatal: true))
                return .failed
            }
            if finished {
                sink.drain()
                return .finished
            }
        }
        sink.stop()
        return .requested
    }
}
