import Foundation

/// A bounded byte buffer between the network thread (writer) and the audio thread (reader).
///
/// `write` blocks while the buffer is full, which stops curl from reading the socket: a server sending
/// faster than real time is held back by TCP, and memory stays at `capacity` (R25). `close` wakes both
/// sides. Thread-safe.
final class ByteRing: @unchecked Sendable {
    // @unchecked: every stored var below is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var storage: [UInt8]
    private var head = 0
    private var count = 0
    private var closed = false
    private var peak = 0
    private var total = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        storage = [UInt8](repeating: 0, count: capacity)
    }

    /// Appends all of `bytes`, blocking while full. Returns false when the ring was closed.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        condition.lock()
        defer { condition.unlock() }
        while offset < bytes.count {
            while count == capacity && !closed { condition.wait() }
            if closed { return false }
            let tail = (head + count) % capacity
            let n = min(bytes.count - offset, capacity - count, capacity - tail)
            storage.withUnsafeMutableBytes { dst in
                dst.baseAddress!.advanced(by: tail).copyMemory(from: bytes.baseAddress!.advanced(by: offset), byteCount: n)
            }
            count += n
            offset += n
            peak = max(peak, count)
            total += n
            condition.broadcast()
        }
        return true
    }

    /// Copies up to `into.count` bytes out; waits up to `timeout` for data. Returns 0 on timeout or when
    /// closed and empty (check `isFinished`).
    func read(into: UnsafeMutableRawBufferPointer, timeout: TimeInterval) -> Int {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while count == 0 && !closed {
            if !condition.wait(until: deadline) { return 0 }
        }
        let n = min(into.count, count, capacity - head)
        guard n > 0 else { return 0 }
        storage.withUnsafeBytes { src in
            into.baseAddress!.copyMemory(from: src.baseAddress!.advanced(by: head), byteCount: n)
        }
        head = (head + n) % capacity
        count -= n
        condition.broadcast()
        return n
    }

    /// No more writes; readers drain what is left.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed && count == 0
    }

    /// Bytes waiting to be read.
    var buffered: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// All the bytes ever written.
    var totalWritten: Int {
        condition.lock()
        defer { condition.unlock() }
        return total
    }

    /// The most bytes ever waiting at once (never above `capacity`).
    var peakBuffered: Int {
        condition.lock()
        defer { condition.unlock() }
        return peak
    }
}
