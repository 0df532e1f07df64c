/// What a button of the clock does to a ring, as far as the second waker cares.
public enum ButtonDuty: UInt8, Sendable {
    case stop, snooze

    public var word: StaticString {
        switch self {
        case .stop: "stop"
        case .snooze: "snooze"
        }
    }
}

/// A GPIO line whose press stops or snoozes a ring: a line name ("GPIO27") or "chip:offset" ("gpiochip0:27").
public struct ButtonLine: Equatable, Sendable {
    public var duty: ButtonDuty
    public var line: LongText

    public init(duty: ButtonDuty, line: LongText) {
        self.duty = duty
        self.line = line
    }
}

/// An output line the waker drives while it rings (a bed shaker, a lamp): its name, line, polarity and pattern.
/// `onMilliseconds` 0 is steady; otherwise it is active `onMilliseconds`, then inactive `offMilliseconds`, from the
/// ring's start (as the core's `OutputPattern`).
public struct OutputLine: Equatable, Sendable {
    /// "shaker" or "lamp".
    public var name: LongText
    public var line: LongText
    public var activeLow: Bool
    public var onMilliseconds: Int64
    public var offMilliseconds: Int64

    public init(name: LongText, line: LongText, activeLow: Bool, onMilliseconds: Int64, offMilliseconds: Int64) {
        self.name = name
        self.line = line
        self.activeLow = activeLow
        self.onMilliseconds = onMilliseconds
        self.offMilliseconds = offMilliseconds
    }

    /// Whether the line is active `elapsed` ms after it was switched on.
    public func isActive(afterMilliseconds elapsed: Int64) -> Bool {
        guard elapsed >= 0 else { return false }
        guard onMilliseconds > 0, offMilliseconds > 0 else { return true }
        return elapsed % (onMilliseconds + offMilliseconds) < onMilliseconds
    }

    /// Milliseconds after the switch-on of the next change of level after `elapsed`; nil for steady.
    public func nextChange(afterMilliseconds elapsed: Int64) -> Int64? {
        guard onMilliseconds > 0, offMilliseconds > 0 else { return nil }
        guard elapsed >= 0 else { return 0 }
        let period = onMilliseconds + offMilliseconds
        let start = elapsed - elapsed % period
        return elapsed % period < onMilliseconds ? start + onMilliseconds : start + period
    }
}

/// `<database>.next-alarm`: what the daemon expects to ring next and how the second waker should sound it
/// (R35). Written by the daemon atomically (temp file, fsync, rename) whenever it changes; read by the waker.
///
/// Format (text, one item a line; times in Unix milliseconds on the daemon's wall clock):
///
///     aubade-next-alarm 1
///     daemon <pid> <start time in clock ticks since boot, /proc/<pid>/stat field 22>
///     written <ms>
///     device <ALSA device name>
///     alternate <ALSA device name, or nothing>
///     buttons <active-low 1|0> <bias: pull-up|pull-down|disable|as-is>
///     button <stop|snooze> <GPIO line: a name, or chip:offset>          (one per button, at most 6)
///     output <shaker|lamp> <active-low 1|0> <on ms> <off ms> <GPIO line>  (one per output, at most 2; on 0: steady)
///     entry <alarm> <occurrence> <round> <due> <volume> <duration s> <snooze s> <max snoozes> <classic|chime|rising> <name>
///     ladder <step s> <louder dB> <rounds> <gap s>                      (the entry above climbs; absent: it lasts its duration)
///     …
///     end
///
/// Entries: every ring the daemon will make — the alarm ringing now, a snooze's end, and the next eight
/// occurrences of each enabled alarm (skipped ones left out) — at most `maxEntries`.
public struct NextAlarmFile: Sendable {
    public static let suffix: StaticString = ".next-alarm"
    public static let magic: StaticString = "aubade-next-alarm"
    public static let maxEntries = 64
    public static let maxButtons = 6
    public static let maxOutputs = 2
    /// Occurrences listed per alarm: a week of a daily alarm, so a daemon that stays down still has its
    /// alarms rung by the waker.
    public static let occurrencesPerAlarm = 8

    /// The process that wrote it.
    public var daemon = ProcessIdentity(pid: 0, startTicks: 0)
    public var written: Int64 = 0
    public var device = LongText()
    public var alternate = LongText()
    public var activeLow = true
    public var bias = LongText()
    /// The stop and snooze buttons. Capacity reserved at `init`, so reading never allocates.
    public var buttons: [ButtonLine]
    /// The outputs the waker drives while it rings. Capacity reserved at `init`.
    public var outputs: [OutputLine]
    /// The rings, in the order written. Capacity reserved at `init`, so reading never allocates.
    public var entries: [HandoffEntry]

