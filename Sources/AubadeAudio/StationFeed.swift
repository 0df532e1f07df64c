import AubadeCore
import Foundation
import Logging
import Synchronization

/// One station address being fetched for an alarm: `StreamFetcher` on its network thread fills a bounded
/// byte ring; the alarm's audio thread pulls decoded 44.1 kHz stereo PCM from here without ever blocking, so
/// the tone keeps playing while the station connects, stalls or fails.
///
/// Contract: not Sendable — create, pull from and stop it on the alarm's audio thread. Memory is bounded by
/// the byte ring (R25) plus at most one decode step of PCM.
final class StationFeed {
    let index: Int
    let url: StreamURL
    private let ring: ByteRing
    private let playback = Playback()
    private let decoder: MP3Decoder?
    private let status = Shared()
    private var pcm: [Int16] = []
    private var pcmStart = 0
    private var input = [UInt8](repeating: 0, count: 8 * 1024)
    private var bytesWithoutAudio = 0
    private var decodeFailure: String?
    private var forwarder: Task<Void, Never>?

    struct Status {
        var failure: String?
        var audioArrived = false
    }

    /// What the network side reports, shared with its thread and the event forwarder.
    final class Shared: Sendable {
        private let state = Mutex(Status())
        func withLock<T>(_ body: (inout Status) -> T) -> T { state.withLock { body(&$0) } }
    }

    /// Starts fetching `url`; titles and stream errors are handed to `onEvent` as they happen.
    init(index: Int, url: StreamURL, rate: Int, allowLoopback: Bool, onEvent: @escaping @Sendable (PlayerEvent) -> Void) {
        self.index = index
        self.url = url
        ring = ByteRing(capacity: 256 * 1024)
        var failure: String?
        do throws(AudioError) { decoder = try MP3Decoder(outputRate: rate) } catch {
            decoder = nil
            failure = error.description
        }
        decodeFailure = failure
        var options = CurlTransfer.Options()
        options.policy = AddressPolicy(allowLoopback: allowLoopback)
        let status = self.status
        let fetcher = StreamFetcher(url: url, options: options, ring: ring, playback: playback,
                                    audioStarted: { status.withLock { $0.audioArrived } })
        let network = Thread { fetcher.run() }
        network.name = "aubade.alarm-net"
        network.start()
        let events = playback.events
        forwarder = Task.detached {
            for await event in events {
                if case .error(let reason, _) = event { status.withLock { $0.failure = reason } }
                onEvent(event)
            }
        }
    }

    /// Stops the network thread; buffered audio is dropped.
    func stop() {
        playback.stop()
        ring.close()
        playback.continuation.finish()
    }

    deinit { stop() }

    /// The failure reported since the last call (a stream error, or audio that does not decode), if any.
    func takeFailure() -> String? {
        if let decodeFailure {
            return decodeFailure
        }
        let reported = status.withLock { s -> String? in
            defer { s.failure = nil }
            return s.failure
        }
        if let reported { return reported }
        if ring.isFinished && pcm.count - pcmStart == 0 {
            return "The station's stream ended."
        }
        return nil
    }

    /// True once the network side has given up for good (it closed the ring and everything was played).
    var hasEnded: Bool { decodeFailure != nil || (ring.isFinished && pcm.count - pcmStart == 0) }

    /// Copies up to `frames` stereo frames into `out` (interleaved), decoding what has arrived; never waits.
    /// Returns how many frames were copied.
    func pull(frames: Int, into out: UnsafeMutableBufferPointer<Int16>) -> Int {
        let wanted = frames * 2
        while pcm.count - pcmStart < wanted, decodeFailure == nil, decodeSome() {}
        let n = min(wanted, pcm.count - pcmStart)
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

    /// Decodes one piece of what the network delivered; false when nothing was waiting.
    private func decodeSome() -> Bool {
        guard let decoder else { return false }
        let n = input.withUnsafeMutableBytes { ring.read(into: $0, timeout: 0) }
        guard n > 0 else { return false }
        if pcmStart > 0 {
            pcm.removeFirst(pcmStart)
            pcmStart = 0
        }
        bytesWithoutAudio += n
        var failure: AudioError?
        input.withUnsafeBytes { raw in
            do throws(AudioError) {
                try decoder.decode(UnsafeRawBufferPointer(rebasing: raw[0..<n])) { output in
                    if case .pcm(let bytes) = output {
                        bytesWithoutAudio = 0
                        pcm.append(contentsOf: bytes.bindMemory(to: Int16.self))
                    }
                }
            } catch { failure = error }
        }
        if failure == nil, bytesWithoutAudio > StreamPlayer.maxBytesWithoutAudio {
            failure = AudioError("The stream is not decodable MP3 (\(StreamPlayer.maxBytesWithoutAudio / 1024) KiB without a single audio frame).")
        }
        if let failure {
            decodeFailure = failure.description
            stop()
            return false
        }
        if !pcm.isEmpty { status.withLock { $0.audioArrived = true } }
        return true
    }
}
