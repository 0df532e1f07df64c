import AubadeHandoff
import CLinuxEvents
import Glibc

extension Waker {
    /// Rings `entry`: its state written first (so `aubade status` and `stop` see it), then the card and the
    /// buttons and the outputs (a bed shaker, a lamp: on with the ring, following their patterns) — the device
    /// (retried for 2 s, R19), then its alternate, then both every second.
    func startRing(_ entry: HandoffEntry, now: Int64) {
        clock.arm(timerFD, at: nil)
        state.armed = nil
        let nanos = WakerClock.monotonicNanos()
        ring = Ring(
            entry: entry, started: now, ends: entry.endsAt(grace: grace), startNanos: nanos, nextOpen: nanos,
            nextButtons: nanos)
        state.ringing = WakerRing(alarm: entry.alarm, occurrence: entry.occurrence, round: entry.round, started: now)
        save()
        out.event("ringing") { f in
            f.int("alarm", entry.alarm)
            f.seconds("occurrence", ms: entry.occurrence)
            f.int("round", Int64(entry.round))
            f.seconds("due", ms: entry.due)
            f.int("late_ms", now - entry.ringsAt(grace: grace))
            f.text("name", entry.name)
        }
        out.log(.warning) { w in
            w.text("the daemon did not make ")
            w.alarm(entry)
            w.text(", due ")
            w.iso8601(milliseconds: entry.due)
            w.text(", heard within ")
            w.int(grace / 1000)
            w.text(" s: the second waker rings it")
        }
        notifier.send("STATUS=ringing alarm ", composedIn: notice) { $0.int(entry.alarm) }
        sound.synth.reset(entry.tone, volume: entry.volume)
        buttons.prepare(next)
        outputs.prepare(next, startNanos: nanos)
        serviceRing()
    }

    /// A turn of the ring: ends it when the daemon took it over or its duration is over, (re)tries the device
    /// and the buttons when due, and writes the tone as the device takes it.
    func serviceRing() {
        guard let r = ring else { return }
        if let record = beat.handling(r.entry) {
            out.log(.info) { w in
                w.text("the daemon reports ")
                w.alarm(r.entry)
                w.text(" ")
                w.text(record.state.word)
            }
            endRing(.daemon, by: .none)
            return
        }
        if clock.now() >= r.ends {
            endRing(r.entry.ladder.isOn ? .unanswered : .duration, by: .none)
            return
        }
        let nanos = WakerClock.monotonicNanos()
        if let phase = r.entry.ladder.phase(afterMilliseconds: clock.now() - r.entry.ringsAt(grace: grace)) {
            follow(phase, nanos)
            if ring?.resting ?? true { return }
        }
        if !sound.isOpen && nanos >= r.nextOpen { openDevice(nanos) }
        if buttons.pending && nanos >= (ring?.nextButtons ?? .max) { requestButtons(nanos) }
        if outputs.pending && nanos >= (ring?.nextOutputs ?? .max) { requestOutputs(nanos) }
        outputs.drive(WakerClock.monotonicNanos())
        guard sound.isOpen else { return }
        // A card blocks each write until it has room: one chunk a turn, so events are seen every 23 ms. A
        // device the waker paces takes what is due.
        var chunks = 0
        while sound.isOpen && sound.nanosUntilDue(WakerClock.monotonicNanos()) == 0 && chunks < 8 {
            let rc = sound.writeChunk()
            if rc != 0 {
                deviceFailed(rc, writing: true)
                break
            }
            chunks += 1
        }
    }

    /// The ring's ladder (`HandoffLadder`): how long it rings unanswered before it rests, its rests and its
    /// rounds. The waker's tone already climbs by itself, from the alarm's volume to full in 30 s, with the outputs
    /// from the start: it rings only for a clock that failed, so it has everything on at once. What it takes from
    /// the ladder is the timeline — a rest is silence with the card and the outputs let go (the buttons stay held,
    /// so a Stop still ends it), each round rings again at full with the outputs, and after the last it ends
    /// `unanswered` (the `ends` check) instead of after the alarm's duration.
    private func follow(_ phase: HandoffLadder.Phase, _ nanos: Int64) {
        guard let r = ring else { return }
        switch phase {
        case .over:
            // Past the last round's end; `ends` ends it at the next turn.
            return
        case .resting(let before):
            guard !r.resting else { return }
            ring?.resting = true
            sound.close()
            outputs.releaseAll()
            let until = r.entry.ringsAt(grace: grace) + r.entry.ladder.restEnds(before: before)
            out.event("rested") { f in
                f.int("alarm", r.entry.alarm)
                f.int("round", Int64(before))
                f.seconds("until", ms: until)
            }
            out.log(.notice) { w in
                w.text("the ring of ")
                w.alarm(r.entry)
                w.text(" is unanswered: it rests, then rings again until ")
                w.iso8601(milliseconds: until)
            }
        case .ringing(let round, _):
            guard r.resting || round != r.round else { return }
            ring?.resting = false
            ring?.round = round
            ring?.nextOpen = nanos
            ring?.nextOutputs = nanos
            ring?.reportedFailure = false
            sound.synth.reset(r.entry.tone, volume: 100)
            outputs.prepare(next, startNanos: nanos)
            out.event("round") { f in
                f.int("alarm", r.entry.alarm)
                f.int("round", Int64(round))
            }
            out.log(.warning) { w in
                w.text("the ring of ")
                w.alarm(r.entry)
                w.text(" rings again at full, round ")
                w.int(Int64(round))
            }
        }
    }

