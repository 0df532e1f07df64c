import AubadeCore
import AubadeHTTP
import AubadeSystem
import Foundation
import Synchronization

/// One station address being played: `StreamFetcher` on its own network thread fills a bounded byte ring;
/// the engine's audio thread pulls decoded PCM from here without ever blocking, so a tone or another sound keeps
/// playing while the station connects, stalls or fails. The container the fetcher found (its mark in the ring)
/// picks the decoder: MP3 is decoded here, on the audio thread, by mpg123 forced to the engine's rate in stereo
/// (measured fastest to first audio); AAC, Ogg and FLAC by libavformat and libavcodec on their own decoding
/// thread (`FFmpegStream`), whose PCM ring this feed pulls from in the same way.
///
/// Contract: not Sendable — create, pull from and stop it on the audio thread. The network thread reports
/// through `report` until `stop()`; nothing is reported after that. Memory is bounded by the ring (R25) plus
/// one decode step of PCM.
///
/// An episode (`FeedSource.episode`) is read from its file or fetched from its byte on, and ends with it
/// (`playedToEnd`); the feed knows which byte of the file each decoded frame came from (`byte(atFrame:)`), so
/// that listening can stop and go on there the next night.
final class StationFeed {
    let source: FeedSource
    private let report: @Sendable (StreamEvent) -> Void
    private let ring: ByteRing
    private let rate: Int
    private var decoding = Decoding.undecided
    private let shared: Shared
    private var pcm: [Int16] = []
    private var pcmStart = 0
    private var input = [UInt8](repeating: 0, count: 16 * 1024)
    private var bytesWithoutAudio = 0
    /// The decoder's failure on this thread (mpg123's), or the decoding thread's.
    private var ownDecodeFailure: String?
    private var decodeFailure: String? { ownDecodeFailure ?? shared.state.withLock { $0.decodeFailure } }
    private var reportedDecodeFailure = false
    private var finished = false
    /// The byte of the source the ring's first byte is (an episode's starting point).
    private let startByte: Int64
    /// Bytes handed to the decoder, and stereo frames it gave back, since the start.
    private var bytesDecoded: Int64 = 0
    private var framesDecoded: Int64 = 0
    /// (frames decoded, bytes decoded) after each decode step, the last few (enough to cover what waits in the
    /// PCM buffer and the device).
    private var checkpoints: [(frames: Int64, bytes: Int64)] = []

    /// Input that yields no audio at all beyond this is not MP3 (R22: never a busy loop on garbage).
    static let maxBytesWithoutAudio = 128 * 1024
    static let ringBytes = 256 * 1024

    /// Which decoder reads the ring: none until its first mark says what the stream is.
    private enum Decoding {
        case undecided
        case mpeg(MP3Decoder)
        case ffmpeg(FFmpegStream)
    }

    /// What the network and decoding threads share with the audio thread.
    final class Shared: Sendable {
        struct State {
            var decodeFailure: String?
            var failure: String?
            var failedOnce = false
            var failedForGood = false
            var audioArrived = false
            var stopped = false
        }
        let state = Mutex(State())
        /// Set by `stop()`, after `state.stopped`: what the network thread waits on between reconnects.
        let stopSignal = StopSignal()
        /// The decoding thread's PCM ring, once there is one: woken with the byte ring when a failure is reported.
        let decoded = Mutex<ByteRing?>(nil)
    }

    /// Starts fetching `url` at once. `report` gets the network side's events on its thread (titles, notes,
    /// failures) until `stop()`.
    convenience init(
        url: StreamURL, rate: Int, allowLoopback: Bool, stallTimeout: Duration = .seconds(10),
        report: @escaping @Sendable (StreamEvent) -> Void
    ) {
        self.init(source: .station(url), rate: rate, allowLoopback: allowLoopback, stallTimeout: stallTimeout, report: report)
    }

