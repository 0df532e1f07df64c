import AubadeHandoff
import AubadeSystem
import CLinuxEvents
import Glibc

/// The second waker's one thread (R35). Everything it waits on is a descriptor in one epoll set: the alarm
/// timer (a timerfd at the next ring's instant plus the grace — no polling; a wall-clock step cancels it, R5),
/// inotify on the database's folder (the daemon's next-alarm and heartbeat files are replaced by renames),
/// a signalfd (SIGTERM/SIGINT end it; SIGUSR1 and SIGUSR2, sent by `aubade stop` and `aubade snooze`, stop and
/// snooze a ring), systemd's watchdog timer, and during a ring the button lines. Idle, it sleeps in
/// `epoll_wait` until one of them fires.
///
/// Everything is allocated here, at start; the loop reads files into fixed buffers, decides with
/// `WakerDecision`, writes its state with `HandoffIO`, and never allocates (alsa-lib and libgpiod allocate
/// inside their own calls when a ring opens the card and requests the lines).
final class Waker {
    struct StartFailure: Error {
        let sentence: String
    }

    /// The ring in progress.
    struct Ring {
        var entry: HandoffEntry
        /// Wall ms: when it started, and when its duration ends.
        var started: Int64
        var ends: Int64
        /// Monotonic ns of its start, and of the next device and button attempts.
        var startNanos: Int64
        var nextOpen: Int64
        var nextButtons: Int64
        /// Monotonic ns of the next attempt at the outputs' lines.
        var nextOutputs: Int64 = 0
        var reportedFailure = false
        var killed: Int32 = 0
        var device = LongText()
        /// Its ladder's round (0: the first climb), and whether it rests before the next.
        var round = 0
        var resting = false
    }

    static let retryWindow: Int64 = 2_000_000_000  // R19: retry the device for 2 s, then the alternate
    static let quickRetry: Int64 = 200_000_000
    static let slowRetry: Int64 = 1_000_000_000

