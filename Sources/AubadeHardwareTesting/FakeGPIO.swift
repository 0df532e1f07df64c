public import AubadeHardware
import Synchronization

/// A scripted GPIO port for tests (like periph.io's `gpiotest`): a fixed set of chips and lines; `watch`
/// behaves as `LibGPIOD` does (unknown or held lines are left out with a sentence, none at all throws,
/// initial levels first), and the test then drives edges with `emit`.
public final class FakeGPIO: GPIOPort {
    public struct Line: Hashable, Sendable {
        public var chip: String
        public var offset: Int
        public var name: String
        /// The holder's name when another program holds the line.
        public var consumer: String?
        /// The logical level reported when the line is requested.
        public var level: Bool

        public init(chip: String = "gpiochip0", offset: Int, name: String, consumer: String? = nil, level: Bool = false) {
            self.chip = chip
            self.offset = offset
            self.name = name
            self.consumer = consumer
            self.level = level
        }
    }

    private struct State {
        var watches: [(requests: [GPIOLineRequest], watch: FakeGPIOWatch)] = []
    }

    public let chipList: [GPIOChipInfo]
    public let lines: [Line]
    /// The time stamped on the initial-level events.
    public let initialTime: Duration
    private let state = Mutex(State())

    public init(
        chips: [GPIOChipInfo] = [GPIOChipInfo(name: "gpiochip0", label: "fake", lineCount: 54)],
        lines: [Line], initialTime: Duration = .zero
    ) {
        chipList = chips
        self.lines = lines
        self.initialTime = initialTime
    }

    public func chips() -> [GPIOChipInfo] { chipList }

    public func status(of address: GPIOLineAddress) -> GPIOLineStatus {
        switch find(address) {
        case .success(let line): .found(chip: line.chip, offset: line.offset, consumer: line.consumer)
        case .failure(let e): .missing(reason: e.message)
        }
    }

    public func watch(_ requests: [GPIOLineRequest]) async throws(GPIOError) -> GPIOWatchStart {
        var failures: [Int: GPIOError] = [:]
        var found: [(Int, Line)] = []
        for (index, request) in requests.enumerated() {
            switch find(request.address) {
            case .failure(let e):
                failures[index] = GPIOError("GPIO line \(request.name) is not available: \(e.message).")
            case .success(let line) where line.consumer != nil:
                failures[index] = GPIOError(
                    "GPIO line \(request.name) is not available: request failed: Device or resource busy (in use by \(line.consumer ?? ""))."
                )
            case .success(let line):
                found.append((index, line))
            }
        }
        guard !found.isEmpty else {
            throw GPIOError(requests.indices.compactMap { failures[$0]?.message }.joined(separator: " "))
        }
        let watch = FakeGPIOWatch()
        for (index, line) in found {
            watch.emit(GPIOLineEvent(index: index, active: line.level, time: initialTime, isInitial: true))
        }
        state.withLock { $0.watches.append((requests, watch)) }
        return GPIOWatchStart(watch: watch, failures: failures)
    }

    /// Sends an edge on the line labelled `label` of the newest watch that requested it. False if none did.
    @discardableResult
    public func emit(label: String, active: Bool, at time: Duration) -> Bool {
        let target = state.withLock { s in
            s.watches.reversed().lazy.compactMap { w in
                w.requests.firstIndex { $0.label == label }.map { (w.watch, $0) }
            }.first
        }
        guard let (watch, index) = target else { return false }
        watch.emit(GPIOLineEvent(index: index, active: active, time: time))
        return true
    }

    /// Every watch started so far, oldest first.
    public var watches: [FakeGPIOWatch] { state.withLock { $0.watches.map(\.watch) } }

    private func find(_ address: GPIOLineAddress) -> Result<Line, GPIOError> {
        switch address {
        case .named(let name):
            if let line = lines.first(where: { $0.name == name }) { return .success(line) }
            return .failure(GPIOError("no line named \(name) (fake GPIO)"))
        case .chipOffset(let chip, let offset):
            guard chipList.contains(where: { $0.name == chip }) else {
                return .failure(GPIOError("gpiod_chip_open_lookup(\(chip)) failed: No such file or directory"))
            }
            if let line = lines.first(where: { $0.chip == chip && $0.offset == offset }) { return .success(line) }
            return .failure(GPIOError("\(chip) has no line \(offset) (fake GPIO)"))
        }
    }
}

/// A watch of `FakeGPIO`: events come from `emit`; `stop()` ends them as the real thread would.
public final class FakeGPIOWatch: GPIOWatch {
    public let events: AsyncStream<GPIOLineEvent>
    private let continuation: AsyncStream<GPIOLineEvent>.Continuation
    private let state = Mutex<(stopped: Bool, failure: GPIOError?)>((false, nil))

    init() {
        (events, continuation) = AsyncStream<GPIOLineEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    public var isStopped: Bool { state.withLock { $0.stopped } }
    public var failure: GPIOError? { state.withLock { $0.failure } }

    public func emit(_ event: GPIOLineEvent) {
        continuation.yield(event)
    }

    /// Ends the events as a failing device would.
    public func fail(_ error: GPIOError) {
        state.withLock { $0.failure = error }
        continuation.finish()
    }

    public func stop() {
        state.withLock { $0.stopped = true }
        continuation.finish()
    }
}
