import AubadeHandoff
import CGPIOD
import Glibc

/// The outputs (a bed shaker, a lamp) while the waker rings: the channel that still wakes when the sound card
/// does not. Through libgpiod v1 as the daemon's `GPIOOutputs`: each line is requested as an output, first
/// inactive, for a ring only (the daemon holds it otherwise); while the ring lasts it follows its pattern from
/// the ring's start (`OutputLine.isActive`, the core's `OutputPattern` in the handoff file's words); when the
/// ring ends, and when the waker stops, each is driven inactive and released. A line another process holds (a
/// frozen daemon) is busy: the caller retries and, past the retry window, ends that daemon.
final class WakerOutputLines {
    struct Line {
        var spec = OutputLine(name: LongText(), line: LongText(), activeLow: false, onMilliseconds: 0, offMilliseconds: 0)
        var line: OpaquePointer?
        var failure: Int32 = 0
        /// Gave up on it (no such line): not retried during this ring.
        var given = false
        var active = false
    }

    private(set) var lines: [Line]
    /// Monotonic ns of the ring's start: every pattern runs from there.
    private var startNanos: Int64 = 0

    init() {
        lines = []
        lines.reserveCapacity(NextAlarmFile.maxOutputs)
    }

    /// Takes the outputs of `file` for a ring starting at `nanos` (nothing requested yet).
    func prepare(_ file: borrowing NextAlarmFile, startNanos nanos: Int64) {
        releaseAll()
        lines.removeAll(keepingCapacity: true)
        for o in file.outputs where lines.count < NextAlarmFile.maxOutputs {
            var l = Line()
            l.spec = o
            lines.append(l)
        }
        startNanos = nanos
    }

    var pending: Bool {
        for l in lines where l.line == nil && !l.given { return true }
        return false
    }

    var busy: Bool {
        for l in lines where l.line == nil && !l.given && l.failure == EBUSY { return true }
        return false
    }

    /// Requests every output not yet held, inactive; `report` is told of one given up for good (index, errno)
    /// and of one requested (index, 0).
    func request(report: (Int, Int32) -> Void) {
        for i in lines.indices where lines[i].line == nil && !lines[i].given {
            errno = 0
            let line = lines[i].spec.line.withCString { WakerOutputLines.find($0) }
            guard let line else {
                lines[i].failure = errno == 0 ? ENOENT : errno
                lines[i].given = lines[i].failure != EBUSY
                if lines[i].given { report(i, lines[i].failure) }
                continue
            }
            let flags = lines[i].spec.activeLow ? Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) : 0
            guard gpiod_line_request_output_flags(line, "aubade-waker", flags, 0) == 0 else {
                let e = errno
                gpiod_line_close_chip(line)
                lines[i].failure = e
                lines[i].given = e != EBUSY
                if lines[i].given { report(i, e) }
                continue
            }
            lines[i].line = line
            lines[i].failure = 0
            lines[i].active = false
            report(i, 0)
        }
    }

    /// Sets every held line to its pattern's level at `nanos`.
    func drive(_ nanos: Int64) {
        let elapsed = (nanos - startNanos) / 1_000_000
        for i in lines.indices {
            guard let line = lines[i].line else { continue }
            let want = lines[i].spec.isActive(afterMilliseconds: elapsed)
            if want != lines[i].active, gpiod_line_set_value(line, want ? 1 : 0) == 0 { lines[i].active = want }
        }
    }

    /// Nanoseconds from `nanos` to the next change of a held line's level; nil when none will change.
    func nanosUntilChange(_ nanos: Int64) -> Int64? {
        let elapsed = (nanos - startNanos) / 1_000_000
        var soonest: Int64?
        for l in lines where l.line != nil {
            guard let next = l.spec.nextChange(afterMilliseconds: elapsed) else { continue }
            let wait = max(0, startNanos + next * 1_000_000 - nanos)
            soonest = min(soonest ?? wait, wait)
        }
        return soonest
    }

    /// Drives every held line inactive and releases it.
    func releaseAll() {
        for i in lines.indices {
            if let line = lines[i].line {
                _ = gpiod_line_set_value(line, 0)
                gpiod_line_release(line)
                gpiod_line_close_chip(line)
            }
            lines[i].line = nil
            lines[i].active = false
            lines[i].failure = 0
            lines[i].given = false
        }
    }

    /// The line named `name` ("GPIO16", or "gpiochip0:16"), its chip open; nil with errno set.
    private static func find(_ name: UnsafePointer<CChar>) -> OpaquePointer? {
        var colon = -1
        var k = 0
        while name[k] != 0 {
            if name[k] == 0x3A { colon = k }
            k += 1
        }
        guard colon > 0, let offset = UInt32(decimal: name + colon + 1) else { return gpiod_line_find(name) }
        var chipName = LongText()
        for j in 0..<colon { chipName.append(UInt8(bitPattern: name[j])) }
        guard let chip = chipName.withCString({ gpiod_chip_open_lookup($0) }) else { return nil }
        let line = gpiod_chip_get_line(chip, offset)
        if line == nil { gpiod_chip_close(chip) }
        return line
    }
}
