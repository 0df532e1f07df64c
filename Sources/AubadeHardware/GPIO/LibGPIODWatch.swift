import CGPIOD
import Foundation
import Synchronization

/// A watch started by `LibGPIOD`: the events of its thread and the flag that ends it.
final class LibGPIODWatch: GPIOWatch {
    let events: AsyncStream<GPIOLineEvent>
    private let stopFlag: StopFlag
    private let failureBox = Mutex<GPIOError?>(nil)

    init(events: AsyncStream<GPIOLineEvent>, stopFlag: StopFlag) {
        self.events = events
        self.stopFlag = stopFlag
    }

    var failure: GPIOError? { failureBox.withLock { $0 } }

    func record(_ error: GPIOError) {
        failureBox.withLock { $0 = error }
    }

    func stop() {
        stopFlag.set()
    }
}

/// The body of a watch's dedicated thread: request the lines, report the outcome, then wait for edges with
/// `poll()` on the lines' event descriptors (what `gpiod_line_event_wait` does for one line; `poll` covers
/// lines on several chips at once) with a timeout, so that a stop is noticed within `waitTimeout`.
struct GPIODWatchLoop: Sendable {
    let lines: [GPIOLineRequest]
    let consumer: String
    let waitTimeout: Duration
    let stopFlag: StopFlag
    let continuation: AsyncStream<GPIOLineEvent>.Continuation
    let onFailure: @Sendable (GPIOError) -> Void

    /// Runs until stopped; calls `ready` exactly once, after the requests.
    func run(ready: @Sendable (Result<[Int: GPIOError], GPIOError>) -> Void) {
        let session = GPIODSession(consumer: consumer)
        defer {
            session.close()
            continuation.finish()
        }
        var failures: [Int: GPIOError] = [:]
        for (index, request) in lines.enumerated() {
            do throws(GPIOError) {
                try session.request(request, index: index)
            } catch {
                failures[index] = error
            }
        }
        guard !session.lines.isEmpty else {
            let reasons = lines.indices.compactMap { failures[$0]?.message }
            ready(
                .failure(
                    GPIOError(
                        reasons.count == 1 ? reasons[0] : "No GPIO line could be requested: " + reasons.joined(separator: " "))))
            return
        }
        ready(.success(failures))
        do throws(GPIOError) {
            for line in session.lines {
                continuation.yield(
                    GPIOLineEvent(
                        index: line.index, active: try session.value(line),
                        time: MonotonicClock.now(), isInitial: true))
            }
            try waitForEdges(session)
        } catch {
            onFailure(error)
        }
    }

    private func waitForEdges(_ session: GPIODSession) throws(GPIOError) {
        var fds = session.lines.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        let timeout = Int32(waitTimeout / .milliseconds(1))
        while !stopFlag.isSet {
            let n = poll(&fds, nfds_t(fds.count), timeout)
            if n < 0 {
                if errno == EINTR { continue }
                throw GPIOError("Watching the GPIO lines stopped: \(SystemError.describe("poll")).")
            }
            for i in fds.indices where fds[i].revents != 0 {
                let line = session.lines[i]
                if fds[i].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                    throw GPIOError(
                        "GPIO line \(line.name) stopped: its event descriptor reported an error (revents \(fds[i].revents)).")
                }
                continuation.yield(try session.readEvent(line))
            }
        }
    }
}
