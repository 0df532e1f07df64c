import AubadeHandoff
import Glibc

/// `aubade-waker --check`: what the waker would do now, from the same files and the same decision, printed
/// for a person (or as one JSON object with --json); exit 1 when there is no next-alarm file to read (then
/// nothing is guarded), else 0. A one-shot command: it allocates as it likes.
enum WakerCheck {
    static func run(_ options: WakerOptions) -> Int32 {
        let clock = WakerClock(fakeStart: options.fakeStart)
        let files = HandoffFiles(database: options.database)
        let now = clock.now()
        var next = NextAlarmFile()
        var beat = HeartbeatFile()
        var running = WakerStateFile()
        var nextProblem: String?
        if let bytes = files.read(files.nextAlarm) {
            if !next.read(bytes) { nextProblem = "it is incomplete" }
        } else {
            nextProblem = String(cString: strerror(errno))
        }
        if let bytes = files.read(files.heartbeat) { _ = beat.read(bytes) }
        let haveWaker = files.read(files.waker).map { running.read($0) } ?? false
        let wakerAlive = haveWaker && running.waker.isAlive
        // The waker's own snooze and finished rings count, as they do for the running waker.
        var own = WakerStateFile()
        if haveWaker {
            own.rang = running.rang
            own.snoozed = running.snoozed
            own.quietThrough = running.quietThrough
        }
        let verdict = WakerDecision.decide(next: next, heartbeat: beat, state: own, now: now, grace: options.graceMilliseconds)
        if options.json {
            printJSON(
                options, now: now, next: nextProblem == nil ? next : nil, nextProblem: nextProblem, beat: beat,
                verdict: verdict, waker: haveWaker ? running : nil, alive: wakerAlive)
        } else {
            printText(
                options, now: now, next: next, nextProblem: nextProblem, beat: beat, verdict: verdict,
                waker: haveWaker ? running : nil, alive: wakerAlive)
        }
        return nextProblem == nil ? 0 : 1
    }

    static func iso(_ ms: Int64) -> String {
        let w = TextWriter(capacity: 32)
        w.iso8601(milliseconds: ms)
        return w.string
    }

    static func name(_ e: HandoffEntry) -> String {
        e.name.isEmpty ? "alarm \(e.alarm)" : "alarm \(e.alarm) (\(e.name.string))"
    }

    private static func printText(
        _ o: WakerOptions, now: Int64, next: NextAlarmFile, nextProblem: String?,
        beat: HeartbeatFile, verdict: WakerDecision.Verdict, waker: WakerStateFile?, alive: Bool
    ) {
        print("Second waker for \(o.database) (grace \(o.graceMilliseconds / 1000) s), now \(iso(now)):")
        if let nextProblem {
            print(
                "Next-alarm file: \(o.database).next-alarm cannot be read (\(nextProblem)); the daemon has not written it, so nothing is guarded."
            )
        } else {
            let daemon = next.daemon.isAlive ? "running" : "not running"
            print(
                "Next-alarm file: written \(iso(next.written)) by the daemon (pid \(next.daemon.pid), \(daemon)); \(next.entries.count) ring(s) listed."
            )
            let alternate = next.alternate.isEmpty ? "none" : next.alternate.string
            let buttons = next.buttons.map { "\($0.duty == .stop ? "stop" : "snooze") \($0.line.string)" }
            print(
                "Sound: \(next.device.isEmpty ? "default" : next.device.string), alternate \(alternate); buttons: "
                    + (buttons.isEmpty
                        ? "none"
                        : buttons.joined(separator: ", ")
                            + " (\(next.activeLow ? "active-low" : "active-high"), \(next.bias.string))"))
        }
        print("Heartbeat: \(beat.records.count) record(s) of what the daemon handled.")
        switch verdict {
        case .idle:
            print("Would: guard nothing (no ring is open).")
        case .wait(let e, let at):
            print("Would: ring \(name(e)), due \(iso(e.due)), at \(iso(at)) unless the daemon reports it heard by then.")
        case .ring(let e):
            print("Would: ring \(name(e)) now: due \(iso(e.due)) and not reported heard within the grace.")
        }
        guard let waker, alive else { return print("Running waker: none.") }
        if let ringing = waker.ringing {
            print("Running waker: pid \(waker.waker.pid), ringing alarm \(ringing.alarm) since \(iso(ringing.started)).")
        } else if let armed = waker.armed {
            print("Running waker: pid \(waker.waker.pid), armed for \(name(armed)) at \(iso(waker.armedAt)).")
        } else {
            print("Running waker: pid \(waker.waker.pid), guarding nothing.")
        }
    }

    private static func printJSON(
        _ o: WakerOptions, now: Int64, next: NextAlarmFile?, nextProblem: String?,
        beat: HeartbeatFile, verdict: WakerDecision.Verdict, waker: WakerStateFile?, alive: Bool
    ) {
        let w = TextWriter(capacity: 4096)
        w.text("{\"database\": ")
        w.jsonString(LongText(o.database))
        w.text(", \"grace_s\": ")
        w.seconds(milliseconds: o.graceMilliseconds)
        w.text(", \"now\": ")
        w.seconds(milliseconds: now)
        if let next {
            w.text(", \"next_alarm\": {\"written\": ")
            w.seconds(milliseconds: next.written)
            w.text(", \"daemon_pid\": ")
            w.int(Int64(next.daemon.pid))
            w.text(", \"daemon_running\": ")
            w.text(next.daemon.isAlive ? "true" : "false")
            w.text(", \"entries\": ")
            w.int(next.entries.count)
            w.text(", \"device\": ")
            w.jsonString(next.device)
            w.text("}")
        } else {
            w.text(", \"next_alarm\": null, \"problem\": ")
            w.jsonString(LongText(nextProblem ?? ""))
        }
        w.text(", \"heartbeat_records\": ")
        w.int(beat.records.count)
        func entry(_ e: HandoffEntry, at: Int64, word: StaticString) {
            w.text(", \"would\": ")
            w.jsonString(word)
            w.text(", \"alarm\": ")
            w.int(e.alarm)
            w.text(", \"name\": ")
            w.jsonString(e.name)
            w.text(", \"due\": ")
            w.seconds(milliseconds: e.due)
            w.text(", \"at\": ")
            w.seconds(milliseconds: at)
        }
        switch verdict {
        case .idle: w.text(", \"would\": \"idle\"")
        case .wait(let e, let at): entry(e, at: at, word: "wait")
        case .ring(let e): entry(e, at: e.ringsAt(grace: o.graceMilliseconds), word: "ring")
        }
        w.text(", \"waker_running\": ")
        w.text(alive ? "true" : "false")
        if let waker, alive, let armed = waker.armed {
            w.text(", \"waker_armed\": {\"alarm\": ")
            w.int(armed.alarm)
            w.text(", \"at\": ")
            w.seconds(milliseconds: waker.armedAt)
            w.text("}")
        }
        w.text("}\n")
        w.write(to: 1)
    }
}
