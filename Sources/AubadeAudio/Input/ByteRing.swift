import AubadeSystem

/// A bounded byte buffer between the network thread (writer) and the audio thread (reader).
///
/// `write` blocks while the buffer is full, which stops curl from reading the socket: a server sending
/// faster than real time is held back by TCP, and memory stays at `capacity` (R25). `close` wakes both
/// sides. Reading never waits; a reader with nothing else to do waits for data (`waitForData`), on the
/// monotonic clock, until bytes arrive, the ring closes or it is woken (`wake`). Thread-safe.
///
/// The writer marks where each stream it writes begins (`begin`: a connection, a run of HLS segments) and what
/// container its bytes are; a read never crosses a mark, and the reader takes the mark (`takeMark`) to learn the
/// container and that a new stream starts, so a demuxer can be started afresh there.
final class ByteRing: @unchecked Sendable {
    // @unchecked: every stored var below is read and written only while `condition` is locked.
    private let condition = MonotonicCondition()
    private var storage: [UInt8]
    private var head = 0
    private var count = 0
    private var closed = false
    private var woken = false
    private var peak = 0
    private var total = 0
    /// Bytes ever read.
    private var totalRead = 0
    /// Where each stream begins (a count of bytes written) and its container, oldest first.
    private var marks: [(at: Int, container: AudioContainer)] = []
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        storage = [UInt8](repeating: 0, count: capacity)
    }

    /// Appends all of `bytes`, blocking while full. Returns false when the ring was closed.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        condition.locked {
            var offset = 0
            while offset < bytes.count {
                condition.wait(while: { count == capacity && !closed }, atMost: nil)
                if closed { return false }
                let tail = (head + count) % capacity
                let n = min(bytes.count - offset, capacity - count, capacity - tail)
                storage.withUnsafeMutableBytes { dst in
                    dst.baseAddress!.advanced(by: tail).copyMemory(
                        from: bytes.baseAddress!.advanced(by: offset), byteCount: n)
                }
                count += n
                offset += n
                peak = max(peak, count)
                total += n
                condition.broadcast()
            }
            return true
        }
    }

    /// The bytes written from now on are a new stream in `container`.
    func begin(_ container: AudioContainer) {
        condition.locked {
            if let last = marks.last, last.at == total {
                marks[marks.count - 1].container = container  // an earlier stream that wrote nothing
            } else {
                marks.append((total, container))
            }
            condition.broadcast()
        }
    }

    /// When the next byte to read begins a stream: its container, and the mark is taken. Else nil.
    func takeMark() -> AudioContainer? {
        condition.locked {
            guard let first = marks.first, first.at == totalRead else { return nil }
            marks.removeFirst()
            return first.container
        }
    }

    /// Whether the next byte to read begins a stream whose mark was not taken yet.
    var atMark: Bool { condition.locked { marks.first?.at == totalRead } }

    /// Copies up to `into.count` bytes out, never waiting and never past the next mark. Returns 0 when nothing is
    /// there (check `isFinished`) or the next byte begins a stream (check `takeMark`).
    func read(into: UnsafeMutableRawBufferPointer) -> Int {
        condition.locked {
            var n = min(into.count, count, capacity - head)
            if let mark = marks.first { n = min(n, mark.at - totalRead) }
            guard n > 0 else { return 0 }
            storage.withUnsafeBytes { src in
                into.baseAddress!.copyMemory(from: src.baseAddress!.advanced(by: head), byteCount: n)
            }
            head = (head + n) % capacity
            count -= n
            totalRead += n
            condition.broadcast()
            return n
        }
    }

    /// Waits up to `wait` until bytes are there, the ring is closed, or `wake` was called since the last wait.
    /// True when bytes are there.
    @discardableResult
    func waitForData(atMost wait: Duration) -> Bool {
        condition.locked {
            condition.wait(while: { count == 0 && !closed && !woken }, atMost: wait)
            woken = false
            return count > 0
        }
    }

    /// Ends a reader's `waitForData` early (the writer's side has news: a failure).
    func wake() {
        condition.locked {
            woken = true
            condition.broadcast()
        }
    }

    /// No more writes; readers drain what is left.
    func close() {
        condition.locked {
            closed = true
            condition.broadcast()
        }
    }

    var isFinished: Bool { condition.locked { closed && count == 0 } }

    /// Whether `close` was called (bytes may still wait).
    var isClosed: Bool { condition.locked { closed } }

    /// Bytes waiting to be read.
    var buffered: Int { condition.locked { count } }

    /// All the bytes ever written.
    var totalWritten: Int { condition.locked { total } }

    /// The most bytes ever waiting at once (never above `capacity`).
    var peakBuffered: Int { condition.locked { peak } }
}
