import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import Synchronization
import Testing

/// The clock decides every input to the end without waiting: an edit's commit, a calendar's download are work it
/// hands off, and their results come back as inputs of their own. So an alarm's second, a button or a Stop is
/// decided while such work is out — on the real store (a SQLite file) whose calls a gate holds as a dying card or a
/// locked database would, and a calendar download held the same way. Nothing here measures wall time: the gates say
/// what is out, and the order of what happened is asserted.
@Suite("Daemon decisions: work in flight never holds an input back")
struct InterleavingTests {
    @Test func anEditInFlightWhenTheAlarmsSecondComesLetsItRingOnTimeAndIsAnsweredAfter() async throws {
        let rig = try Rig()
        await rig.clock.start()
        await rig.base.run(until: ClockRig.at(6, 59, 59))
        rig.storeGate.hold()
        let edit = Task {
            try await rig.clock.handle(.edit(.addAlarm(AlarmPatch(name: "Later", time: "08:00", days: "daily"))))
        }
        try await rig.storeGate.waitUntilEntered()

        await rig.base.advance(to: ClockRig.at(7, 0))
        #expect(rig.sounded, "the alarm sounds at its second while the edit's commit is held")
        let ringing = try #require(rig.base.lines.all.first { $0.contains("\"event\":\"ringing\"") })
        #expect(ringing.contains("\"late\":false"))
        #expect(!rig.storeGate.passed, "the edit is still out")

        rig.storeGate.release()
        guard case .edited(let result) = try await edit.value, case .alarm(let added) = result.outcome else {
            Issue.record("the edit was not answered with the alarm it saved")
            return
        }
        #expect(added.name == "Later")
        let lines = rig.base.lines.all
        let rang = try #require(lines.firstIndex { $0.contains("\"event\":\"ringing\"") })
        let edited = try #require(lines.firstIndex { $0.contains("\"event\":\"edit\"") })
        #expect(rang < edited, "the ring was decided before the edit's commit came back")
        guard case .status(let status) = try await rig.clock.handle(.status) else { throw RigError("no status") }
        #expect(status.ringing?.id == 1, "the alarm still rings")
        #expect(try rig.store.alarms().map(\.name).sorted() == ["Later", "Wake"], "both the edit and the alarm's run landed")
    }

    @Test func aStopPressedWhileACalendarDownloadIsInFlightSilencesAtOnce() async throws {
        let rig = try Rig()
        await rig.clock.start()
        await rig.base.run(until: ClockRig.at(7, 0))
        #expect(rig.sounded)
        rig.downloadGate.hold()
        let url = try StreamURL(parsing: "http://calendars.test/radio.ics")
        let importing = Task { () -> Result<EditResult, ClockError> in
            do throws(ClockError) {
                return .success(try await rig.clock.importCalendar(from: url, kind: .programmes, station: nil))
            } catch {
                return .failure(error)
            }
        }
        try await rig.downloadGate.waitUntilEntered()

        let stopped = try await rig.clock.handle(.stop(alarm: nil, by: .cli))
        #expect(stopped.message == "Stopped.")
        #expect(rig.base.sound.calls.contains { if case .stop = $0 { true } else { false } }, "the sound was stopped")
        #expect(!rig.downloadGate.passed, "while the download is still out")

        rig.downloadGate.release()
        guard case .failure(let error) = await importing.value else {
            Issue.record("the held download answers with its failure")
            return
        }
        #expect(error.message.contains("The test server went away."), "\(error.message)")
        let lines = rig.base.lines.all
        let dismissed = try #require(lines.firstIndex { $0.contains("\"event\":\"dismissed\"") })
        #expect(!lines[..<dismissed].contains { $0.contains("\"event\":\"calendar\"") })
        guard case .status(let status) = try await rig.clock.handle(.status) else { throw RigError("no status") }
        #expect(status.ringing == nil)
    }

    @Test func aStoreThatTakesFiveSecondsOverAnEditNeverDelaysARing() async throws {
        let rig = try Rig(slowApply: .seconds(5))
        await rig.clock.start()
        await rig.base.run(until: ClockRig.at(6, 59, 59))
        let edit = Task { try await rig.clock.handle(.edit(.addAlarm(AlarmPatch(name: "Later", time: "08:00", days: "daily")))) }
        try await rig.storeGate.waitUntilEntered()
        await rig.base.advance(to: ClockRig.at(7, 0))
        #expect(rig.sounded)
        #expect(!rig.storeGate.passed, "the ring sounded while the store was still inside the edit")
        _ = try await edit.value
        #expect(rig.storeGate.passed)
        let ringing = try #require(rig.base.lines.all.first { $0.contains("\"event\":\"ringing\"") })
        #expect(ringing.contains("\"late\":false"))
    }

