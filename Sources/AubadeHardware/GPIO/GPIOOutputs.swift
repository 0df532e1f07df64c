public import AubadeCore
import AubadeSystem
import AubadeSystemAsync
public import Logging
import Synchronization

/// The real outputs: libgpiod v1 output requests, driven by one thread of their own ("aubade-outputs") that
/// follows each line's `OutputWave` — it sleeps in `BlockingQueue.take` until the next edge of a pattern or the
/// next command, on `CLOCK_MONOTONIC`. See `OutputSwitches` for the contract.
///
/// Lifetime: `open` requests every line (each starts inactive) and returns once the requests are done; lines that
/// cannot be had are left out and named in `problems` (rule 8: the clock rings without them). `shutdown` drives
/// every line inactive, releases it and ends the thread, and returns when that is done. A process that is killed
/// runs none of this: the kernel releases the lines when their descriptors close, and what a released line does is
/// the chip driver's — a Raspberry Pi's pin stays an output at its last level, a gpio-sim line goes back to its
/// pull — so the systemd unit runs `aubade outputs off` (`driveInactive`) after any exit.
public final class GPIOOutputs: OutputSwitches {
    enum Command: Sendable {
        case set(OutputName, on: Bool)
        case shutdown
    }

    public let available: [OutputName]
    public let problems: [OutputName: String]
    private let queue: BlockingQueue<Command>
    private let on = Mutex<Set<OutputName>>([])
    private let ending: ThreadEnd

    init(available: [OutputName], problems: [OutputName: String], queue: BlockingQueue<Command>, ending: ThreadEnd) {
        self.available = available
        self.problems = problems
        self.queue = queue
        self.ending = ending
    }

    /// Requests `requests` as outputs, inactive, on the driver's thread. Never throws: a line that cannot be had is a
    /// sentence in `problems`, logged once as a warning.
    ///
    /// `simulatedTrace`, for tests on a machine without GPIO (`aubade run --simulate-outputs`): the same thread follows
    /// the same waves, but on simulated lines whose every level is a JSON line appended to that file
    /// (`SimulatedOutputSession`); no GPIO is touched.
    public static func open(
        _ requests: [GPIOOutputRequest], consumer: String = "aubade", logger: Logger, devDirectory: String = "/dev",
        simulatedTrace: String? = nil
    ) async -> GPIOOutputs {
        let queue = BlockingQueue<Command>()
        let ending = ThreadEnd()
        guard !requests.isEmpty else {
            ending.finished()
            return GPIOOutputs(available: [], problems: [:], queue: queue, ending: ending)
        }
        let makeSession: @Sendable () -> any OutputLineSession =
            if let simulatedTrace {
                { SimulatedOutputSession(trace: simulatedTrace) }
            } else {
                { GPIODOutputSession(consumer: consumer, devDirectory: devDirectory) }
            }
        let loop = OutputLoop(requests: requests, makeSession: makeSession, queue: queue, logger: logger)
        let started: ([OutputName], [OutputName: String])? = await startThread("aubade-outputs") { report in
            loop.run(ready: report)
            ending.finished()
        }
        let (available, problems) =
            started ?? (
                [], Dictionary(uniqueKeysWithValues: requests.map { ($0.output, "no thread could be started to drive it") })
            )
        if started == nil { ending.finished() }
        for request in requests {
            if let problem = problems[request.output] { logger.warning("Output \(request.output) is off: \(problem)") }
        }
        return GPIOOutputs(available: available, problems: problems, queue: queue, ending: ending)
    }

    public func set(_ name: OutputName, on: Bool) {
        guard available.contains(name) else { return }
        self.on.withLock { set in
            if on { set.insert(name) } else { set.remove(name) }
        }
        queue.post(.set(name, on: on))
    }

    public func isOn(_ name: OutputName) -> Bool {
        on.withLock { $0.contains(name) }
    }

    /// Drives every line inactive, releases them and ends the thread; returns when that is done. Idempotent.
    public func shutdown() async {
        on.withLock { $0.removeAll() }
        queue.post(.shutdown)
        await ending.wait()
    }

    /// Drives each of `requests` to its inactive level and releases it at once, on the calling thread (blocking
    /// for the few milliseconds the requests take): `aubade outputs off`, after the daemon ended in any way. Each
    /// output's outcome: nil when it is inactive now, else the sentence saying why not.
    public static func driveInactive(_ requests: [GPIOOutputRequest], consumer: String = "aubade", devDirectory: String = "/dev")
        -> [(GPIOOutputRequest, GPIOError?)]
    {
        requests.map { request in
            let session = GPIODOutputSession(consumer: consumer, devDirectory: devDirectory)
            do throws(GPIOError) {
                try session.request(request)
            } catch {
                return (request, error)
            }
            return (request, session.close().first)
        }
    }
}

/// The driver thread's end, awaited by `shutdown` (any number of callers, before or after it happened).
final class ThreadEnd: Sendable {
    private let state = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func finished() {
        let waiters = state.withLock { s in
            s.done = true
            defer { s.waiters.removeAll() }
            return s.waiters
        }
        for w in waiters { w.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let done = state.withLock { s in
                if !s.done { s.waiters.append(c) }
                return s.done
            }
            if done { c.resume() }
        }
    }
}

/// The body of the driver's thread: request, report, then follow the waves until `.shutdown`.
struct OutputLoop: Sendable {
    let requests: [GPIOOutputRequest]
    let makeSession: @Sendable () -> any OutputLineSession
    let queue: BlockingQueue<GPIOOutputs.Command>
    let logger: Logger

    func run(ready: @Sendable (([OutputName], [OutputName: String])) -> Void) {
        let session = makeSession()
        var problems: [OutputName: String] = [:]
        for request in requests {
            do throws(GPIOError) {
                try session.request(request)
            } catch {
                problems[request.output] = error.message
            }
        }
        let held = session.held
        let lines = held.map(\.output)
        ready((lines, problems))
        guard !lines.isEmpty else { return }
        var waves = held.map { OutputWave(pattern: $0.pattern) }
        var failed = Set<Int>()
        var running = true
        while running {
            let now = MonotonicInstant(Monotonic.now())
            for i in waves.indices where !failed.contains(i) {
                let want = waves[i].isActive(at: now)
                guard want != session.isActive(i) else { continue }
                do throws(GPIOError) {
                    try session.set(i, active: want)
                } catch {
                    failed.insert(i)
                    logger.error("Output \(lines[i]) stopped: \(error.message)")
                }
            }
            let next = waves.indices.compactMap { failed.contains($0) ? nil : waves[$0].nextChange(after: now) }.min()
            let commands = queue.take(waitingAtMost: next.map { max(.zero, $0 - now) })
            let at = MonotonicInstant(Monotonic.now())
            for command in commands {
                switch command {
                case .set(let name, let on):
                    guard let i = lines.firstIndex(of: name) else { continue }
                    if on { waves[i].switchOn(at: at) } else { waves[i].switchOff() }
                case .shutdown:
                    running = false
                }
            }
        }
        for failure in session.close() { logger.error("\(failure.message)") }
    }
}
