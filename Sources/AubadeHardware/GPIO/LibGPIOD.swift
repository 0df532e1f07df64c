import AubadeSystemAsync
import CGPIOD
import Foundation

/// The real GPIO port: libgpiod v1 (Debian bookworm's 1.6) on /dev/gpiochipN. The only owner of gpiod
/// calls besides `GPIOLibrary`; see `GPIOPort` for the contract. Trixie's libgpiod 2 is a different API:
/// only this file, `GPIODSession` and `GPIODLookup` would change.
public struct LibGPIOD: GPIOPort {
    /// The name the kernel shows as the lines' holder (`gpioinfo`).
    public let consumer: String
    public let waitTimeout: Duration
    let devDirectory: String

    public init(consumer: String = "aubade", waitTimeout: Duration = .milliseconds(200)) {
        self.init(consumer: consumer, waitTimeout: waitTimeout, devDirectory: "/dev")
    }

    init(consumer: String, waitTimeout: Duration, devDirectory: String) {
        self.consumer = consumer
        self.waitTimeout = waitTimeout
        self.devDirectory = devDirectory
    }

    public func chips() -> [GPIOChipInfo] {
        GPIOLibrary.chipNames(devDirectory: devDirectory).map { name in
            switch GPIODLookup.openChip(name) {
            case .failure(let error):
                return GPIOChipInfo(name: name, label: "", lineCount: 0, problem: error.message)
            case .success(let chip):
                defer { gpiod_chip_close(chip) }
                return GPIOChipInfo(
                    name: name, label: GPIODLookup.string(gpiod_chip_label(chip)) ?? "",
                    lineCount: Int(gpiod_chip_num_lines(chip)))
            }
        }
    }

    public func status(of address: GPIOLineAddress) -> GPIOLineStatus {
        let located = GPIODLookup.locate(address, devDirectory: devDirectory)
        guard case .success(let (chipName, offset)) = located else {
            if case .failure(let e) = located { return .missing(reason: e.message) }
            return .missing(reason: "unknown")
        }
        switch GPIODLookup.openChip(chipName) {
        case .failure(let e):
            return .missing(reason: e.message)
        case .success(let chip):
            defer { gpiod_chip_close(chip) }
            switch GPIODLookup.line(chip, name: chipName, offset: offset) {
            case .failure(let e):
                return .missing(reason: e.message)
            case .success(let line):
                let holder = gpiod_line_is_used(line) ? GPIODLookup.string(gpiod_line_consumer(line)) ?? "the kernel" : nil
                return .found(chip: chipName, offset: offset, consumer: holder)
            }
        }
    }

    public func watch(_ lines: [GPIOLineRequest]) async throws(GPIOError) -> GPIOWatchStart {
        guard !lines.isEmpty else { throw GPIOError("No GPIO line is configured.") }
        // One sentence for a machine without GPIO (a laptop, a VM), not one per button.
        if GPIOLibrary.chipNames(devDirectory: devDirectory).isEmpty {
            let names = lines.map { "\($0.address) (\($0.label))" }.joined(separator: ", ")
            throw GPIOError("this machine has no GPIO chip, so \(names) cannot be requested")
        }
        let (events, continuation) = AsyncStream<GPIOLineEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let stopFlag = StopFlag()
        continuation.onTermination = { _ in stopFlag.set() }
        let watch = LibGPIODWatch(events: events, stopFlag: stopFlag)
        let loop = GPIODWatchLoop(
            lines: lines, consumer: consumer, waitTimeout: waitTimeout, stopFlag: stopFlag,
            continuation: continuation, onFailure: { [watch] error in watch.record(error) })
        // The watch thread reports how requesting the lines went, then waits for their edges.
        let outcome: Result<[Int: GPIOError], GPIOError>? = await startThread("aubade-gpio") { report in
            loop.run(ready: report)
        }
        guard let outcome else { throw GPIOError("no thread could be started to watch the GPIO lines") }
        return GPIOWatchStart(watch: watch, failures: try outcome.get())
    }
}