    /// The running clock on a SQLite file holding one alarm at 07:00 ("Wake"), its store's edits and its calendar
    /// downloads behind gates.
    struct Rig {
        let dir: TemporaryDirectory
        let store: Store
        let base: RunningClockRig<HeldStore>
        let storeGate: Gate
        let downloadGate: Gate

        init(slowApply: Duration? = nil) throws {
            dir = try TemporaryDirectory("interleaving")
            let time = ManualClock(wall: ClockRig.morning)
            store = try Store.open(path: dir.file("aubade.sqlite"), now: { time.now().wall })
            var wake = ClockRig.alarm(1, 7, 0)
            wake.name = "Wake"
            _ = try store.insert(wake)
            (storeGate, downloadGate) = (Gate(pause: slowApply), Gate(pause: nil))
            base = try RunningClockRig(
                store: HeldStore(SQLiteClockStore(store), gate: storeGate), time: time,
                fetcher: HeldCalendar(gate: downloadGate))
        }

        var clock: RunningClock { base.clock }

        var sounded: Bool {
            base.sound.calls.contains { call in
                switch call {
                case .begin, .play(_, _, paused: false): true
                default: false
                }
            }
        }
    }

    /// Holds the thread that passes it — until released, or for `pause` — and says whether one entered and passed.
    final class Gate: Sendable {
        private let state = Mutex<(held: Bool, entered: Bool, passed: Bool)>((false, false, false))
        private let pause: Duration?

        init(pause: Duration?) {
            self.pause = pause
            if pause != nil { state.withLock { $0.held = true } }
        }

        func hold() { state.withLock { $0.held = true } }
        func release() { state.withLock { $0.held = false } }
        var passed: Bool { state.withLock { $0.passed } }

        /// On the thread doing the work (the store's, a download's).
        func pass() {
            let held = state.withLock { s -> Bool in
                guard s.held else { return false }
                s.entered = true
                return true
            }
            guard held else { return }
            if let pause {
                Thread.sleep(forTimeInterval: pause.inSeconds)
            } else {
                while state.withLock({ $0.held }) { Thread.sleep(forTimeInterval: 0.005) }
            }
            state.withLock { $0.passed = true }
        }

        /// Waits (a generous watchdog, not a time bound) until the work has entered the gate.
        func waitUntilEntered() async throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while !state.withLock({ $0.entered }) {
                guard ContinuousClock.now < deadline else { throw RigError("the work never reached the gate") }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    /// The real store, its edits (`apply`) behind a gate.
    final class HeldStore: ClockStore {
        let inner: SQLiteClockStore
        let gate: Gate

        init(_ inner: SQLiteClockStore, gate: Gate) {
            self.inner = inner
            self.gate = gate
        }

        func apply(_ edit: ClockEdit, zone: TimeZone, now: Date) throws(StoreError) -> EditOutcome {
            gate.pass()
            return try inner.apply(edit, zone: zone, now: now)
        }
        func load() throws(StoreError) -> StoredClock { try inner.load() }
        func save(_ state: AlarmRunState) throws(StoreError) { try inner.save(state) }
        func save(_ state: AlarmRunState, recording event: HistoryEvent?) throws(StoreError) {
            try inner.save(state, recording: event)
        }
        func update(_ alarm: Alarm) throws(StoreError) { try inner.update(alarm) }
        func record(_ event: HistoryEvent) throws(StoreError) { try inner.record(event) }
        func events(limit: Int, since: Date) throws(StoreError) -> [HistoryEvent] { try inner.events(limit: limit, since: since) }
        func dataVersion() throws(StoreError) -> Int64? { try inner.dataVersion() }
        var readOnlyReason: String? { inner.readOnlyReason }
        func checkFile() -> String? { inner.checkFile() }
        func tokens() throws(StoreError) -> [AccessToken] { try inner.tokens() }
        func createToken(name: String?, replacing: Bool) throws(StoreError) -> (token: AccessToken, secret: String) {
            try inner.createToken(name: name, replacing: replacing)
        }
        func tokenUsed(id: Int64, at: Date) throws(StoreError) { try inner.tokenUsed(id: id, at: at) }
    }

    /// A calendar download held at its gate, then failing as a server that went away does.
    struct HeldCalendar: CalendarFetcher {
        let gate: Gate

        func load(
            _ source: CalendarOrigin, kind: CalendarImport.Kind, station: String?, zone: TimeZone, now: Date,
            known: CalendarSource?
        ) throws(CalendarFetchError) -> CalendarImport {
            gate.pass()
            throw CalendarFetchError(.failed, "The test server went away.")
        }
    }
}
