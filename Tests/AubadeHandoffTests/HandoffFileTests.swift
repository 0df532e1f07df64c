import AubadeHandoff
import Glibc
import Testing

/// The three handoff files (R35): each written and read back field for field; a file cut short anywhere — a
/// torn write, a full disk — never half-believed; unknown lines skipped and bad entries dropped; the atomic
/// replace leaves no temporary file; and the config's database path found without a TOML library.
@Suite("Second waker: the handoff files (R35)")
struct HandoffFileTests {
    static func sample() -> NextAlarmFile {
        var f = NextAlarmFile()
        f.daemon = ProcessIdentity(pid: 4242, startTicks: 987_654)
        f.written = 1_764_057_000_123
        f.device = LongText("plughw:CARD=Headphones")
        f.alternate = LongText("file:'/tmp/a b.raw',raw")
        f.activeLow = false
        f.bias = LongText("pull-down")
        f.buttons = [
            ButtonLine(duty: .stop, line: LongText("GPIO27")), ButtonLine(duty: .snooze, line: LongText("gpiochip0:17")),
        ]
        f.outputs = [
            OutputLine(
                name: LongText("shaker"), line: LongText("GPIO16"), activeLow: false, onMilliseconds: 500, offMilliseconds: 250),
            OutputLine(
                name: LongText("lamp"), line: LongText("gpiochip0:20"), activeLow: true, onMilliseconds: 0, offMilliseconds: 0),
        ]
        f.entries = [
            HandoffEntry(
                alarm: 1, occurrence: 1_764_057_600_000, due: 1_764_057_600_000, volume: 90, durationSeconds: 900,
                snoozeSeconds: 540, maxSnoozes: 3, tone: .classic, name: ShortText("Work day")),
            HandoffEntry(
                alarm: 7, occurrence: 1_764_050_400_000, round: 2, due: 1_764_051_480_000, volume: 55,
                durationSeconds: 60, snoozeSeconds: 300, maxSnoozes: 5, tone: .rising, name: ShortText("Flight ✈ early"),
                ladder: HandoffLadder(stepSeconds: 180, louderDB: 6, rounds: 3, gapSeconds: 300)),
        ]
        return f
    }

    static func text(_ write: (TextWriter) -> Void) -> [UInt8] {
        let w = TextWriter(capacity: 16_384)
        write(w)
        #expect(!w.overflowed)
        return Array(w.bytes)
    }

    @Test func theNextAlarmFileReadsBackAsWritten() {
        let f = Self.sample()
        let bytes = Self.text(f.write)
        var back = NextAlarmFile()
        #expect(bytes.withUnsafeBytes { back.read($0) })
        #expect(back.daemon == f.daemon && back.written == f.written)
        #expect(back.sameContent(as: f))
        #expect(back.entries[1].name.string == "Flight ✈ early" && back.entries[1].tone == .rising)
        #expect(back.alternate.string == "file:'/tmp/a b.raw',raw")
        #expect(back.outputs == f.outputs)
        #expect(back.entries[0].ladder == .none && back.entries[1].ladder == f.entries[1].ladder)
        #expect(Self.string(bytes).contains("✈ early\nladder 180 6 3 300\n"))
        #expect(back.outputs.map { $0.line.string } == ["GPIO16", "gpiochip0:20"])
    }

