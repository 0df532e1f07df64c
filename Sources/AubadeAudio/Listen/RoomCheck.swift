public import AubadeCore
import AubadeSystem
import Foundation
public import Logging
import Synchronization

/// The microphone that proves the room heard an alarm (issue 37, part 4): its own thread ("aubade.mic") captures
/// from `[verify] microphone`, compares with what the one sound engine wrote (its `PlaybackTap`) and reports a
/// verdict within 3 s of the ring's first audible frame — heard in the room, or not.
///
/// How the clock uses it: `arm()` when a ring is due (at the pre-roll, 15 s before: the capture then holds the
/// room's noise of the seconds before the ring), `listen(since:)` as the ring begins (its `beginAt` instant, or now):
/// the verdict arrives by callback (or `await`) and can be fed to the clock as an input. `disarm()` when no ring is
/// due; the device is closed then. Listening without arming opens the capture at once — the noise is then whatever
/// was captured before the first audible frame.
///
/// Contract: thread-safe; every call returns at once and nothing here ever waits on the microphone: a ring is never
/// delayed by it. A device that cannot be opened is one warning (again only when the reason changes), and every
/// listener is answered `unavailable` with the sentence; the device is tried again at the next `arm` or `listen`.
public final class RoomCheck: Sendable {
    public enum Outcome: Sendable, Equatable, CustomStringConvertible {
        case verdict(RoomVerdict)
        /// The microphone could not be used: why.
        case unavailable(String)
        /// A newer `listen` took over before this one was decided.
        case superseded

        public var description: String {
            switch self {
            case .verdict(let v): v.description
            case .unavailable(let why): "no microphone: \(why)"
            case .superseded: "superseded by a newer ring"
            }
        }
    }

    public typealias Report = @Sendable (Outcome) -> Void

    enum Command: Sendable {
        case arm, disarm, shutdown
        case listen(Duration, Report)
    }

    public let microphone: String
    private let commands = BlockingQueue<Command>()
    private let started = Atomic<Bool>(false)
    private let definition: String?
    private let playback: PlaybackTap
    private let logger: Logger?

    /// `definition`: alsa-lib configuration text defining `microphone` (tests); nil: the system's.
    public init(microphone: String, definition: String? = nil, playback: PlaybackTap, logger: Logger? = nil) {
        self.microphone = microphone
        self.definition = definition
        self.playback = playback
        self.logger = logger
    }

    /// Keeps the capture running (the room's noise before a ring).
    public func arm() { post(.arm) }

    /// Closes the capture when no ring is listened to.
    public func disarm() { post(.disarm) }

    /// Listens for the ring whose sound begins at `since`; `report` is called once, on the microphone's thread.
    public func listen(since: MonotonicInstant, report: @escaping Report) { post(.listen(since.sinceOrigin, report)) }

    /// As `listen(since:report:)`, awaited.
    public func listen(since: MonotonicInstant) async -> Outcome {
        await withCheckedContinuation { c in listen(since: since) { c.resume(returning: $0) } }
    }

    /// Ends the thread (a pending listener is answered `superseded`).
    public func shutdown() {
        commands.post(.shutdown)
    }

    private func post(_ command: Command) {
        if !started.exchange(true, ordering: .acquiringAndReleasing) {
            let worker = RoomCheckWorker(
                microphone: microphone, definition: definition, playback: playback, commands: commands, logger: logger)
            _ = NamedThread.start("aubade.mic") { worker.run() }
        }
        commands.post(command)
    }
}

/// The microphone's thread: open when armed or listening, a read every 20 ms (all that waits when it fell behind),
/// the listening fed.
final class RoomCheckWorker: @unchecked Sendable {
    let microphone: String
    let definition: String?
    let playback: PlaybackTap
    let commands: BlockingQueue<RoomCheck.Command>
    let logger: Logger?
    private var capture: AlsaCapture?
    private var listening: RoomListening?
    private var armed = false
    private var pending: RoomCheck.Report?
    private var lastProblem: String?
    private var seen: Int64 = 0
    private var samples: [Float] = []
    /// Whether the capture was opened again after a failure during the current ring.
    private var reopened = false

    init(
        microphone: String, definition: String?, playback: PlaybackTap, commands: BlockingQueue<RoomCheck.Command>,
        logger: Logger?
    ) {
        self.microphone = microphone
        self.definition = definition
        self.playback = playback
        self.commands = commands
        self.logger = logger
    }

    func run() {
        while true {
            let wanted = armed || pending != nil
            // Nothing to listen for: the device is closed before the thread waits for the next command.
            if !wanted { close() }
            for command in commands.take(waitingAtMost: wanted ? .zero : nil) {
                switch command {
                case .arm: armed = true
                case .disarm: armed = false
                case .shutdown:
                    pending?(.superseded)
                    capture?.close()
                    return
                case .listen(let since, let report):
                    pending?(.superseded)
                    pending = report
                    reopened = false
                    listening?.listen(since: since)
                    startAt = since
                }
            }
            guard armed || pending != nil else { continue }
            if capture == nil, !open() { continue }
            turn()
        }
    }

    /// The instant of the newest `listen`, handed to the listening once the capture is open.
    private var startAt: Duration?

    private func open() -> Bool {
        do throws(AudioError) {
            let c = try AlsaCapture(device: microphone, definition: definition)
            capture = c
            var l = RoomListening(rate: c.rate)
            if let startAt, pending != nil { l.listen(since: startAt) }
            listening = l
            seen = playback.newest - 256  // what was written in the seconds before: it may be heard now
            lastProblem = nil
            logger?.info("microphone \(microphone) open: \(c.rate) Hz, \(c.channels) channel(s)")
            return true
        } catch {
            if error.description != lastProblem {
                lastProblem = error.description
                logger?.warning("\(error.description) The clock rings without the room check.")
            }
            pending?(.unavailable(error.description))
            pending = nil
            armed = false
            return false
        }
    }

    private func turn() {
        guard let capture, var l = listening else { return }
        do throws(AudioError) {
            // 20 ms, or all that waits (up to a quarter of a second) when the thread fell behind: it catches up in
            // fewer turns.
            let frames = min(max(capture.rate / 50, capture.available), capture.rate / 4)
            let firstAt = try capture.read(frames: frames, into: &samples)
            l.captured(samples, firstAt: firstAt)
        } catch {
            close()
            // A capture can fail once as the card's other side changes (a loopback's playback reconfigured): it is
            // opened again once for the same ring before the ring is told there is no microphone.
            if pending != nil, !reopened {
                reopened = true
                logger?.notice("\(error.description) Opening it again.")
                return
            }
            logger?.warning("\(error.description)")
            pending?(.unavailable(error.description))
            pending = nil
            armed = false
            return
        }
        let chunks = playback.chunks(after: seen)
        if let last = chunks.last { seen = last.sequence }
        l.played(chunks)
        if pending != nil, !l.listening, let startAt { l.listen(since: startAt) }
        if let verdict = l.step() {
            pending?(.verdict(verdict))
            pending = nil
            startAt = nil
        }
        listening = l
    }

    private func close() {
        capture?.close()
        capture = nil
        listening = nil
    }
}
