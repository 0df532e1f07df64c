import AubadeHandoff
import Glibc

/// What the waker says. Log lines go to stderr — under systemd that is journald, which reads the `<N>` priority
/// prefix (`SyslogLevelPrefix=`) when `$JOURNAL_STREAM` says stderr is the journal. With `--json`, one event
/// per line on stdout, as the daemon prints them: `{"t": <unix seconds>, "event": "...", ...}`, `t` from the
/// waker's wall clock (so `--fake-time` shifts it too). Each line is built in one buffer made at start and
/// written with one `write(2)`: nothing is allocated.
final class WakerOutput {
    enum Priority: UInt8 {
        case error = 3, warning = 4, notice = 5, info = 6
    }

    let json: Bool
    private let journal: Bool
    private let clock: WakerClock
    private let line = TextWriter(capacity: 2048)

    init(json: Bool, clock: WakerClock) {
        self.json = json
        self.clock = clock
        journal = getenv("JOURNAL_STREAM") != nil
    }

    /// One log line: "aubade-waker: " and what `fill` writes.
    func log(_ priority: Priority, _ fill: (TextWriter) -> Void) {
        line.reset()
        if journal {
            line.byte(UInt8(ascii: "<"))
            line.byte(UInt8(ascii: "0") + priority.rawValue)
            line.byte(UInt8(ascii: ">"))
        }
        line.text("aubade-waker: ")
        fill(line)
        line.byte(UInt8(ascii: "\n"))
        line.write(to: 2)
    }

    /// One JSON event (only with --json): `{"t": …, "event": name` and the fields `fill` adds.
    func event(_ name: StaticString, _ fill: (EventFields) -> Void = { _ in }) {
        guard json else { return }
        line.reset()
        line.text("{\"t\": ")
        line.seconds(milliseconds: clock.now())
        line.text(", \"event\": ")
        line.jsonString(name)
        fill(EventFields(w: line))
        line.text("}\n")
        line.write(to: 1)
    }
}

/// The fields of one JSON event, written straight into the line.
struct EventFields {
    let w: TextWriter

    private func key(_ k: StaticString) {
        w.text(", ")
        w.jsonString(k)
        w.text(": ")
    }

    func int(_ k: StaticString, _ v: Int64) {
        key(k)
        w.int(v)
    }

    func seconds(_ k: StaticString, ms: Int64) {
        key(k)
        w.seconds(milliseconds: ms)
    }

    func text<let n: Int>(_ k: StaticString, _ v: FixedText<n>) {
        key(k)
        w.jsonString(v)
    }

    func word(_ k: StaticString, _ v: StaticString) {
        key(k)
        w.jsonString(v)
    }

    func bool(_ k: StaticString, _ v: Bool) {
        key(k)
        w.text(v ? "true" : "false")
    }
}

extension TextWriter {
    /// "alarm 3 (Work)".
    func alarm(_ e: HandoffEntry) {
        text("alarm ")
        int(e.alarm)
        if !e.name.isEmpty {
            text(" (")
            text(e.name)
            byte(UInt8(ascii: ")"))
        }
    }

    /// A C error number as alsa-lib or libc words it.
    func errorText(_ code: Int32) {
        if let s = strerror(code) {
            var i = 0
            while s[i] != 0 && i < 200 {
                byte(UInt8(bitPattern: s[i]))
                i += 1
            }
        }
    }
}