    /// The waker's outputs follow the same pattern as the daemon's (`OutputPattern`): a pulse active `on` ms from
    /// each period's start, inactive `off` ms; steady (on 0) always active; nothing before the switch-on.
    @Test func anOutputLinesPatternFromTheRingsStart() {
        let pulse = OutputLine(
            name: LongText("shaker"), line: LongText("GPIO16"), activeLow: false, onMilliseconds: 400, offMilliseconds: 100)
        #expect(
            [0, 399, 400, 499, 500, 899, 900].map { pulse.isActive(afterMilliseconds: $0) } == [
                true, true, false, false, true, true, false,
            ])
        #expect([0, 399, 400, 499, 500].map { pulse.nextChange(afterMilliseconds: $0) } == [400, 400, 500, 500, 900])
        #expect(!pulse.isActive(afterMilliseconds: -1))
        let steady = OutputLine(
            name: LongText("lamp"), line: LongText("GPIO20"), activeLow: true, onMilliseconds: 0, offMilliseconds: 0)
        #expect(steady.isActive(afterMilliseconds: 86_400_000) && steady.nextChange(afterMilliseconds: 5) == nil)
    }

    @Test func aFileCutShortAnywhereIsRefused() {
        let bytes = Self.text(Self.sample().write)
        var back = NextAlarmFile()
        for cut in 0..<bytes.count - 1 {
            let ok = bytes[0..<cut].withUnsafeBytes { back.read($0) }
            #expect(!ok, "a file cut at byte \(cut) of \(bytes.count) was believed")
            #expect(back.entries.isEmpty)
        }
        // Without its final newline it is still whole: the "end" line is there.
        #expect(bytes[0..<(bytes.count - 1)].withUnsafeBytes { back.read($0) })
    }

    static func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// A `ladder` line belongs to the entry line just above it: one after a dropped entry, or anywhere else, is
    /// nobody's; an entry without one (a file of a daemon before ladders) rings for its duration.
    @Test func aLadderLineBelongsToTheEntryAboveIt() {
        let text = """
            aubade-next-alarm 1
            ladder 60 6 2 300
            entry 1 1000 0 1000 90 600 540 3 classic Old style
            entry 2 1000 0 1000 90 600 540 3 classic Climbs
            ladder 60 6 2 300
            entry 3 1000 0 1000 190 600 540 3 classic dropped
            ladder 30 6 1 300
            entry 4 1000 0 1000 90 600 540 3 classic Bad ladder
            ladder 0 6 1 300
            end

            """
        var f = NextAlarmFile()
        #expect(Array(text.utf8).withUnsafeBytes { f.read($0) })
        #expect(f.entries.map(\.alarm) == [1, 2, 4])
        #expect(
            f.entries.map(\.ladder) == [.none, HandoffLadder(stepSeconds: 60, louderDB: 6, rounds: 2, gapSeconds: 300), .none])
        #expect(f.entries[0].endsAt(grace: 0) == 1000 + 600_000, "no ladder: its duration")
        #expect(f.entries[1].endsAt(grace: 0) == 1000 + 960_000, "the climb, two rests and two rounds")
    }

    @Test func unknownLinesAreSkippedAndBadEntriesDropped() {
        let text = """
            aubade-next-alarm 1
            daemon 12 34
            written 5
            colour blue
            entry 1 1000 0 1000 90 600 540 3 classic Good
            entry 2 1000 0 1000 190 600 540 3 classic volume out of range
            entry 3 1000 0 1000 90 600 540 3 trumpet unknown tone
            entry 4 x 0 1000 90 600 540 3 classic not a number
            entry 5 1000 0 1000 90
            end

            """
        var f = NextAlarmFile()
        #expect(Array(text.utf8).withUnsafeBytes { f.read($0) })
        #expect(f.entries.map { $0.alarm } == [1])
        #expect(f.entries[0].name.string == "Good")
        let otherVersion = text.replacing("aubade-next-alarm 1", with: "aubade-next-alarm 2")
        #expect(!Array(otherVersion.utf8).withUnsafeBytes { f.read($0) })
    }

    @Test func theHeartbeatKeepsTheLatestRecordPerAlarm() {
        var h = HeartbeatFile()
        h.note(HeartbeatRecord(alarm: 1, occurrence: 1000, round: 0, state: .audible, at: 1001))
        h.note(HeartbeatRecord(alarm: 2, occurrence: 5000, round: 0, state: .skipped, at: 5000))
        h.note(HeartbeatRecord(alarm: 1, occurrence: 1000, round: 0, state: .snoozed, at: 2000))
        // A late report about an older occurrence never replaces a newer one.
        h.note(HeartbeatRecord(alarm: 2, occurrence: 4000, round: 0, state: .audible, at: 6000))
        #expect(h.records.map { $0.alarm } == [1, 2])
        #expect(h.records[0].state == .snoozed && h.records[1].state == .skipped)
        // Records two days older than the newest are dropped.
        h.note(HeartbeatRecord(alarm: 3, occurrence: 1000 + HeartbeatFile.keepMilliseconds + 1, round: 0, state: .stopped, at: 0))
        #expect(h.records.map { $0.alarm } == [2, 3])
        let bytes = Self.text(h.write)
        var back = HeartbeatFile()
        #expect(bytes.withUnsafeBytes { back.read($0) })
        #expect(back.records == h.records)
    }

    @Test func theWakersStateReadsBackAsWritten() {
        var s = WakerStateFile()
        s.waker = ProcessIdentity(pid: 99, startTicks: 12)
        s.graceMilliseconds = 5_000
        s.read = 777
        var armed = Self.sample().entries[0]
        armed.due = 1_764_057_600_000
        s.armed = armed
        s.armedAt = armed.ringsAt(grace: 5_000)
        s.ringing = WakerRing(alarm: 1, occurrence: 10, round: 0, started: 20, device: LongText("default"))
        s.snoozed = Self.sample().entries[1]
        s.quietThrough = 30
        for i in 0..<10 {
            s.remember(
                WakerRing(
                    alarm: Int64(i), occurrence: 10, round: 0, started: 20, ended: 40, end: .stop, by: .button,
                    killedDaemon: i == 9 ? 4242 : 0, device: LongText("hw:0")))
        }
        s.problem = LongText("The sound device default cannot be opened.")
        let bytes = Self.text(s.write)
        var back = WakerStateFile()
        #expect(bytes.withUnsafeBytes { back.read($0) })
        #expect(back.waker == s.waker && back.graceMilliseconds == 5_000 && back.read == 777)
        #expect(back.armed?.alarm == 1 && back.armedAt == s.armedAt && back.armed?.name.string == "Work day")
        #expect(back.ringing == s.ringing && back.snoozed == s.snoozed && back.quietThrough == 30)
        #expect(back.snoozed?.ladder.isOn == true, "the snoozed ring keeps its ladder")
        #expect(back.rang == s.rang && back.rang.count == WakerStateFile.maxRings && back.rang.first?.alarm == 2)
        #expect(back.rang.last?.killedDaemon == 4242 && back.rang.last?.by == .button)
        #expect(back.problem == s.problem)
    }

    @Test func theAtomicReplaceLeavesTheNewFileAndNoTemporaryOne() throws {
        var template = Array("/tmp/aubade-handoff-XXXXXX".utf8CString)
        let dir = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        defer { _ = rmdir(dir) }
        let path = dir + "/clock.sqlite.next-alarm"
        let first = Self.text(Self.sample().write)
        #expect(first.withUnsafeBytes { HandoffIO.replace(path, with: $0) } == 0)
        var second = Self.sample()
        second.entries.removeLast()
        let secondBytes = Self.text(second.write)
        #expect(secondBytes.withUnsafeBytes { HandoffIO.replace(path, with: $0) } == 0)
        var buffer = [UInt8](repeating: 0, count: 8192)
        let n = buffer.withUnsafeMutableBytes { HandoffIO.read(path, into: $0) }
        #expect(Array(buffer[0..<max(0, n)]) == secondBytes)
        #expect(access(path + ".tmp", F_OK) != 0)
        var small = [UInt8](repeating: 0, count: 16)
        #expect(small.withUnsafeMutableBytes { HandoffIO.read(path, into: $0) } == -Int(EFBIG))
        #expect(buffer.withUnsafeMutableBytes { HandoffIO.read(dir + "/missing", into: $0) } == -Int(ENOENT))
        #expect(unlink(path) == 0)
    }

    @Test func processIdentitiesTellAProcessFromALaterOneWithItsNumber() {
        let me = ProcessIdentity.current
        #expect(me.pid == getpid() && me.startTicks > 0 && me.isAlive)
        #expect(!ProcessIdentity(pid: me.pid, startTicks: me.startTicks + 1).isAlive)
        #expect(!ProcessIdentity(pid: 0, startTicks: 0).isAlive)
    }

    static let configs: [(text: String, database: String?)] = [
        ("", nil),
        ("[paths]\ndatabase = \"/var/lib/x.sqlite\"\n", "/var/lib/x.sqlite"),
        ("[paths]\n# database = \"/commented\"\n", nil),
        ("  [ paths ]  \r\n  database='/lit\\eral' # a comment\r\n", "/lit\\eral"),
        ("paths.database = \"/top/dotted\"\n[audio]\ndevice = \"x\"\n", "/top/dotted"),
        ("[audio]\npaths.database = \"/not/this\"\n", nil),
        ("[audio]\ndatabase = \"/not/this\"\n[paths]\ndatabase = \"/esc\\\"aped\"\n", "/esc\"aped"),
        ("[paths]\ndatabase = 42\n", nil),
        ("[paths]\ndatabase = \"/unterminated\n", nil),
        ("[paths]\n\"database\" = \"/quoted/key\"\n", "/quoted/key"),
        ("[[paths]]\ndatabase = \"/array/of/tables\"\n", nil),
    ]

    @Test(arguments: configs)
    func theConfigsDatabaseIsFoundWithoutATOMLLibrary(text: String, database: String?) {
        let found = Array(text.utf8).withUnsafeBytes { ConfigDatabase.find(in: $0) }
        #expect(found?.string == database, "\(text.debugDescription)")
    }

    static let instants: [(ms: Int64, text: String)] = [
        (0, "1970-01-01T00:00:00Z"), (1_764_057_600_999, "2025-11-25T08:00:00Z"), (951_782_400_000, "2000-02-29T00:00:00Z"),
        (4_107_542_399_000, "2100-02-28T23:59:59Z"), (-1_000, "1969-12-31T23:59:59Z"),
    ]

    @Test(arguments: instants)
    func instantsAreWrittenInISO8601(ms: Int64, text: String) {
        let w = TextWriter(capacity: 64)
        w.iso8601(milliseconds: ms)
        #expect(w.string == text)
    }
}
