import CGPIOD
import Glibc

/// The chip and line handles of one watch. Not Sendable on purpose: it is created, used and closed on the
/// watch's dedicated thread, so no C handle ever crosses threads.
final class GPIODSession {
    struct Line {
        let index: Int
        let handle: OpaquePointer
        let fd: Int32
        let name: String
    }

    private let consumer: String
    private var chips: [String: OpaquePointer] = [:]
    private(set) var lines: [Line] = []

    init(consumer: String) {
        self.consumer = consumer
    }

    /// Requests `request` as an input with both-edge events; the error is a full sentence.
    func request(_ request: GPIOLineRequest, index: Int) throws(GPIOError) {
        func fail(_ e: GPIOError) -> GPIOError { GPIOError("GPIO line \(request.name) is not available: \(e.message).") }
        let (chipName, offset) = try GPIODLookup.locate(request.address).mapError(fail).get()
        let chip = try chipHandle(chipName).mapError(fail).get()
        let line = try GPIODLookup.line(chip, name: chipName, offset: offset).mapError(fail).get()
        if gpiod_line_request_both_edges_events_flags(line, consumer, GPIODSession.flags(request)) != 0 {
            let code = errno
            let holder =
                gpiod_line_is_used(line) ? GPIODLookup.string(gpiod_line_consumer(line)).map { " (in use by \($0))" } ?? "" : ""
            throw fail(
                GPIOError(
                    SystemError.describe("gpiod_line_request_both_edges_events_flags(\(chipName) \(offset))", errno: code)
                        + holder))
        }
        let fd = gpiod_line_event_get_fd(line)
        guard fd >= 0 else {
            let e = GPIOError(SystemError.describe("gpiod_line_event_get_fd(\(chipName) \(offset))"))
            gpiod_line_release(line)
            throw fail(e)
        }
        lines.append(Line(index: index, handle: line, fd: fd, name: request.name))
    }

    /// The line's logical level now (active-low applied).
    func value(_ line: Line) throws(GPIOError) -> Bool {
        let v = gpiod_line_get_value(line.handle)
        guard v >= 0 else {
            throw GPIOError("GPIO line \(line.name) cannot be read: \(SystemError.describe("gpiod_line_get_value")).")
        }
        return v == 1
    }

    /// Reads one pending event (call after poll() said the fd is readable).
    func readEvent(_ line: Line) throws(GPIOError) -> GPIOLineEvent {
        var event = gpiod_line_event()
        guard gpiod_line_event_read(line.handle, &event) == 0 else {
            throw GPIOError("GPIO line \(line.name) stopped: \(SystemError.describe("gpiod_line_event_read")).")
        }
        return GPIOLineEvent(
            index: line.index, active: event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE),
            time: MonotonicClock.duration(event.ts))
    }

    /// Releases every line and closes every chip.
    func close() {
        for line in lines { gpiod_line_release(line.handle) }
        lines.removeAll()
        for chip in chips.values { gpiod_chip_close(chip) }
        chips.removeAll()
    }

    private func chipHandle(_ name: String) -> Result<OpaquePointer, GPIOError> {
        if let chip = chips[name] { return .success(chip) }
        return GPIODLookup.openChip(name).map { chip in
            chips[name] = chip
            return chip
        }
    }

    static func flags(_ request: GPIOLineRequest) -> Int32 {
        var flags: Int32 = request.activeLow ? Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) : 0
        switch request.bias {
        case .asIs: break
        case .disable: flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE)
        case .pullUp: flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
        case .pullDown: flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
        }
        return flags
    }
}