    /// Starts reading `source` at once (its own thread: the network's, or the episode file's).
    init(
        source: FeedSource, rate: Int, allowLoopback: Bool, stallTimeout: Duration = .seconds(10),
        hlsBandwidthCap: Int = HLSPlaylist.defaultBandwidthCap, report: @escaping @Sendable (StreamEvent) -> Void
    ) {
        self.source = source
        if case .episode(let audio) = source { startByte = audio.fromByte } else { startByte = 0 }
        let ring = ByteRing(capacity: StationFeed.ringBytes)
        self.ring = ring
        self.rate = rate
        self.report = report
        let shared = Shared()
        self.shared = shared
        var options = CurlTransfer.Options()
        options.policy = AddressPolicy(allowLoopback: allowLoopback)
        options.stallTimeout = stallTimeout
        let control = FetchControl(
            isStopped: { shared.state.withLock { $0.stopped } },
            waitForStop: { shared.stopSignal.wait(upTo: $0) },
            report: { event in
                // Delivered under the lock, so nothing is reported once `stop()` returned.
                shared.state.withLock { s in
                    guard !s.stopped else { return }
                    switch event {
                    case .error(let reason):
                        s.failure = reason
                        s.failedOnce = true
                        ring.wake()
                        shared.decoded.withLock { $0?.wake() }
                    case .failed(let reason):
                        s.failure = reason
                        s.failedOnce = true
                        s.failedForGood = true
                        ring.wake()
                        shared.decoded.withLock { $0?.wake() }
                    default: break
                    }
                    report(event)
                }
            })
        let audioStarted: @Sendable () -> Bool = { shared.state.withLock { $0.audioArrived } }
        switch source {
        case .station(let url):
            var fetcher = StreamFetcher(url: url, options: options, ring: ring, control: control, audioStarted: audioStarted)
            fetcher.hlsBandwidthCap = hlsBandwidthCap
            NamedThread.start("aubade.net") { [fetcher] in fetcher.run() }
        case .episode(let audio):
            switch audio.origin {
            case .file(let path):
                let reader = EpisodeFileReader(path: path, fromByte: audio.fromByte, ring: ring, control: control)
                NamedThread.start("aubade.file") { reader.run() }
            case .stream(let url):
                options.icyMetadata = false
                var fetcher = StreamFetcher(url: url, options: options, ring: ring, control: control, audioStarted: audioStarted)
                fetcher.finite = true
                fetcher.startByte = audio.fromByte
                NamedThread.start("aubade.net") { [fetcher] in fetcher.run() }
            }
        }
    }

    /// Stops the network thread (within its poll interval); buffered audio is dropped. Idempotent.
    func stop() {
        shared.state.withLock { $0.stopped = true }
        shared.stopSignal.stop()
        ring.close()
        if case .ffmpeg(let stream) = decoding { stream.stop() }
    }

    deinit { stop() }

    /// The failure reported since the last call (a stream error, or audio that does not decode), if any.
    func takeFailure() -> String? {
        if let decodeFailure = self.decodeFailure, !reportedDecodeFailure {
            reportedDecodeFailure = true
            return decodeFailure
        }
        let reported = shared.state.withLock { s -> String? in
            defer { s.failure = nil }
            return s.failure
        }
        if let reported { return reported }
        if inputFinished && buffered == 0 && decodeFailure == nil {
            return source.isEpisode ? nil : "The station's stream ended."
        }
        return nil
    }

    /// An episode played out: its last byte arrived and everything decoded from it was pulled, without a failure.
    var playedToEnd: Bool {
        source.isEpisode && decodeFailure == nil && inputFinished && buffered == 0 && finished
            && !shared.state.withLock { $0.failedForGood }
    }

    /// The byte of the source that decoded frame `frame` (counted from the start) came from, at or a little
    /// before it: where listening goes on from. The decoder holds some input back, so the byte of the decode step
    /// before the one that gave `frame` is taken.
    func byte(atFrame frame: Int64) -> Int64 {
        var before: Int64 = 0
        for c in checkpoints {
            if c.frames >= frame { break }
            before = c.bytes
        }
        return startByte + before
    }

