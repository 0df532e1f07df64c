import AubadeCore
import AubadeSystem
import Foundation
import Glibc

/// Output lines that exist only as a trace: for tests of the whole clock on a machine without GPIO (`aubade run
/// --simulate-outputs FILE`; Home Assistant's switch test), where the driver's thread, its waves and everything
/// above them are the real ones and only the pin is not. Every level is appended to the trace as one JSON object a
/// line, written at once, e.g. `{"event":"set","output":"shaker","line":"GPIO16","active":true,"t":1234.56789}`
/// (its keys in any order).
///
/// `event` is `request` (held, inactive), `set` (a level that changed) or `release` (let go, after its inactive
/// level); `t` is `CLOCK_MONOTONIC` in seconds, the clock the waves follow. Any line name is accepted: no chip is
/// looked up. Not Sendable on purpose, like `GPIODOutputSession`.
final class SimulatedOutputSession: OutputLineSession {
    private let path: String
    private var descriptor: Int32 = -1
    private var lines: [(request: GPIOOutputRequest, active: Bool)] = []

    init(trace path: String) {
        self.path = path
    }

    var held: [GPIOOutputRequest] { lines.map(\.request) }

    func isActive(_ index: Int) -> Bool { lines[index].active }

    func request(_ request: GPIOOutputRequest) throws(GPIOError) {
        if descriptor < 0 {
            descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw GPIOError(
                    "Simulated line \(request.name) cannot be driven: \(SystemError.describe("open(\(path))")).")
            }
        }
        lines.append((request, false))
        try record("request", lines.count - 1)
    }

    func set(_ index: Int, active: Bool) throws(GPIOError) {
        lines[index].active = active
        try record("set", index)
    }

    @discardableResult
    func close() -> [GPIOError] {
        var failures: [GPIOError] = []
        for index in lines.indices {
            do throws(GPIOError) {
                if lines[index].active { try set(index, active: false) }
                try record("release", index)
            } catch {
                failures.append(error)
            }
        }
        lines.removeAll()
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
        return failures
    }

    /// One line of the trace.
    private struct Record: Encodable {
        var event: String
        var output: OutputName
        var line: String
        var active: Bool
        var t: Double
    }

    private func record(_ event: String, _ index: Int) throws(GPIOError) {
        let line = lines[index]
        let t = Monotonic.now().components
        let record = Record(
            event: event, output: line.request.output, line: "\(line.request.address)", active: line.active,
            t: Double(t.seconds) + Double(t.attoseconds) / 1e18)
        guard var bytes = try? JSONEncoder().encode(record) else {
            throw GPIOError("Simulated line \(line.request.name) cannot be set: its record could not be encoded.")
        }
        bytes.append(UInt8(ascii: "\n"))
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw GPIOError("Simulated line \(line.request.name) cannot be set: \(SystemError.describe("write(\(path))")).")
        }
    }
}