    let grace: Int64
    let clock: WakerClock
    let out: WakerOutput
    let files: HandoffFiles
    let sound = WakerSound()
    let buttons = WakerButtons()
    let outputs = WakerOutputLines()
    let notifier = SystemdNotifier()
    /// Where a status line for systemd is composed.
    let notice = TextWriter(capacity: 512)
    let link: DaemonLink
    var next = NextAlarmFile()
    var beat = HeartbeatFile()
    var state = WakerStateFile()
    private var scratchNext = NextAlarmFile()
    private var scratchBeat = HeartbeatFile()
    var ring: Ring?
    private var armedAt: Int64?
    private var stateDirty = false
    private var saveFailed = false
    private var running = true
    let epollFD: Int32
    let timerFD: Int32
    private let watchdog: Int32
    private let inotify: Int32
    private let signals: Int32
    private let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: 16)
    private let inotifyBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8192, alignment: 16)

    init(_ options: WakerOptions) throws(StartFailure) {
        grace = options.graceMilliseconds
        clock = WakerClock(fakeStart: options.fakeStart)
        out = WakerOutput(json: options.json, clock: clock)
        files = HandoffFiles(database: options.database)
        link = DaemonLink(database: options.database)
        signal(SIGPIPE, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        for s in [SIGTERM, SIGINT, SIGUSR1, SIGUSR2, SIGHUP] { sigaddset(&set, s) }
        sigprocmask(SIG_BLOCK, &set, nil)
        signals = signalfd(-1, &set, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        timerFD = clock.makeTimer()
        watchdog = notifier.watchdogInterval == nil ? -1 : timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard signals >= 0, epollFD >= 0, inotify >= 0, timerFD >= 0 else {
            throw StartFailure(sentence: "The waker could not set up its descriptors (\(String(cString: strerror(errno)))).")
        }
        let mask = UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM)
        guard files.folder.withCString({ inotify_add_watch(inotify, $0, mask) }) >= 0 else {
            throw StartFailure(
                sentence:
                    "The database's folder \(files.folder.string) cannot be watched (\(String(cString: strerror(errno)))); the waker needs it to exist."
            )
        }
        for fd in [signals, inotify, timerFD, watchdog] where fd >= 0 { watch(fd) }
        if let interval = notifier.watchdogInterval {
            var spec = itimerspec()
            let (seconds, attoseconds) = interval.components
            spec.it_interval = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            spec.it_value = spec.it_interval
            timerfd_settime(watchdog, 0, &spec, nil)
        }
        state.waker = ProcessIdentity.current
        state.graceMilliseconds = grace
    }

    private func watch(_ fd: Int32) {
        var ev = epoll_event()
        ev.events = EPOLLIN.rawValue
        ev.data.fd = fd
        epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &ev)
    }

    /// Runs until SIGTERM or SIGINT; the exit code.
    func run() -> Int32 {
        loadPreviousState()
        readNextAlarm()
        readHeartbeat()
        out.event("started") { f in
            f.seconds("grace_s", ms: grace)
            f.text("next_alarm", files.nextAlarm)
        }
        out.log(.info) { w in
            w.text("watching ")
            w.text(files.nextAlarm)
            w.text(" with a grace of ")
            w.int(grace / 1000)
            w.text(" s")
        }
        evaluate()
        notifier.ready()
        while running {
            let n = epoll_wait(epollFD, events, 16, ring == nil ? -1 : ringTimeoutMillis())
            if n < 0 && errno != EINTR {
                out.log(.error) { w in
                    w.text("epoll_wait failed: ")
                    w.errorText(errno)
                }
                return 1
            }
            for k in 0..<max(Int(n), 0) { handle(events[k].data.fd) }
            if ring != nil { serviceRing() } else { evaluate() }
        }
        if ring != nil { endRing(.shutdown, by: .none, thenDecide: false) }
        state.armed = nil
        save()
        out.event("exiting")
        notifier.stopping()
        return 0
    }

    private func handle(_ fd: Int32) {
        var word: UInt64 = 0
        if fd == timerFD {
            if read(timerFD, &word, 8) < 0 && errno == ECANCELED {
                out.log(.notice) { $0.text("the wall clock stepped; re-arming") }
                out.event("clock-step")
            }
            armedAt = nil  // re-arm from the decision, whatever fired
        } else if fd == watchdog {
            _ = read(watchdog, &word, 8)
            notifier.watchdog()
        } else if fd == inotify {
            folderChanged()
        } else if fd == signals {
            var info = signalfd_siginfo()
            while read(signals, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
                switch Int32(info.ssi_signo) {
                case SIGTERM, SIGINT: running = false
                case SIGUSR1: personEnds(.stop, by: .cli)
                case SIGUSR2: personEnds(.snooze, by: .cli)
                default:  // SIGHUP: read the files again
                    readNextAlarm()
                    readHeartbeat()
                }
            }
        } else if let duty = buttons.press(fd: fd) {
            personEnds(duty == .stop ? .stop : .snooze, by: .button)
        }
    }

    /// inotify: re-reads what the daemon replaced.
    private func folderChanged() {
        var nextChanged = false
        var beatChanged = false
        while true {
            let n = read(inotify, inotifyBuffer.baseAddress, inotifyBuffer.count)
            guard n > 0 else { break }
            var offset = 0
            while offset + 16 <= n {
                let mask = inotifyBuffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(inotifyBuffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                let name = UnsafeRawBufferPointer(rebasing: inotifyBuffer[(offset + 16)..<min(offset + 16 + length, n)])
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    nextChanged = true
                    beatChanged = true
                }
                if Waker.named(name, files.nextAlarmName) { nextChanged = true }
                if Waker.named(name, files.heartbeatName) { beatChanged = true }
                offset += 16 + length
            }
        }
        if nextChanged { readNextAlarm() }
        if beatChanged { readHeartbeat() }
    }

    /// Whether inotify's NUL-padded `name` is `file`.
    private static func named(_ name: UnsafeRawBufferPointer, _ file: LongText) -> Bool {
        guard name.count >= file.count else { return false }
        for k in 0..<file.count where name[k] != file[k] { return false }
        return name.count == file.count || name[file.count] == 0
    }

    // MARK: Files

    /// A previous waker's rings, snooze and quiet time survive a restart of the waker (a ring it was making
    /// when it stopped is open again: the decision resumes it).
    private func loadPreviousState() {
        guard let bytes = files.read(files.waker), state.read(bytes) else { return }
        state.waker = ProcessIdentity.current
        state.graceMilliseconds = grace
        state.armed = nil
        state.ringing = nil
        state.problem.removeAll()
    }

    /// Reads the daemon's next-alarm file; an unreadable or torn one leaves the last good one in force.
    func readNextAlarm() {
        guard let bytes = files.read(files.nextAlarm) else {
            let e = errno
            out.log(e == ENOENT ? .warning : .error) { w in
                w.text("no next-alarm file to read at ")
                w.text(files.nextAlarm)
                w.text(" (")
                w.errorText(e)
                w.text(e == ENOENT ? "): the daemon has not written one yet" : ")")
            }
            return
        }
        guard scratchNext.read(bytes) else {
            out.log(.warning) { w in
                w.text("the next-alarm file is incomplete; keeping the last one read")
            }
            return
        }
        swap(&next, &scratchNext)
        if state.read != next.written {
            state.read = next.written
            stateDirty = true
        }
    }

    func readHeartbeat() {
        guard let bytes = files.read(files.heartbeat) else {
            if errno == ENOENT { beat.records.removeAll(keepingCapacity: true) }
            return
        }
        if scratchBeat.read(bytes) { swap(&beat, &scratchBeat) }
    }

    func save() {
        let rc = files.save(state)
        stateDirty = false
        if rc != 0 && !saveFailed {
            out.log(.error) { w in
                w.text("its state file ")
                w.text(files.waker)
                w.text(" cannot be written (")
                w.errorText(rc)
                w.text("); aubade status will not see it")
            }
        }
        saveFailed = rc != 0
    }

    // MARK: Deciding

    /// Arms the timer for the next open ring, or rings it now (`WakerDecision`).
    func evaluate() {
        let now = clock.now()
        switch WakerDecision.decide(next: next, heartbeat: beat, state: state, now: now, grace: grace) {
        case .idle:
            if armedAt != nil {
                clock.arm(timerFD, at: nil)
                armedAt = nil
            }
            if state.armed != nil {
                state.armed = nil
                stateDirty = true
                out.event("idle")
                out.log(.info) { $0.text("nothing to guard") }
                notifier.send("STATUS=nothing to guard" as StaticString)
            }
        case .wait(let entry, let at):
            if armedAt != at {
                clock.arm(timerFD, at: at)
                armedAt = at
            }
            if !(state.armed?.isSameRing(as: entry) ?? false) || state.armedAt != at {
                state.armed = entry
                state.armedAt = at
                stateDirty = true
                announceArmed(entry, at: at)
            }
        case .ring(let entry):
            startRing(entry, now: now)
            return
        }
        if stateDirty { save() }
    }

    private func announceArmed(_ e: HandoffEntry, at: Int64) {
        out.event("armed") { f in
            f.int("alarm", e.alarm)
            f.seconds("occurrence", ms: e.occurrence)
            f.int("round", Int64(e.round))
            f.seconds("at", ms: at)
            f.text("name", e.name)
        }
        out.log(.info) { w in
            w.text("armed for ")
            w.alarm(e)
            w.text(": rings at ")
            w.iso8601(milliseconds: at)
            w.text(" unless the daemon reports it heard by then")
        }
        notifier.send("STATUS=armed for alarm ", composedIn: notice) { w in
            w.int(e.alarm)
            w.text(" at ")
            w.iso8601(milliseconds: at)
        }
    }
}