    /// True once the station has given up for good: it closed the ring and everything was played, or its
    /// audio does not decode.
    var hasEnded: Bool { decodeFailure != nil || (inputFinished && buffered == 0) }

    /// Everything the source will give has been read: the byte ring's end, or for a stream decoded on its own
    /// thread, the end of its PCM.
    private var inputFinished: Bool {
        if case .ffmpeg(let stream) = decoding { return stream.pcm.isFinished }
        return ring.isFinished
    }

    /// Whether the network side has reported any failure yet (a refused connection, a 5xx…), without taking it.
    var hasFailed: Bool { decodeFailure != nil || shared.state.withLock { $0.failedOnce } }

    /// Whether the network side reported a failure that ends the stream (`StreamEvent.failed`).
    var failedForGood: Bool { decodeFailure != nil || shared.state.withLock { $0.failedForGood } }

    /// Decoded frames waiting to be pulled.
    var buffered: Int { (pcm.count - pcmStart) / 2 }

    /// Decodes what has arrived until at least `frames` frames wait (or nothing more has arrived); never waits.
    /// Returns the frames waiting.
    @discardableResult
    func prefill(frames: Int) -> Int {
        while buffered < frames, decodeFailure == nil, decodeSome() {}
        return buffered
    }

    /// Copies up to `frames` stereo frames into `out` (interleaved), decoding what has arrived; never waits.
    /// Returns how many frames were copied.
    func pull(frames: Int, into out: UnsafeMutableBufferPointer<Int16>) -> Int {
        prefill(frames: frames)
        let n = min(frames * 2, pcm.count - pcmStart)
        guard n > 0 else { return 0 }
        pcm.withUnsafeBufferPointer { src in
            out.baseAddress!.update(from: src.baseAddress! + pcmStart, count: n)
        }
        pcmStart += n
        if pcmStart == pcm.count {
            pcm.removeAll(keepingCapacity: true)
            pcmStart = 0
        }
        return n / 2
    }

    /// Waits up to `wait` for the network to bring something (bytes, its end, or a failure to take); for a
    /// reader with nothing else to do (the pre-alarm check), never the engine's audio thread.
    func waitForInput(atMost wait: Duration) {
        if case .ffmpeg(let stream) = decoding {
            stream.pcm.waitForData(atMost: wait)
        } else {
            ring.waitForData(atMost: wait)
        }
    }

    /// Whether the stream's decoding thread has ended; nil when it has none (MP3, or nothing arrived yet).
    var decodingThreadEnded: Bool? {
        if case .ffmpeg(let stream) = decoding { return stream.threadEnded }
        return nil
    }

    /// The network buffer's fill (R25).
    var bufferLevel: BufferLevel {
        BufferLevel(buffered: ring.buffered, peak: ring.peakBuffered, capacity: ring.capacity)
    }

    /// Decodes one piece of what the network delivered; false when nothing was waiting.
    private func decodeSome() -> Bool {
        switch decoding {
        case .undecided:
            guard let container = ring.takeMark() else {
                // A source that ended before it sent a byte of audio.
                if ring.isFinished { finished = true }
                return false
            }
            if container == .mpeg {
                do throws(AudioError) { decoding = .mpeg(try MP3Decoder(outputRate: rate)) } catch {
                    fail(error)
                    return false
                }
            } else {
                let shared = self.shared, report = self.report
                // An MP4 episode on disk is read from its file, which can seek to an index kept at its end.
                var file: String?
                if container == .mp4, case .episode(let audio) = source, case .file(let path) = audio.origin { file = path }
                let stream = FFmpegStream(
                    input: ring, rate: rate, seekableFile: file,
                    fail: { reason in
                        shared.state.withLock { s in
                            guard !s.stopped else { return }
                            s.decodeFailure = reason
                            s.failedOnce = true
                            s.failedForGood = true
                        }
                    },
                    title: { title in
                        let stopped = shared.state.withLock { $0.stopped }
                        if !stopped { report(.title(title)) }
                    })
                shared.decoded.withLock { $0 = stream.pcm }
                decoding = .ffmpeg(stream)
                if shared.state.withLock({ $0.stopped }) { stream.stop() } else { stream.start(container) }
            }
            return decodeSome()
        case .ffmpeg(let stream):
            return pullDecoded(from: stream)
        case .mpeg(let decoder):
            if let next = ring.takeMark(), next != .mpeg {
                fail(AudioError("The station changed its stream from MP3 to \(next.name) on reconnecting."))
                return false
            }
            return decodeMPEG(decoder)
        }
    }

