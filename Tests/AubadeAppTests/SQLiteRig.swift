import AubadeApp
import AubadeAudio
import AubadeCore
import AubadeHardware
import AubadeStore
import AubadeTesting
import Foundation
import Logging

/// A running clock in-process over a real SQLite file (`SQLiteClockStore`), for the commands that edit:
/// `MemoryClockStore` refuses edits, so their test goes through `Store.apply` as the daemon does. Sound, time,
/// jobs and the pre-check are the same fakes as `ClockRig`'s.
struct SQLiteRig {
    let dir: TemporaryDirectory
    let store: Store
    let sound = FakeSound()
    let time: ManualClock
    let lines = Lines()
    let network = FakeNetworkStatus(ClockRig.wifi)
    let clock: RunningClock

    init(start: Date = ClockRig.morning, backlight: any Backlight = NullBacklight(),
         calendars: CalendarOptions = CalendarOptions(), prepare: (Store) throws -> Void = { _ in }) throws {
        dir = try TemporaryDirectory("sqlite-rig")
        store = try Store.open(path: dir.file("aubade.sqlite"))
        try prepare(store)
        time = ManualClock(wall: start)
        let lines = self.lines
        let output = DaemonOutput(json: true, wall: { start }, write: { lines.append($0) })
        let port = SQLiteClockStore(store)
        let deps = ClockDependencies(store: port, sound: sound, time: time, jobs: ManualJobs(), precheck: FakePrecheck(),
                                     network: network, output: output, isClockSynchronised: { true },
                                     systemZone: { TimeZone(identifier: "UTC")! }, logger: Logger(label: "test"),
                                     backlight: backlight)
        clock = RunningClock(loaded: try port.load(), deps: deps,
                             options: ClockOptions(allowLoopback: true, defaultZone: TimeZone(identifier: "UTC")!,
                                                   followsSystemZone: false, primaryDevice: "fake", calendars: calendars))
    }

    func start() async { await clock.start() }

    /// The clock's answer to `query`.
    func ask(_ query: ClockQuery) async throws -> ClockAnswer {
        guard case .answer(let answer) = try await clock.handle(.query(query)) else { throw RigError("no answer") }
        return answer
    }

    /// What the clock saved for `edit`.
    @discardableResult
    func edit(_ edit: ClockEdit) async throws -> EditOutcome {
        guard case .edited(let result) = try await clock.handle(.edit(edit)) else { throw RigError("no edit result") }
        return result.outcome
    }

    /// A second connection to the same file, as another process would read it.
    func reread() throws -> Store { try Store.openForReading(path: store.path) }
}
