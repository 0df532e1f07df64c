public import AubadeCore
import Synchronization

/// The outputs (`OutputSwitches`) for tests of the code above the hardware (the clock, the faces): which outputs are available,
/// and a journal of every switch in order, with the shutdown at the end. It drives no line: the libgpiod driver
/// itself is tested against the real library (`Tests/AubadeHardwareTests`) and gpio-sim (`hardware/hil`).
public final class FakeOutputs: OutputSwitches {
    public enum Event: Hashable, Sendable {
        case set(OutputName, on: Bool)
        case shutdown
    }

    public let available: [OutputName]
    public let problems: [OutputName: String]
    private let state = Mutex<(on: Set<OutputName>, events: [Event], ended: Bool)>(([], [], false))

    public init(available: [OutputName] = OutputName.allCases, problems: [OutputName: String] = [:]) {
        self.available = available
        self.problems = problems
    }

    public func set(_ name: OutputName, on: Bool) {
        guard available.contains(name) else { return }
        state.withLock { s in
            guard !s.ended else { return }
            if on { s.on.insert(name) } else { s.on.remove(name) }
            s.events.append(.set(name, on: on))
        }
    }

    public func isOn(_ name: OutputName) -> Bool { state.withLock { $0.on.contains(name) } }

    public func shutdown() async {
        state.withLock { s in
            guard !s.ended else { return }
            s.on.removeAll()
            s.ended = true
            s.events.append(.shutdown)
        }
    }

    /// Every switch so far, in order.
    public var events: [Event] { state.withLock { $0.events } }
}
