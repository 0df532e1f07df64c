import AubadeCore
import AubadeHandoff
import Foundation
import Glibc

/// What the daemon tells the second waker besides its alarms: the sound device and the stop and snooze
/// buttons, from the config (`aubade run` fills it in; in-process tests leave it out and no file is written).
public struct WakerSetup: Sendable, Hashable {
    public struct Button: Sendable, Hashable {
        /// Whether a short press snoozes (else it stops).
        public var snoozes: Bool
        /// A line name ("GPIO27") or "chip:offset".
        public var line: String

        public init(snoozes: Bool, line: String) {
            self.snoozes = snoozes
            self.line = line
        }
    }

    public var databasePath: String
    public var device: String
    public var alternate: String
    public var buttons: [Button]
    public var activeLow: Bool
    public var bias: String

    public init(databasePath: String, device: String, alternate: String, buttons: [Button], activeLow: Bool, bias: String) {
        self.databasePath = databasePath
        self.device = device
        self.alternate = alternate
        self.buttons = buttons
        self.activeLow = activeLow
        self.bias = bias
    }
}

/// The daemon's side of the second waker (R35), owned by `AlarmRunner` on the clock's thread:
/// - `<db>.next-alarm`, rewritten atomically (temp, fsync, rename — `HandoffIO`) whenever what the daemon will
///   ring changes: after a turn, an edit, an input (`publish`; an unchanged list is not written, R29);
/// - `<db>.heartbeat`, rewritten when a ring becomes audible (verified sound on the card, R16) or is snoozed,
///   stopped or skipped (`note`);
/// - `<db>.waker`, the waker's own state, read for the status and, when it changed, for the rings the waker
///   made: each goes into the history (the morning report says "the daemon did not answer; the second waker
///   rang"), and one a person ended there ends the daemon's ring of that occurrence too.
/// A file that cannot be written is a standing warning: the waker would then ring beside a healthy daemon.
final class WakerHandoff {
    let setup: WakerSetup
    let nextAlarmPath: String
    let heartbeatPath: String
    let wakerPath: String
    private let identity = ProcessIdentity.current
    private var written: NextAlarmFile?
    private var heartbeat = HeartbeatFile()
    private let writer = TextWriter(capacity: 32 * 1024)
    /// The waker's file as last read: its modification time and size.
    private var wakerStamp: (Int, Int, Int)?
    /// The waker's rings already in the history ("<alarm>/<started ms>").
    var absorbed: Set<String>?
    /// Why a file could not be written, if the last attempt failed.
    private(set) var problem: String?

    init(_ setup: WakerSetup) {
        self.setup = setup
        nextAlarmPath = HandoffIO.path(database: setup.databasePath, suffix: NextAlarmFile.suffix)
        heartbeatPath = HandoffIO.path(database: setup.databasePath, suffix: HeartbeatFile.suffix)
        wakerPath = HandoffIO.path(database: setup.databasePath, suffix: WakerStateFile.suffix)
        if let bytes = WakerHandoff.read(heartbeatPath) {
            var old = HeartbeatFile()
            if bytes.withUnsafeBytes({ old.read($0) }) { heartbeat = old }
        }
    }

    static func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

    /// Writes the next-alarm file when `entries` (or the first write since start) differ from what was written.
    func publish(_ entries: [HandoffEntry], now: Date) {
        var file = NextAlarmFile()
        file.daemon = identity
        file.written = WakerHandoff.ms(now)
        file.device = LongText(setup.device)
        file.alternate = LongText(setup.alternate)
        file.activeLow = setup.activeLow
        file.bias = LongText(setup.bias)
        file.buttons = setup.buttons.prefix(NextAlarmFile.maxButtons).map {
            ButtonLine(duty: $0.snoozes ? .snooze : .stop, line: LongText($0.line))
        }
        file.entries = Array(entries.prefix(NextAlarmFile.maxEntries))
        if let written, written.sameContent(as: file) { return }
        file.write(to: writer)
        if save(nextAlarmPath, what: "next-alarm") { written = file }
    }

    /// Records in the heartbeat what the daemon did with rings; one write for them all.
    func note(_ records: [HeartbeatRecord]) {
        guard !records.isEmpty else { return }
        for r in records { heartbeat.note(r) }
        heartbeat.write(to: writer)
        _ = save(heartbeatPath, what: "heartbeat")
    }

    private func save(_ path: String, what: String) -> Bool {
        let rc = HandoffIO.replace(path, with: writer.bytes)
        if rc == 0 {
            problem = nil
            return true
        }
        problem =
            "The second waker's \(what) file \(path) cannot be written (\(String(cString: strerror(rc)))); it may ring beside the clock or miss a change."
        return false
    }

    /// The waker's state when its file changed since the last look (a `stat`, no read, when it did not).
    func wakerStateIfChanged() -> WakerStateFile? {
        var st = stat()
        guard stat(wakerPath, &st) == 0 else { return nil }
        let stamp = (st.st_mtim.tv_sec, st.st_mtim.tv_nsec, Int(st.st_size))
        if let old = wakerStamp, old == stamp { return nil }
        wakerStamp = stamp
        return WakerHandoff.wakerState(wakerPath)
    }

    /// Forgets the waker's file as last seen, so the next look reads it again.
    func forgetWakerStamp() { wakerStamp = nil }

    static func wakerState(_ path: String) -> WakerStateFile? {
        guard let bytes = read(path) else { return nil }
        var state = WakerStateFile()
        return bytes.withUnsafeBytes { state.read($0) } ? state : nil
    }

    static func read(_ path: String) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let n = buffer.withUnsafeMutableBytes { HandoffIO.read(path, into: $0) }
        return n >= 0 ? Array(buffer[0..<n]) : nil
    }
}

/// The second waker as `aubade status`, `doctor` and `stop` see it, from its state file beside the database.
public enum SecondWaker {
    /// Its state now: running or not, armed for which ring, ringing.
    public static func status(databasePath: String) -> DaemonStatus.Waker {
        let path = HandoffIO.path(database: databasePath, suffix: WakerStateFile.suffix)
        guard let state = WakerHandoff.wakerState(path), state.waker.isAlive else {
            return DaemonStatus.Waker(running: false)
        }
        var w = DaemonStatus.Waker(running: true)
        if let armed = state.armed {
            w.armedAlarm = armed.alarm
            w.armedAlarmName = armed.name.isEmpty ? nil : armed.name.string
            w.armedAt = WakerHandoff.date(state.armedAt)
        }
        if let ringing = state.ringing {
            w.ringingAlarm = ringing.alarm
            w.ringingSince = WakerHandoff.date(ringing.started)
        }
        w.problem = state.problem.isEmpty ? nil : state.problem.string
        return w
    }

    /// Stops (or snoozes) the waker's ring, if it rings (alarm `alarm`, when given): SIGUSR1 (SIGUSR2) to that
    /// process — named by pid and start time, never a stranger. True when a ring was told to end.
    public static func interrupt(databasePath: String, snooze: Bool, alarm: Int64? = nil) -> Bool {
        let path = HandoffIO.path(database: databasePath, suffix: WakerStateFile.suffix)
        guard let state = WakerHandoff.wakerState(path), let ringing = state.ringing, state.waker.isAlive,
            alarm == nil || alarm == ringing.alarm
        else { return false }
        return kill(state.waker.pid, snooze ? SIGUSR2 : SIGUSR1) == 0
    }
}