    /// How long `epoll_wait` may sleep during a ring: until the next chunk, device attempt or button attempt is
    /// due, at most a second (the duration's end and the ladder's phase are checked each turn).
    func ringTimeoutMillis() -> Int32 {
        guard let r = ring else { return -1 }
        let nanos = WakerClock.monotonicNanos()
        var wait: Int64 = 1_000_000_000
        if r.resting { return Int32(min(1000, max(0, r.ends - clock.now()))) }
        if sound.isOpen {
            wait = min(wait, sound.nanosUntilDue(nanos))
        } else {
            wait = min(wait, max(0, r.nextOpen - nanos))
        }
        if buttons.pending { wait = min(wait, max(0, r.nextButtons - nanos)) }
        if outputs.pending { wait = min(wait, max(0, r.nextOutputs - nanos)) }
        if let change = outputs.nanosUntilChange(nanos) { wait = min(wait, change) }
        wait = min(wait, max(0, (r.ends - clock.now()) * 1_000_000))
        return Int32((wait + 999_999) / 1_000_000)
    }

    private func openDevice(_ nanos: Int64) {
        guard var r = ring else { return }
        let primary = next.device.isEmpty ? LongText("default") : next.device
        let inWindow = nanos - r.startNanos < Waker.retryWindow
        var rc = sound.open(primary)
        var busy = rc == -EBUSY
        if rc != 0, !next.alternate.isEmpty, !inWindow || !Waker.retryable(rc) {
            let rc2 = sound.open(next.alternate)
            busy = busy || rc2 == -EBUSY
            if rc2 == 0 { rc = 0 }
        }
        if rc == 0 {
            r.device = sound.device
            ring = r
            deviceOpened(alternate: sound.device != primary)
            return
        }
        if !r.reportedFailure {
            r.reportedFailure = true
            let code = rc
            out.event("device-failed") { f in
                f.text("device", primary)
                f.int("errno", Int64(-code))
            }
            out.log(.error) { w in
                w.text("the sound device ")
                w.text(primary)
                w.text(" cannot be opened (")
                WakerSound.describe(code, into: w)
                w.text(next.alternate.isEmpty ? "); retrying" : "), nor its alternate yet; retrying")
            }
            state.problem = LongText("The second waker cannot open the sound device.")
            save()
        }
        r.nextOpen = nanos + (inWindow ? Waker.quickRetry : Waker.slowRetry)
        ring = r
        // A daemon that failed this ring yet holds the card (frozen): it must let go (see `DaemonLink`).
        if busy && !inWindow && stopDaemon(because: "it holds the sound device") {
            ring?.nextOpen = nanos + Waker.quickRetry
        }
    }

    private static func retryable(_ rc: Int32) -> Bool {
        rc == -EBUSY || rc == -ENOENT || rc == -ENODEV || rc == -EAGAIN
    }

    private func deviceOpened(alternate: Bool) {
        state.ringing?.device = sound.device
        state.problem.removeAll()
        save()
        out.event("device") { f in
            f.text("device", sound.device)
            f.bool("alternate", alternate)
        }
        out.log(.notice) { w in
            w.text("the tone plays on ")
            w.text(sound.device)
            if alternate { w.text(" (the alternate device)") }
        }
    }

    private func deviceFailed(_ rc: Int32, writing: Bool) {
        sound.close()
        out.log(.error) { w in
            w.text("the sound device failed (")
            WakerSound.describe(rc, into: w)
            w.text("); opening it again")
        }
        ring?.nextOpen = WakerClock.monotonicNanos() + Waker.slowRetry
        ring?.reportedFailure = false
    }

