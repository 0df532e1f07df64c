import CGPIOD
import Glibc

/// The lines the outputs' driver thread holds: libgpiod's (`GPIODOutputSession`) or a simulation's
/// (`SimulatedOutputSession`). Not Sendable on purpose: created, used and closed on one thread. Every level is
/// logical: active (true) or inactive.
protocol OutputLineSession: AnyObject {
    /// The requests of the lines held, in the order they were had.
    var held: [GPIOOutputRequest] { get }
    /// The level last set on held line `index`.
    func isActive(_ index: Int) -> Bool
    /// Holds `request`'s line, inactive; the error is a sentence naming the line and the reason.
    func request(_ request: GPIOOutputRequest) throws(GPIOError)
    /// Sets held line `index` to `active`; the error is a sentence naming the line.
    func set(_ index: Int, active: Bool) throws(GPIOError)
    /// Drives every held line inactive and lets it go; the sentences of the lines that could not be set.
    @discardableResult func close() -> [GPIOError]
}

/// The chip and line handles of the outputs, requested as outputs through libgpiod v1. Not Sendable on purpose:
/// created, used and closed on one thread (the driver's, or a CLI command's), so no C handle crosses threads.
/// Every level here is logical: active (true) or inactive; the kernel applies active-low.
final class GPIODOutputSession: OutputLineSession {
    struct Line {
        let request: GPIOOutputRequest
        let handle: OpaquePointer
        /// The level last set.
        var active: Bool
    }

    private let consumer: String
    private let devDirectory: String
    private var chips: [String: OpaquePointer] = [:]
    private(set) var lines: [Line] = []

    var held: [GPIOOutputRequest] { lines.map(\.request) }

    func isActive(_ index: Int) -> Bool { lines[index].active }

    init(consumer: String, devDirectory: String = "/dev") {
        self.consumer = consumer
        self.devDirectory = devDirectory
    }

    /// Requests `request` as an output whose first level is inactive; the error is a full sentence naming the
    /// line, the call and the system's reason (and the holder of a line in use).
    func request(_ request: GPIOOutputRequest) throws(GPIOError) {
        func fail(_ e: GPIOError) -> GPIOError {
            GPIOError("GPIO line \(request.name) cannot be driven: \(e.message).")
        }
        if GPIOLibrary.chipNames(devDirectory: devDirectory).isEmpty {
            throw GPIOError("GPIO line \(request.name) cannot be driven: this machine has no GPIO chip.")
        }
        let (chipName, offset) = try GPIODLookup.locate(request.address, devDirectory: devDirectory).mapError(fail).get()
        let chip = try chipHandle(chipName).mapError(fail).get()
        let line = try GPIODLookup.line(chip, name: chipName, offset: offset).mapError(fail).get()
        let flags = request.activeLow ? Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) : 0
        if gpiod_line_request_output_flags(line, consumer, flags, 0) != 0 {
            let code = errno
            let holder =
                gpiod_line_is_used(line) ? GPIODLookup.string(gpiod_line_consumer(line)).map { " (in use by \($0))" } ?? "" : ""
            throw fail(
                GPIOError(SystemError.describe("gpiod_line_request_output_flags(\(chipName) \(offset))", errno: code) + holder))
        }
        lines.append(Line(request: request, handle: line, active: false))
    }

    /// Sets line `index` to `active`; the error is a sentence naming the line.
    func set(_ index: Int, active: Bool) throws(GPIOError) {
        guard gpiod_line_set_value(lines[index].handle, active ? 1 : 0) == 0 else {
            throw GPIOError(
                "GPIO line \(lines[index].request.name) cannot be set: \(SystemError.describe("gpiod_line_set_value")).")
        }
        lines[index].active = active
    }

    /// Drives every line inactive, then releases every line and closes every chip. The sentences of the lines
    /// that could not be set (each is still released).
    @discardableResult
    func close() -> [GPIOError] {
        var failures: [GPIOError] = []
        for index in lines.indices {
            do throws(GPIOError) {
                try set(index, active: false)
            } catch {
                failures.append(error)
            }
            gpiod_line_release(lines[index].handle)
        }
        lines.removeAll()
        for chip in chips.values { gpiod_chip_close(chip) }
        chips.removeAll()
        return failures
    }

    private func chipHandle(_ name: String) -> Result<OpaquePointer, GPIOError> {
        if let chip = chips[name] { return .success(chip) }
        return GPIODLookup.openChip(name).map { chip in
            chips[name] = chip
            return chip
        }
    }
}