    public init() {
        entries = []
        entries.reserveCapacity(NextAlarmFile.maxEntries)
        buttons = []
        buttons.reserveCapacity(NextAlarmFile.maxButtons)
        outputs = []
        outputs.reserveCapacity(NextAlarmFile.maxOutputs)
        bias = LongText("pull-up")
    }

    /// Whether `other` says the same as this one, whoever wrote it and when.
    public func sameContent(as other: NextAlarmFile) -> Bool {
        device == other.device && alternate == other.alternate && activeLow == other.activeLow && bias == other.bias
            && buttons == other.buttons && outputs == other.outputs && entries == other.entries
    }

    /// Writes the file's text into `w` (which is reset first).
    public func write(to w: TextWriter) {
        w.reset()
        w.text("aubade-next-alarm 1\ndaemon ")
        w.int(Int64(daemon.pid))
        w.byte(UInt8(ascii: " "))
        w.int(Int64(daemon.startTicks))
        w.text("\nwritten ")
        w.int(written)
        w.text("\ndevice ")
        w.text(device)
        w.text("\nalternate ")
        w.text(alternate)
        w.text("\nbuttons ")
        w.text(activeLow ? "1 " : "0 ")
        w.text(bias)
        w.byte(UInt8(ascii: "\n"))
        for b in buttons.prefix(NextAlarmFile.maxButtons) {
            w.text("button ")
            w.text(b.duty.word)
            w.byte(UInt8(ascii: " "))
            w.text(b.line)
            w.byte(UInt8(ascii: "\n"))
        }
        for o in outputs.prefix(NextAlarmFile.maxOutputs) {
            w.text("output ")
            w.text(o.name)
            w.text(o.activeLow ? " 1 " : " 0 ")
            w.int(o.onMilliseconds)
            w.byte(UInt8(ascii: " "))
            w.int(o.offMilliseconds)
            w.byte(UInt8(ascii: " "))
            w.text(o.line)
            w.byte(UInt8(ascii: "\n"))
        }
        for e in entries.prefix(NextAlarmFile.maxEntries) {
            e.write(to: w)
        }
        w.text("end\n")
    }

    /// Replaces this value with the file in `text`. False (this value then empty) when it is not a complete
    /// file of this version; unknown lines are skipped (a newer daemon may add some) and bad entries dropped.
    /// Never allocates: the arrays keep the capacity reserved at `init`.
    public mutating func read(_ text: UnsafeRawBufferPointer) -> Bool {
        entries.removeAll(keepingCapacity: true)
        buttons.removeAll(keepingCapacity: true)
        outputs.removeAll(keepingCapacity: true)
        daemon = ProcessIdentity(pid: 0, startTicks: 0)
        written = 0
        device.removeAll()
        alternate.removeAll()
        activeLow = true
        bias.removeAll()
        guard HandoffLine.isComplete(text, magic: NextAlarmFile.magic) else { return false }
        // A ladder line belongs to the entry line just above it, when that one was kept.
        var lastKept = false
        HandoffLine.forEach(in: text) { line in
            let afterKeptEntry = lastKept
            lastKept = false
            if line.isKey("daemon"), let pid = line.int(0), let start = line.int(1) {
                daemon = ProcessIdentity(pid: Int32(truncatingIfNeeded: pid), startTicks: UInt64(max(0, start)))
            } else if line.isKey("written"), let ms = line.int(0) {
                written = ms
            } else if line.isKey("device") {
                device.set(line.rest(0))
            } else if line.isKey("alternate") {
                alternate.set(line.rest(0))
            } else if line.isKey("buttons") {
                activeLow = line.int(0) != 0
                bias.set(line.rest(1))
            } else if line.isKey("button"), buttons.count < NextAlarmFile.maxButtons {
                let duty: ButtonDuty? = line.fieldIs(0, "stop") ? .stop : line.fieldIs(0, "snooze") ? .snooze : nil
                var name = LongText()
                name.set(line.rest(1))
                if let duty, !name.isEmpty { buttons.append(ButtonLine(duty: duty, line: name)) }
            } else if line.isKey("output"), outputs.count < NextAlarmFile.maxOutputs,
                let activeLow = line.int(1), let on = line.int(2), let off = line.int(3), on >= 0, off >= 0
            {
                var name = LongText()
                if let field = line.field(0) { name.set(field) }
                var lineName = LongText()
                lineName.set(line.rest(4))
                if !name.isEmpty, !lineName.isEmpty {
                    outputs.append(
                        OutputLine(
                            name: name, line: lineName, activeLow: activeLow != 0, onMilliseconds: on, offMilliseconds: off))
                }
            } else if line.isKey("entry") {
                if let e = HandoffEntry(line), entries.count < NextAlarmFile.maxEntries {
                    entries.append(e)
                    lastKept = true
                }
            } else if line.isKey("ladder"), afterKeptEntry, let ladder = HandoffLadder(line) {
                entries[entries.count - 1].ladder = ladder
            }
            return true
        }
        return true
    }
}
