public import AubadeCore
import Synchronization

/// What the sound engine actually wrote to the card, chunk by chunk, for the room check: each chunk's level (RMS
/// of the samples written, after every gain), its built-in tone's frequencies if it was the tone, where it sits in
/// the device's stream and when its first frame is heard. Published by the audio thread after each write — into a
/// fixed ring, under a lock held for a copy of one small value: no allocation, no wait on a reader — and read by
/// whoever listens (`RoomCheck`), who keeps its own place by sequence number.
///
/// A write is published in pieces of at most `pieceFrames` (23 ms at 44.1 kHz), finer than the room check's 25 ms
/// blocks: a tone's beeps and the gaps between them are told apart, as the decision expects.
///
/// Contract: thread-safe. Holds the last `capacity` chunks (about 47 s of audio at 44.1 kHz); a reader that falls
/// further behind loses the oldest and is told so by the sequence numbers.
public final class PlaybackTap: Sendable {
    public struct Chunk: Sendable, Equatable {
        /// Counts every chunk published, from 1.
        public var sequence: Int64
        /// The chunk's first frame in the device's stream (frames written since the device opened).
        public var position: Int64
        public var frames: Int
        public var rate: Int
        /// When its first frame is heard (`CLOCK_MONOTONIC`), from the device's reading; when the device cannot say
        /// (an unpaced plugin), when it was written.
        public var heardAt: Duration
        /// Whether that reading was of a running device. False while the device waits to start (its buffer filling,
        /// or after an underrun stopped it): the chunk is heard once it starts, later than `heardAt` says.
        public var running: Bool
        public var block: PlayedBlock
    }

    public static let capacity = 2048
    public static let pieceFrames = 1024

    private struct Ring {
        var chunks: [Chunk]
        var published: Int64 = 0
    }

    private let ring: Mutex<Ring>

    public init() {
        let empty = Chunk(sequence: 0, position: 0, frames: 0, rate: 1, heardAt: .zero, running: true, block: .silence)
        ring = Mutex(Ring(chunks: Array(repeating: empty, count: PlaybackTap.capacity)))
    }

    /// The audio thread's side: one chunk written.
    func publish(position: Int64, frames: Int, rate: Int, heardAt: Duration, running: Bool, block: PlayedBlock) {
        ring.withLock { r in
            r.published += 1
            r.chunks[Int(r.published % Int64(PlaybackTap.capacity))] = Chunk(
                sequence: r.published, position: position, frames: frames, rate: rate, heardAt: heardAt, running: running,
                block: block)
        }
    }

    /// The sequence number of the newest chunk (0: none yet): a reader starts after it.
    public var newest: Int64 { ring.withLock { $0.published } }

    /// The chunks published after `sequence`, oldest first (those still held).
    public func chunks(after sequence: Int64) -> [Chunk] {
        ring.withLock { r in
            let first = max(sequence + 1, r.published - Int64(PlaybackTap.capacity) + 1, 1)
            guard first <= r.published else { return [] }
            return (first...r.published).map { r.chunks[Int($0 % Int64(PlaybackTap.capacity))] }
        }
    }

    /// The RMS of interleaved 16-bit samples, 0…1 of full scale.
    static func rms(_ samples: UnsafeBufferPointer<Int16>) -> Float {
        guard !samples.isEmpty else { return 0 }
        var sum: Int64 = 0
        for s in samples { sum += Int64(s) * Int64(s) }
        return Float((Double(sum) / Double(samples.count)).squareRoot() / 32768)
    }
}
