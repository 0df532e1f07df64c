public import AubadeCore
import AubadeSystem
import Synchronization

/// The screen's backlight on a thread of its own ("aubade.backlight"): a sysfs write may take milliseconds (a
/// backlight behind I2C or the Pi's firmware mailbox) and must never hold the clock's thread, least of all during a
/// sunrise, which writes every second or so (docs/HOUSE-RULES.md §5). The clock hands in target levels; the thread
/// writes the newest one (levels handed in meanwhile are passed over: only the last one matters). When a write
/// starts or stops failing the thread keeps the outcome for the clock (`takeOutcome`) and calls `changed` (the
/// clock's loop is woken, and the clock shows or clears its warning at that turn). A failed level is written
/// again at the next `set`, whatever it is.
///
/// Contract: `set` and `settled` return at once or suspend, from any thread; nothing here blocks the caller but
/// `restore`, at the daemon's graceful end, for at most `restoreBound`.
public final class BacklightWriter: Sendable {
    /// How long the graceful end waits for the backlight to be put back.
    static let restoreBound: Duration = .seconds(1)

    private enum Job: Sendable {
        case level(Int)
        case restore
        case settled(@Sendable () -> Void)
    }

    /// What the clock and the thread share.
    private final class Shared: Sendable {
        let queue = BlockingQueue<Job>()
        let restored = BlockingQueue<Bool>()
        let closed = Atomic<Bool>(false)
        /// The level last handed in; nil before the first and after a failed write.
        let handed = Mutex<Int?>(nil)
        /// A change of outcome not yet taken by the clock: `.some(nil)` the writes work again.
        let outcome = Mutex<BacklightError??>(nil)
    }

    private let shared = Shared()

    public init(_ backlight: any Backlight, changed: @escaping @Sendable () -> Void) {
        let shared = self.shared
        let started = NamedThread.start("aubade.backlight") {
            BacklightWriter.run(shared, backlight, changed)
        }
        if !started {
            shared.outcome.withLock { $0 = .some(BacklightError("The backlight's thread could not be started.")) }
            shared.closed.store(true, ordering: .releasing)
        }
    }

    deinit { shared.queue.close() }

    /// Writes `percent` (1…100) soon, unless it is the level handed in last and that one did not fail.
    public func set(percent: Int) {
        guard !shared.closed.load(ordering: .acquiring) else { return }
        let new = shared.handed.withLock { last in
            defer { last = percent }
            return last != percent
        }
        if new { shared.queue.post(.level(percent)) }
    }

    /// A change of the writes' outcome since the last call: `.some(error)` they fail (the newest failure),
    /// `.some(nil)` they work again, nil nothing changed.
    public func takeOutcome() -> BacklightError?? {
        shared.outcome.withLock { taken in
            defer { taken = nil }
            return taken
        }
    }

    /// Puts the backlight back as it was found, after any level still waiting, and ends the thread; waits for it
    /// at most `restoreBound` (the daemon's graceful end: every sound has stopped by then).
    public func restore() {
        guard !shared.closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        shared.queue.post(.restore)
        shared.queue.close()
        _ = shared.restored.take(waitingAtMost: BacklightWriter.restoreBound)
    }

    /// Returns once everything handed in before it has been carried out.
    public func settled() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            if shared.closed.load(ordering: .acquiring) {
                done.resume()
                return
            }
            shared.queue.post(.settled { done.resume() })
        }
    }

    private static func run(_ shared: Shared, _ backlight: any Backlight, _ changed: @Sendable () -> Void) {
        var failing: BacklightError?
        while true {
            let jobs = shared.queue.take()
            if jobs.isEmpty { return }  // closed and drained
            // Of the levels handed in together only the newest is written; a restore comes after it.
            var level: Int?
            var restore = false
            var waiting: [@Sendable () -> Void] = []
            for job in jobs {
                switch job {
                case .level(let percent): level = percent
                case .restore: restore = true
                case .settled(let done): waiting.append(done)
                }
            }
            if let level, !restore {
                let error = write { () throws(BacklightError) in try backlight.set(percent: level) }
                if error != nil { shared.handed.withLock { $0 = nil } }
                if error != failing {
                    failing = error
                    shared.outcome.withLock { $0 = .some(error) }
                    changed()
                }
            }
            if restore {
                _ = write { () throws(BacklightError) in try backlight.restore() }
                shared.restored.post(true)
            }
            for done in waiting { done() }
            if restore { return }
        }
    }

    private static func write(_ body: () throws(BacklightError) -> Void) -> BacklightError? {
        do throws(BacklightError) {
            try body()
            return nil
        } catch {
            return error
        }
    }
}
