public import AubadeCore
public import AubadeHardware
import Synchronization

/// An accelerometer for tests: `readings` replays a scripted trace (then stays open until ended);
/// `readOnce` returns the trace's first reading. Records how many streams were started and ended, so a
/// test can check that sampling happens only while asked.
public final class FakeAccelerometer: Accelerometer {
    public let trace: [AccelerationReading]
    private let counts = Mutex<(started: Int, ended: Int)>((0, 0))

    public init(trace: [AccelerationReading]) {
        self.trace = trace
    }

    public var description: String { "fake accelerometer" }
    public var streamsStarted: Int { counts.withLock { $0.started } }
    public var streamsEnded: Int { counts.withLock { $0.ended } }

    public func readOnce(timeout: Duration) -> AccelerationReading {
        trace.first ?? .failed(time: .zero, reason: "the fake trace is empty")
    }

    public func readings(rateHz: Int) -> AsyncStream<AccelerationReading> {
        counts.withLock { $0.started += 1 }
        let (stream, continuation) = AsyncStream<AccelerationReading>.makeStream()
        for reading in trace { continuation.yield(reading) }
        continuation.onTermination = { [self] _ in counts.withLock { $0.ended += 1 } }
        return stream
    }
}
