import AubadeApp
import Foundation
import Testing

/// The clock's jobs run on its own thread, named for the kernel (/proc/thread-self/comm: what `ps -L` shows),
/// job after job.
@Suite("Clock executor")
struct ClockThreadTests {
    actor OnClock {
        let executor: ClockExecutor
        var order: [Int] = []

        init(_ executor: ClockExecutor) {
            self.executor = executor
        }

        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        func threadName() -> String {
            ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func record(_ k: Int) { order.append(k) }
    }

    @Test func jobsRunOnTheNamedThread() async {
        let clock = OnClock(ClockExecutor(name: "aubade.clk-test"))
        #expect(await clock.threadName() == "aubade.clk-test")
        for k in 0..<50 { await clock.record(k) }
        #expect(await clock.order == Array(0..<50))
    }
}
