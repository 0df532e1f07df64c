import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeTesting
import Dispatch
import Foundation
import Synchronization
import Testing

/// Nothing the store does may hold a ring back: the store runs on its own thread, and the clock waits for it at
/// most `StoreWorker.bound` (half a second) — a commit that cannot finish in time lets the ring go ahead and
/// lands later; a database file that hangs when looked at (reopened after it was emptied, waiting on a lock)
/// stalls nothing but the store. A ring that does begin late says so.
@Suite("Daemon decisions: the store never holds a ring back")
struct StoreBoundTests {
    @Test func aCommitThatDoesNotReturnLetsTheRingGoAheadAndLandsLater() async throws {
        let gate = StoreGate()
        let rig = try Self.rig([ClockRig.alarm(1, 7, 0)], gate: gate)
        await rig.start()
        await rig.run(until: ClockRig.at(6, 59, 59))
        gate.hold(.save)
        await rig.advance(to: ClockRig.at(7, 0))
        let sounded = rig.sound.calls.contains { call in
            switch call {
            case .begin, .play(_, _, paused: false): true
            default: false
            }
        }
        #expect(sounded, "the alarm sounds while its commit has not returned")
        #expect(rig.store.data.states.first?.phase != .ringing, "the commit is still held")
        #expect(await rig.live().warnings.contains { $0.contains("did not answer") })
        gate.release()
        try await waitUntil { rig.store.data.states.first?.phase == .ringing }
        #expect(rig.store.history.map(\.kind).contains("rang"), "the state and its event landed")
        await rig.advance(to: ClockRig.at(7, 0, 1))
        #expect(!(await rig.live().warnings.contains { $0.contains("did not answer") }), "the warning goes once it answers")
    }

