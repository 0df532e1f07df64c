import AubadeCore
import Glibc

/// One open input device (or file of events) and its decoder. Lives on one thread; blocking.
final class EvdevReader {
    struct Batch {
        var readings: [AccelerationReading] = []
        /// A plain file has been read to its end.
        var ended = false
        /// The device failed (the failure is the last reading); reopen it.
        var failed = false
    }

    private let path: String
    private var fd: Int32 = -1
    private var decoder: EvdevDecoder
    private var pending: [UInt8] = []
    private var isDevice = false
    private(set) var reachedEnd = false

    init(path: String, countsPerG: Double?) {
        self.path = path
        decoder = EvdevDecoder(countsPerG: countsPerG)
    }

    /// Opens the device; a failed reading when it cannot.
    func open() -> AccelerationReading? {
        fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            return .failed(time: MonotonicClock.now(), reason: "\(path) cannot be opened: \(SystemError.message(errno))")
        }
        isDevice = EvdevIoctl.useMonotonicClock(fd: fd)
        let info = [InputEvent.absX, InputEvent.absY, InputEvent.absZ].map { EvdevIoctl.absInfo(fd: fd, axis: $0) }
        if info.allSatisfy({ $0 != nil }) {
            decoder = EvdevDecoder(countsPerG: decoderScale(resolution: info[0]?.resolution))
            decoder.axes = info.map { $0?.value }
        }
        return nil
    }

    /// A reading of the axes' current values (EVIOCGABS), when the device and its scale are known.
    func currentState() -> AccelerationReading? {
        guard isDevice, decoder.countsPerG != nil, decoder.axes.allSatisfy({ $0 != nil }) else { return nil }
        var copy = decoder
        return copy.feed(InputEvent(time: MonotonicClock.now(), type: InputEvent.typeSyn, code: InputEvent.synReport, value: 0))
    }

    /// Waits up to `timeout` for events and decodes what arrived.
    func next(waitingAtMost timeout: Duration) -> Batch {
        var batch = Batch()
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let n = poll(&pfd, 1, Int32(max(.zero, timeout) / .milliseconds(1)))
        if n < 0 {
            if errno != EINTR { return failure("poll", &batch) }
            return batch
        }
        if n == 0 { return batch }
        var buffer = [UInt8](repeating: 0, count: 64 * InputEvent.size)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EAGAIN || errno == EINTR { return batch }
            return failure("read", &batch)
        }
        if count == 0 {
            reachedEnd = true
            batch.ended = true
            return batch
        }
        pending += buffer[0..<count]
        let whole = pending.count / InputEvent.size * InputEvent.size
        let events = pending.withUnsafeBytes { InputEvent.decode(UnsafeRawBufferPointer(rebasing: $0[0..<whole])) }
        pending.removeFirst(whole)
        batch.readings = events.compactMap { decoder.feed($0) }
        return batch
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    private func decoderScale(resolution: Int32?) -> Double? {
        if let known = decoder.countsPerG { return known }
        return resolution.flatMap { $0 > 0 ? Double($0) : nil }
    }

    private func failure(_ call: String, _ batch: inout Batch) -> Batch {
        batch.readings.append(.failed(time: MonotonicClock.now(), reason: "\(path): \(SystemError.describe(call))"))
        batch.failed = true
        return batch
    }
}
