import AubadeHandoff
import CGPIOD
import CLinuxEvents
import Glibc

/// The stop and snooze buttons while the waker rings, through libgpiod v1 (the API of Debian bookworm, as the
/// daemon's `LibGPIOD`). Lines are requested only for a ring — the daemon holds them otherwise — with both
/// edges, the config's active-low and bias, and their event descriptors put in the waker's epoll set.
///
/// A press counts on its active edge, and only when the line had been inactive for 30 ms before it: a button
/// held down when the ring began does nothing until it is let go and pressed again (R15), and the bounce of a
/// release is not a press. A line another process holds (a frozen daemon) is busy: the caller retries.
final class WakerButtons {
    struct Line: RequestedLine {
        var name = LongText()
        var duty = ButtonDuty.stop
        var line: OpaquePointer?
        var fd: Int32 = -1
        /// The last errno of a request; 0 when requested or not tried yet.
        var failure: Int32 = 0
        /// Gave up on it (no such line): not retried during this ring.
        var given = false
        var active = false
        /// Kernel time (ns) of its last release.
        var releasedAt: Int64 = 0
    }

    static let debounceNanos: Int64 = 30_000_000
    private(set) var lines: [Line]
    private var flags: Int32 = 0

    init() {
        lines = []
        lines.reserveCapacity(NextAlarmFile.maxButtons)
    }

    /// Takes the buttons of `file` for a ring (nothing requested yet).
    func prepare(_ file: borrowing NextAlarmFile) {
        releaseAll(epoll: -1)
        lines.removeAll(keepingCapacity: true)
        for b in file.buttons where lines.count < NextAlarmFile.maxButtons {
            var l = Line()
            l.name = b.line
            l.duty = b.duty
            lines.append(l)
        }
        flags = file.activeLow ? Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) : 0
        if file.bias.equals("pull-up") {
            flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
        } else if file.bias.equals("pull-down") {
            flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
        } else if file.bias.equals("disable") {
            flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE)
        }
    }

    /// Whether some line is still to be requested (busy, or not tried).
    var pending: Bool { lines.pending }

    /// Whether some line was refused because another process holds it.
    var busy: Bool { lines.busy }

    /// Requests every line not yet held; each one it gets is added to `epoll`. `report` is told of a line
    /// given up for good (index, errno).
    func request(epoll: Int32, report: (Int, Int32) -> Void) {
        for i in lines.indices where lines[i].line == nil && !lines[i].given {
            var line: OpaquePointer?
            errno = 0
            lines[i].name.withCString { name in
                var colon = -1
                var k = 0
                while name[k] != 0 {
                    if name[k] == 0x3A { colon = k }
                    k += 1
                }
                if colon > 0, let offset = UInt32(decimal: name + colon + 1) {
                    var chipName = LongText()
                    for j in 0..<colon { chipName.append(UInt8(bitPattern: name[j])) }
                    if let chip = chipName.withCString({ gpiod_chip_open_lookup($0) }) {
                        line = gpiod_chip_get_line(chip, offset)
                        if line == nil { gpiod_chip_close(chip) }
                    }
                } else {
                    line = gpiod_line_find(name)
                }
            }
            guard let line else {
                lines[i].failure = errno == 0 ? ENOENT : errno
                lines[i].given = lines[i].failure != EBUSY
                if lines[i].given { report(i, lines[i].failure) }
                continue
            }
            guard gpiod_line_request_both_edges_events_flags(line, "aubade-waker", flags) == 0 else {
                let e = errno
                gpiod_line_close_chip(line)
                lines[i].failure = e
                lines[i].given = e != EBUSY
                if lines[i].given { report(i, e) }
                continue
            }
            let fd = gpiod_line_event_get_fd(line)
            var ev = epoll_event()
            ev.events = EPOLLIN.rawValue
            ev.data.fd = fd
            epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &ev)
            lines[i].line = line
            lines[i].fd = fd
            lines[i].failure = 0
            lines[i].active = gpiod_line_get_value(line) == 1
            lines[i].releasedAt = lines[i].active ? Int64.max : 0
        }
    }

    /// Reads the events of the line whose descriptor is `fd`: the duty of a press, or nil.
    func press(fd: Int32) -> ButtonDuty? {
        guard let i = lines.firstIndex(where: { $0.fd == fd }), let line = lines[i].line else { return nil }
        var pressed = false
        var event = gpiod_line_event()
        while true {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 0) == 1, gpiod_line_event_read(line, &event) == 0 else { break }
            let at = Int64(event.ts.tv_sec) * 1_000_000_000 + Int64(event.ts.tv_nsec)
            if event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE) {
                if !lines[i].active && (lines[i].releasedAt == 0 || at - lines[i].releasedAt >= WakerButtons.debounceNanos) {
                    pressed = true
                }
                lines[i].active = true
            } else {
                lines[i].active = false
                lines[i].releasedAt = at
            }
        }
        return pressed ? lines[i].duty : nil
    }

    /// Whether `fd` is one of the buttons' descriptors.
    func owns(_ fd: Int32) -> Bool { lines.contains { $0.fd == fd && $0.fd >= 0 } }

    /// Releases every line (epoll -1: not registered anywhere any more).
    func releaseAll(epoll: Int32) {
        for i in lines.indices {
            if let line = lines[i].line {
                if epoll >= 0 { epoll_ctl(epoll, EPOLL_CTL_DEL, lines[i].fd, nil) }
                gpiod_line_release(line)
                gpiod_line_close_chip(line)
            }
            lines[i].line = nil
            lines[i].fd = -1
            lines[i].failure = 0
            lines[i].given = false
        }
    }
}

extension UInt32 {
    /// A decimal number in a C string (nothing else after it).
    init?(decimal p: UnsafePointer<CChar>) {
        var v: UInt32 = 0
        var k = 0
        while p[k] != 0 {
            guard p[k] >= 0x30 && p[k] <= 0x39, v < 100_000 else { return nil }
            v = v * 10 + UInt32(p[k] - 0x30)
            k += 1
        }
        guard k > 0 else { return nil }
        self = v
    }
}
