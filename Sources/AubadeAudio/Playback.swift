import Foundation
import Synchronization

/// A running playback on its own thread. `stop()` may be called from anywhere; `events` ends after
/// `.stopped`. Dropping the handle does not stop the playback.
public final class Playback: Sendable {
    public let events: AsyncStream<PlayerEvent>
    let continuation: AsyncStream<PlayerEvent>.Continuation
    private let stopRequested = Atomic<Bool>(false)
    private let volumeRequest = Atomic<Int>(-1)
    private let finished = DispatchSemaphore(value: 0)
    private let ring = Mutex<ByteRing?>(nil)
    private let ended = Mutex(false)

    init() {
        (events, continuation) = AsyncStream.makeStream(of: PlayerEvent.self, bufferingPolicy: .unbounded)
    }

    /// Asks the playback to stop; it stops within about 100 ms.
    public func stop() {
        stopRequested.store(true, ordering: .relaxed)
    }

    public var isStopRequested: Bool { stopRequested.load(ordering: .relaxed) }

    /// Moves the volume (0–100) to `volume` with a short ramp (no click), e.g. the sleep timer's fade-out.
    public func setVolume(_ volume: Int) {
        volumeRequest.store(max(0, min(volume, 100)), ordering: .relaxed)
    }

    /// The volume asked for since the last call, if any (read by the playback's thread).
    func takeVolumeRequest() -> Int? {
        let v = volumeRequest.exchange(-1, ordering: .relaxed)
        return v < 0 ? nil : v
    }

    /// A stream playback's network buffer (nil for a tone): what waits in it now, the most that ever waited,
    /// and its capacity, the high-water mark at which the transfer pauses (R25).
    public var bufferLevel: BufferLevel? {
        ring.withLock { ring in
            ring.map { BufferLevel(buffered: $0.buffered, peak: $0.peakBuffered, capacity: $0.capacity) }
        }
    }

    func attach(_ buffer: ByteRing) {
        ring.withLock { $0 = buffer }
    }

    /// Emits `event`, unless the playback has already ended: the network thread may still be winding down
    /// after `.stopped`, and nothing may follow `.stopped`.
    func emit(_ event: PlayerEvent) {
        ended.withLock { ended in
            if !ended { continuation.yield(event) }
        }
    }

    private func end(_ reason: StopReason) {
        ended.withLock { ended in
            continuation.yield(.stopped(reason: reason))
            ended = true
            continuation.finish()
        }
    }

    /// Runs `body` on a new thread; `body` returns the stop reason. Always ends with `.stopped`.
    static func start(name: String, _ body: @escaping @Sendable (Playback) -> StopReason) -> Playback {
        let playback = Playback()
        let thread = Thread {
            playback.end(body(playback))
            playback.finished.signal()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
        return playback
    }

    /// Blocks the calling thread until the playback has ended (for tests and the CLI's exit path).
    public func waitUntilFinished() {
        finished.wait()
        finished.signal()
    }
}

public struct BufferLevel: Sendable, Equatable {
    public var buffered: Int
    public var peak: Int
    public var capacity: Int
}

/// Where and how to play: the ALSA device names and whether to pace unpaced plugins to real time.
public struct SinkOptions: Sendable {
    public var device: String
    public var alternate: String?
    public var paced: Bool

    public init(device: String, alternate: String? = nil, paced: Bool = true) {
        self.device = device
        self.alternate = alternate
        self.paced = paced
    }
}
