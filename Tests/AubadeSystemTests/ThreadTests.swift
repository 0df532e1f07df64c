import AubadeSystem
import AubadeSystemAsync
import AubadeTesting
import Foundation
import Synchronization
import Testing

/// Named threads and the one "run blocking work on its own thread and resume": the names as the kernel shows
/// them (/proc/self/task/*/comm), what comes back, and the blocking queue the engine and the clock wait on.
@Suite("Threads")
struct ThreadTests {
    @Test func aStartedThreadCarriesItsNameWhileItRuns() async {
        let release = BlockingQueue<Bool>()
        let seen = Mutex<String?>(nil)
        let name = "aubade-t\(UInt16.random(in: 1000...9999))"  // 13 bytes: kept whole
        #expect(
            NamedThread.start(name) {
                seen.withLock { $0 = NamedThread.currentName }
                _ = release.take()
            })
        #expect(await threadAppears(name), "threads: \(threadNames())")
        release.post(true)
        #expect(seen.withLock { $0 } == name)
    }

    @Test func aLongNameKeepsItsFirstFifteenBytes() async {
        let release = BlockingQueue<Bool>()
        let tag = UInt16.random(in: 1000...9999)
        #expect(NamedThread.start("aubade\(tag)-a-name-too-long", stackSize: 1 << 20) { _ = release.take() })
        #expect(await threadAppears("aubade\(tag)-a-na"), "threads: \(threadNames())")
        release.post(true)
    }

    @Test func blockingWorkResumesWithItsResultOnItsOwnNamedThread() async {
        let name = await runBlocking("aubade.rbtest") { NamedThread.currentName }
        #expect(name == "aubade.rbtest")
    }

    struct Refused: Error, Equatable {
        let why: String
    }

    @Test func blockingWorkThrowsItsOwnErrorType() async {
        do throws(Refused) {
            _ = try await runBlocking("aubade.rbtest") { () throws(Refused) -> Int in throw Refused(why: "no") }
            Issue.record("no error")
        } catch {
            #expect(error == Refused(why: "no"))  // typed: a `Refused`, not `any Error`
        }
    }

    /// A thread that reports how its start went, then runs on: the caller resumes at the first report and later
    /// reports are ignored.
    @Test func aStartedThreadResumesAtItsFirstReport() async {
        let release = BlockingQueue<Bool>()
        let after = BlockingQueue<String>()
        let first: String? = await startThread("aubade.reporter") { report in
            report("started")
            report("again")  // ignored
            _ = release.take()
            after.post(NamedThread.currentName)
        }
        #expect(first == "started")
        release.post(true)
        let ran = await runBlocking("aubade.wait") { after.take(waitingAtMost: .seconds(60)) }
        #expect(ran == ["aubade.reporter"])
    }

    @Test func theQueueHandsOverInOrderAndEndsAtClose() async {
        let queue = BlockingQueue<Int>()
        #expect(queue.take(waitingAtMost: .zero).isEmpty)
        #expect(queue.take(waitingAtMost: .milliseconds(20)).isEmpty)  // nothing came: the wait ends
        for k in 1...3 { queue.post(k) }
        #expect(queue.take(waitingAtMost: .zero) == [1, 2, 3])
        // A consumer waiting without a limit is woken by a post from another thread, then by the close.
        let taken = Task {
            await runBlocking("aubade.consumer") { () -> [[Int]] in
                var batches: [[Int]] = []
                while true {
                    let batch = queue.take()
                    if batch.isEmpty { return batches }
                    batches.append(batch)
                }
            }
        }
        queue.post(4)
        queue.post(5)
        queue.close()
        let batches = await taken.value
        #expect(batches.flatMap { $0 } == [4, 5])
        #expect(queue.take().isEmpty)  // closed and drained: no wait
    }

    @Test func aStopWakesAWaiterAndStaysSet() async {
        let signal = StopSignal()
        #expect(!signal.wait(upTo: .milliseconds(20)))  // not stopped: the wait ends by itself
        let waited = Task { await runBlocking("aubade.stopwait") { signal.wait(upTo: .seconds(600)) } }
        signal.stop()
        #expect(await waited.value)  // woken by the stop, not by the ten minutes
        #expect(signal.isStopped && signal.wait(upTo: .seconds(600)))  // set: no wait at all
    }
}
