import AubadeCore
import AubadeHandoff
import AubadeTesting
import Foundation
import Testing

@testable import AubadeWakerFiles

/// The second waker's port over its files (R35): what the clock says in the core's words is what the waker reads
/// in the files' format, and what the waker writes comes back in the core's words, to the millisecond.
@Suite("Second waker: the files behind the port (R35)")
struct WakerFilesTests {
    private static func setup(_ dir: TemporaryDirectory) -> WakerSetup {
        WakerSetup(
            databasePath: dir.file("aubade.sqlite"), device: "default", alternate: "hw:1",
            buttons: [.init(snoozes: true, line: "GPIO17"), .init(snoozes: false, line: "GPIO27")], activeLow: true,
            bias: "pull-up")
    }

    private func read<File>(_ path: String, into file: File, _ reader: (inout File, UnsafeRawBufferPointer) -> Bool) -> File? {
        guard let bytes = FileManager.default.contents(atPath: path) else { return nil }
        var file = file
        return bytes.withUnsafeBytes { reader(&file, $0) } ? file : nil
    }

    @Test func thePlansBoundsAreTheFilesBounds() {
        #expect(WakerPlan.occurrencesPerAlarm == NextAlarmFile.occurrencesPerAlarm)
        #expect(WakerPlan.maxEntries == NextAlarmFile.maxEntries)
    }

    @Test func aPlanIsWrittenAsTheWakerReadsItAndNotWrittenAgainWhenUnchanged() throws {
        let dir = try TemporaryDirectory("waker-files")
        let files = WakerFiles(Self.setup(dir))
        let occurrence = Date(timeIntervalSince1970: 1_795_503_600.123)
        let plan = [
            WakerPlan.Entry(
                alarm: 3, occurrence: occurrence, round: 1, due: occurrence.addingTimeInterval(540), volume: 70,
                durationSeconds: 3600, snoozeSeconds: 540, maxSnoozes: 3, tone: .chime, name: "Work day")
        ]
        files.publish(plan, now: occurrence)
        let path = dir.file("aubade.sqlite.next-alarm")
        let file = try #require(read(path, into: NextAlarmFile()) { $0.read($1) })
        let entry = try #require(file.entries.first)
        #expect(file.entries.count == 1 && entry.alarm == 3 && entry.round == 1 && entry.tone == .chime)
        #expect(entry.occurrence == 1_795_503_600_123 && entry.due == 1_795_504_140_123)
        #expect(entry.volume == 70 && entry.durationSeconds == 3600 && entry.snoozeSeconds == 540 && entry.maxSnoozes == 3)
        #expect(entry.name.string == "Work day" && file.device.string == "default" && file.alternate.string == "hw:1")
        #expect(file.buttons.map { $0.line.string } == ["GPIO17", "GPIO27"] && file.buttons.first?.duty == .snooze)
        #expect(files.problem == nil)
        // The same plan again is not written (R29): the file keeps its first write.
        try FileManager.default.removeItem(atPath: path)
        files.publish(plan, now: occurrence.addingTimeInterval(60))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func notesReachTheHeartbeatInTheirStates() throws {
        let dir = try TemporaryDirectory("waker-files")
        let files = WakerFiles(Self.setup(dir))
        let o = Date(timeIntervalSince1970: 1_795_503_600)
        files.note([
            WakerPlan.Note(alarm: 1, occurrence: o, round: 0, state: .audible, at: o),
            WakerPlan.Note(alarm: 2, occurrence: o, round: 1, state: .snoozed, at: o.addingTimeInterval(5)),
            WakerPlan.Note(alarm: 3, occurrence: o, round: 0, state: .skipped, at: o.addingTimeInterval(6)),
        ])
        let beat = try #require(read(dir.file("aubade.sqlite.heartbeat"), into: HeartbeatFile()) { $0.read($1) })
        let states = Dictionary(uniqueKeysWithValues: beat.records.map { ($0.alarm, $0.state) })
        #expect(states == [1: .audible, 2: .snoozed, 3: .skipped])
        #expect(beat.records.first { $0.alarm == 2 }?.at == 1_795_503_605_000)
    }

    @Test func theWakersStateComesBackInTheCoresWords() throws {
        let dir = try TemporaryDirectory("waker-files")
        let files = WakerFiles(Self.setup(dir))
        #expect(files.report() == nil && files.reportIfChanged() == nil)
        var state = WakerStateFile()
        state.waker = ProcessIdentity.current
        state.graceMilliseconds = 60_000
        state.armed = HandoffEntry(
            alarm: 4, occurrence: 1_795_503_600_000, round: 0, due: 1_795_503_600_000, volume: 60, durationSeconds: 600,
            snoozeSeconds: 540, maxSnoozes: 3, tone: .classic, name: ShortText("Early"))
        state.armedAt = 1_795_503_660_000
        state.snoozed = HandoffEntry(
            alarm: 5, occurrence: 1_795_500_000_000, round: 2, due: 1_795_500_540_000, volume: 60, durationSeconds: 600,
            snoozeSeconds: 540, maxSnoozes: 3, tone: .classic, name: ShortText("Nap"))
        state.remember(
            WakerRing(
                alarm: 5, occurrence: 1_795_500_000_000, round: 1, started: 1_795_500_060_000, ended: 1_795_500_120_500,
                end: .snooze, by: .button, killedDaemon: 4242, device: LongText("hw:0")))
        state.problem = LongText("The sound device default cannot be opened.")
        let writer = TextWriter(capacity: 32 * 1024)
        state.write(to: writer)
        #expect(HandoffIO.replace(dir.file("aubade.sqlite.waker"), with: writer.bytes) == 0)

        let report = try #require(files.reportIfChanged())
        #expect(
            report.running
                && report.armed == WakerReport.Armed(alarm: 4, name: "Early", at: Date(timeIntervalSince1970: 1_795_503_660)))
        #expect(
            report.snoozed
                == WakerReport.Snooze(
                    alarm: 5, occurrence: Date(timeIntervalSince1970: 1_795_500_000), round: 2,
                    ringsAt: Date(timeIntervalSince1970: 1_795_500_600)))
        let ring = try #require(report.rang.first)
        #expect(ring.end == .snooze && ring.by == .button && ring.end.byPerson && ring.killedDaemon == 4242)
        #expect(ring.ended == Date(timeIntervalSince1970: 1_795_500_120.5) && ring.device == "hw:0")
        #expect(ring.key == "5/1795500060000" && report.problem == "The sound device default cannot be opened.")
        // Unchanged since the last look: nothing read; forgotten: read again.
        #expect(files.reportIfChanged() == nil)
        files.forgetLastLook()
        #expect(files.reportIfChanged() == report)
        #expect(SecondWaker.report(databasePath: dir.file("aubade.sqlite")) == report)
    }

    @Test func aFileThatCannotBeWrittenIsAProblemNotAThrow() throws {
        let dir = try TemporaryDirectory("waker-files")
        let missing = WakerSetup(
            databasePath: dir.file("no-such-folder/aubade.sqlite"), device: "default", alternate: "", buttons: [],
            activeLow: true, bias: "")
        let files = WakerFiles(missing)
        files.note([WakerPlan.Note(alarm: 1, occurrence: Date(), round: 0, state: .stopped, at: Date())])
        #expect(files.problem?.hasPrefix("The second waker's heartbeat file") == true)
    }
}
