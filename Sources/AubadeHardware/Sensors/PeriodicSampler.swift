import AubadeCore
import AubadeSystem
import Foundation

/// Runs `read` at a fixed rate on a dedicated thread for as long as the returned stream lives.
/// Deadlines are absolute on `CLOCK_MONOTONIC`, so the rate does not drift; a late read skips the missed
/// ticks instead of bursting. When the stream terminates the thread ends within one period.
enum PeriodicSampler {
    /// `makeReader` is called on the sampling thread, so the reader's state (cached scale, open files)
    /// never leaves it.
    static func start(
        rateHz: Int, name: String,
        makeReader: @escaping @Sendable () -> () -> AccelerationReading
    ) -> AsyncStream<AccelerationReading> {
        let (stream, continuation) = AsyncStream<AccelerationReading>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let stopFlag = StopFlag()
        continuation.onTermination = { _ in stopFlag.set() }
        let period = Duration.seconds(1) / max(1, min(rateHz, 1000))
        NamedThread.start(name) {
            let read = makeReader()
            var next = MonotonicClock.now()
            while !stopFlag.isSet {
                continuation.yield(read())
                next += period
                let now = MonotonicClock.now()
                if next < now { next = now }
                MonotonicClock.sleep(until: next)
            }
            continuation.finish()
        }
        return stream
    }
}