    private func requestButtons(_ nanos: Int64) {
        guard let r = ring else { return }
        buttons.request(epoll: epollFD) { i, code in
            out.log(.warning) { w in
                w.text("the button line ")
                w.text(buttons.lines[i].name)
                w.text(" cannot be used (")
                w.errorText(code)
                w.text("); it will not stop this ring")
            }
        }
        guard buttons.pending else { return }
        ring?.nextButtons = nanos + Waker.slowRetry
        if buttons.busy && nanos - r.startNanos >= Waker.retryWindow && stopDaemon(because: "it holds the button lines") {
            ring?.nextButtons = nanos + Waker.quickRetry
        }
    }

    private func requestOutputs(_ nanos: Int64) {
        guard let r = ring else { return }
        outputs.request { i, code in
            let o = outputs.lines[i].spec
            if code == 0 {
                out.event("output") { f in
                    f.text("output", o.name)
                    f.text("line", o.line)
                }
                out.log(.notice) { w in
                    w.text("the ")
                    w.text(o.name)
                    w.text(" on ")
                    w.text(o.line)
                    w.text(" is on")
                }
                return
            }
            out.log(.warning) { w in
                w.text("the ")
                w.text(o.name)
                w.text(" line ")
                w.text(o.line)
                w.text(" cannot be driven (")
                w.errorText(code)
                w.text("); this ring goes without it")
            }
        }
        guard outputs.pending else { return }
        ring?.nextOutputs = nanos + Waker.slowRetry
        if outputs.busy && nanos - r.startNanos >= Waker.retryWindow && stopDaemon(because: "it holds the output lines") {
            ring?.nextOutputs = nanos + Waker.quickRetry
        }
    }

    /// Stops the daemon that failed this ring and holds what it needs; once per ring. True when it did.
    private func stopDaemon(because reason: StaticString) -> Bool {
        guard let r = ring, r.killed == 0, DaemonLink.stopUnresponsive(next.daemon) else { return false }
        ring?.killed = next.daemon.pid
        let pid = Int64(next.daemon.pid)
        out.event("daemon-killed") { f in
            f.int("pid", pid)
            f.word("reason", reason)
        }
        out.log(.warning) { w in
            w.text("the daemon (pid ")
            w.int(pid)
            w.text(") did not make the alarm heard and ")
            w.text(reason)
            w.text(": stopped it (SIGKILL; systemd starts it again)")
        }
        return true
    }

    /// A person pressed a button or ran `aubade stop`/`snooze`.
    func personEnds(_ end: WakerEnd, by: WakerInput) {
        guard let r = ring else {
            out.log(.notice) { $0.text(end == .stop ? "a stop, but nothing rings" : "a snooze, but nothing rings") }
            return
        }
        if end == .snooze && !r.entry.maySnooze {
            out.event("snooze-refused") { $0.int("alarm", r.entry.alarm) }
            out.log(.notice) { $0.text("all snoozes are used; only stop ends this ring") }
            return
        }
        endRing(end, by: by)
    }

    /// Ends the ring: the card and the lines released at once, the ring remembered, the state written, the
    /// daemon told of a person's stop or snooze; then the next ring is armed.
    func endRing(_ end: WakerEnd, by: WakerInput, thenDecide: Bool = true) {
        guard let r = ring else { return }
        sound.close()
        buttons.releaseAll(epoll: epollFD)
        outputs.releaseAll()
        let now = clock.now()
        state.remember(
            WakerRing(
                alarm: r.entry.alarm, occurrence: r.entry.occurrence, round: r.entry.round,
                started: r.started, ended: now, end: end, by: by, killedDaemon: r.killed, device: r.device))
        state.ringing = nil
        if let own = state.snoozed, own.isSameRing(as: r.entry) { state.snoozed = nil }
        if end.byPerson { state.quietThrough = max(state.quietThrough, now) }
        if end == .snooze { state.snoozed = r.entry.snoozed(at: now, grace: grace) }
        ring = nil
        save()
        out.event("stopped") { f in
            f.int("alarm", r.entry.alarm)
            f.seconds("occurrence", ms: r.entry.occurrence)
            f.int("round", Int64(r.entry.round))
            f.word("end", end.word)
            f.word("by", by.word)
        }
        out.log(.notice) { w in
            w.text("the ring of ")
            w.alarm(r.entry)
            w.text(" ended: ")
            w.text(end.word)
            if by != .none {
                w.text(" by ")
                w.text(by.word)
            }
        }
        if end.byPerson { link.tell(snooze: end == .snooze, alarm: r.entry.alarm, by: by) }
        if thenDecide { evaluate() }
    }
}