    /// PCM the decoding thread made, a piece at a time; false when none was waiting.
    private func pullDecoded(from stream: FFmpegStream) -> Bool {
        let n = input.withUnsafeMutableBytes { stream.pcm.read(into: $0) }
        guard n > 0 else {
            if stream.pcm.isFinished { finished = true }
            return false
        }
        if pcmStart > 0 {
            pcm.removeFirst(pcmStart)
            pcmStart = 0
        }
        input.withUnsafeBytes { pcm.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<n]).bindMemory(to: Int16.self)) }
        framesDecoded += Int64(n / 4)
        shared.state.withLock { $0.audioArrived = true }
        return true
    }

    private func fail(_ error: AudioError) {
        ownDecodeFailure = error.description
        stop()
    }

    /// Feeds mpg123 one piece of what the network delivered; false when nothing was waiting.
    private func decodeMPEG(_ decoder: MP3Decoder) -> Bool {
        let n = input.withUnsafeMutableBytes { ring.read(into: $0) }
        defer { noteCheckpoint(adding: n) }
        guard n > 0 else {
            // The stream's last frame is held by the decoder until it ends.
            guard ring.isFinished, !finished else { return false }
            finished = true
            try? decoder.finish(output: take)
            return buffered > 0
        }
        if pcmStart > 0 {
            pcm.removeFirst(pcmStart)
            pcmStart = 0
        }
        bytesWithoutAudio += n
        var failure: AudioError?
        input.withUnsafeBytes { raw in
            do throws(AudioError) {
                try decoder.decode(UnsafeRawBufferPointer(rebasing: raw[0..<n]), output: take)
            } catch { failure = error }
        }
        if failure == nil, bytesWithoutAudio > StationFeed.maxBytesWithoutAudio {
            failure = AudioError(
                "The stream is not decodable MP3 (\(StationFeed.maxBytesWithoutAudio / 1024) KiB without a single audio frame).")
        }
        if let failure {
            fail(failure)
            return false
        }
        if !pcm.isEmpty { shared.state.withLock { $0.audioArrived = true } }
        return true
    }

    /// Where the decoder stands after a step that took `n` bytes (episodes only: stations are never resumed).
    private func noteCheckpoint(adding n: Int) {
        guard source.isEpisode else { return }
        bytesDecoded += Int64(n)
        guard checkpoints.last?.frames != framesDecoded else { return }
        checkpoints.append((framesDecoded, bytesDecoded))
        if checkpoints.count > StationFeed.checkpointsKept { checkpoints.removeFirst() }
    }

    /// Decode steps remembered: 16 KiB each, a minute of audio at 256 kbps and more — well past what waits in the
    /// PCM buffer and the device.
    static let checkpointsKept = 64

    /// PCM from the decoder; its format is the forced one.
    private func take(_ output: MP3Decoder.Output) {
        guard case .pcm(let bytes) = output else { return }
        framesDecoded += Int64(bytes.count / 4)
        bytesWithoutAudio = 0
        pcm.append(contentsOf: bytes.bindMemory(to: Int16.self))
    }
}

/// A station's network buffer: what waits in it now, the most that ever waited, and its capacity, the
/// high-water mark at which the transfer pauses (R25).
public struct BufferLevel: Sendable, Equatable {
    public var buffered: Int
    public var peak: Int
    public var capacity: Int
}