    @Test func aDatabaseThatHangsWhenLookedAtHoldsNoRingBack() async throws {
        let gate = StoreGate()
        let rig = try Self.rig([ClockRig.alarm(1, 7, 0)], gate: gate)
        await rig.start()
        await rig.run(until: ClockRig.at(6, 59, 40))
        // The file was emptied: reopening it waits on "database is locked" (the store's thread is stuck there).
        gate.hold(.checkFile)
        await rig.advance(to: ClockRig.at(6, 59, 50))
        await rig.run(until: ClockRig.at(7, 0))
        #expect(
            rig.sound.calls.contains { if case .begin = $0 { true } else { false } }, "the pre-rolled alarm begins at its second")
        let ringing = try #require(rig.lines.all.first { $0.contains("\"event\":\"ringing\"") })
        #expect(ringing.contains("\"late\":false"))
        gate.release()
        try await waitUntil { rig.store.data.states.first?.phase == .ringing }
    }

    @Test func aRingThatBeginsLateSaysSoInItsLineAndTheHistory() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0), ClockRig.alarm(2, 8, 0)])
        await rig.start()
        await rig.run(until: ClockRig.at(6, 59, 58))
        await rig.advance(to: ClockRig.at(7, 0, 5))  // the loop woke five seconds late
        let late = try #require(rig.lines.all.first { $0.contains("\"event\":\"ringing\"") })
        #expect(late.contains("\"late\":true"))
        #expect(late.contains("\"late_s\":5"))
        #expect(rig.store.history.contains { $0.kind == "warning" && $0.detail == "The alarm began 5.0 s after its time." })
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .cli))
        await rig.run(until: ClockRig.at(8, 0))
        let onTime = try #require(rig.lines.all.last { $0.contains("\"event\":\"ringing\"") })
        #expect(onTime.contains("\"late\":false"))
        #expect(!onTime.contains("late_s"))
    }

    @Test func aStopAndARingAreOneCommitEach() async throws {
        let counts = CommitCounts()
        let rig = try Self.rig([ClockRig.alarm(1, 7, 0)], counts: counts)
        await rig.start()
        await rig.run(until: ClockRig.at(6, 59, 59))
        let before = counts.all
        await rig.advance(to: ClockRig.at(7, 0))
        #expect(counts.all.dropFirst(before.count).elementsEqual(["save+rang"]), "\(counts.all)")
        let atRing = counts.all.count
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .cli))
        #expect(counts.all.dropFirst(atRing).elementsEqual(["save+dismissed"]), "\(counts.all)")
    }

    /// The rig on its store (`RigStore`, a SQLite file), watched.
    private static func rig(_ alarms: [Alarm], gate: StoreGate = StoreGate(), counts: CommitCounts = CommitCounts()) throws
        -> RunningClockRig<WatchedStore>
    {
        let journal = Journal()
        let time = ManualClock(wall: ClockRig.morning)
        let store = try RigStore(alarms: alarms, journal: journal, time: time)
        return try RunningClockRig(store: WatchedStore(store, gate: gate, counts: counts), journal: journal, time: time)
    }

    /// Waits (a generous watchdog, not a time bound) for what the store's thread does.
    private func waitUntil(_ condition: @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw RigError("the store's thread never got there") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// Holds chosen store calls until released, as a dying card or a locked database would.
final class StoreGate: Sendable {
    enum Call: Sendable { case save, checkFile }
    private let held = Mutex<Call?>(nil)
    private let opened = DispatchSemaphore(value: 0)

    func hold(_ call: Call) { held.withLock { $0 = call } }

    func release() {
        held.withLock { $0 = nil }
        opened.signal()
    }

    /// Blocks the calling thread (the store's) while `call` is held.
    func pass(_ call: Call) {
        guard held.withLock({ $0 == call }) else { return }
        opened.wait()
        opened.signal()  // everything else held behind it goes too
    }
}

/// The commits a store was asked for, in order: "save", "save+<event>", "update", "record <event>".
final class CommitCounts: Sendable {
    private let list = Mutex<[String]>([])
    func add(_ line: String) { list.withLock { $0.append(line) } }
    var all: [String] { list.withLock { $0 } }
}

/// A store over another that counts its commits (`counts`) and whose calls a `StoreGate` can hold.
final class WatchedStore: ClockStore {
    let inner: RigStore
    let gate: StoreGate
    let counts: CommitCounts

    init(_ inner: RigStore, gate: StoreGate = StoreGate(), counts: CommitCounts = CommitCounts()) {
        self.inner = inner
        self.gate = gate
        self.counts = counts
    }

    /// What the store's file holds and its history.
    var data: StoredClock { inner.data }
    var history: [HistoryEvent] { inner.history }

    func load() throws(StoreError) -> StoredClock { try inner.load() }
    func save(_ state: AlarmRunState) throws(StoreError) {
        gate.pass(.save)
        counts.add("save")
        try inner.save(state)
    }
    func save(_ state: AlarmRunState, recording event: HistoryEvent?) throws(StoreError) {
        gate.pass(.save)
        counts.add(event.map { "save+\($0.kind)" } ?? "save")
        try inner.save(state, recording: event)
    }
    func update(_ alarm: Alarm) throws(StoreError) {
        counts.add("update")
        try inner.update(alarm)
    }
    func record(_ event: HistoryEvent) throws(StoreError) {
        counts.add("record \(event.kind)")
        try inner.record(event)
    }
    func events(limit: Int, since: Date) throws(StoreError) -> [HistoryEvent] { try inner.events(limit: limit, since: since) }
    func dataVersion() throws(StoreError) -> Int64? { try inner.dataVersion() }
    var readOnlyReason: String? { inner.readOnlyReason }
    func checkFile() -> String? {
        gate.pass(.checkFile)
        return inner.checkFile()
    }
    func apply(_ edit: ClockEdit, zone: TimeZone, now: Date) throws(StoreError) -> EditOutcome {
        try inner.apply(edit, zone: zone, now: now)
    }
    func tokens() throws(StoreError) -> [AccessToken] { try inner.tokens() }
    func createToken(name: String?, replacing: Bool) throws(StoreError) -> (token: AccessToken, secret: String) {
        try inner.createToken(name: name, replacing: replacing)
    }
    func tokenUsed(id: Int64, at: Date) throws(StoreError) { try inner.tokenUsed(id: id, at: at) }
}
