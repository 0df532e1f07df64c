import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeDaemon
import AubadePodcasts
import AubadeStore
import AubadeTesting
import Foundation

/// The shared rig (`RunningClockRig`) over a real SQLite file (`SQLiteClockStore`) and the daemon's calendar loader
/// (`CalendarLoader`, downloading from a test's in-memory `Served` folder, else through curl), for the tests that look at the file itself: what
/// another connection reads, the store's own sentences, the calendars' cached copies. `store` is the database;
/// everything else is the rig's (`rig.clock`, `rig.time`, `rig.sound`, …).
@dynamicMemberLookup
struct SQLiteRig {
    let dir: TemporaryDirectory
    let store: Store
    let base: RunningClockRig<SQLiteClockStore>

    init(
        start: Date = ClockRig.morning, backlight: any Backlight = NullBacklight(),
        calendars: CalendarOptions = CalendarOptions(), served: CalendarRefreshTests.Served? = nil,
        podcasts: Bool = false, directory: (any StationDirectory)? = nil, prepare: (Store) throws -> Void = { _ in }
    ) throws {
        dir = try TemporaryDirectory("sqlite-rig")
        // The store's own clock is the rig's, as `RigStore`'s is: nothing depends on the machine's date.
        let time = ManualClock(wall: start)
        store = try Store.open(path: dir.file("aubade.sqlite"), now: { time.now().wall })
        try prepare(store)
        let loader = CalendarLoader(
            cache: store.calendarCache, allowLoopback: true, horizonDays: calendars.horizonDays,
            download: served?.download ?? CalendarLoader.curl)
        base = try RunningClockRig(
            store: SQLiteClockStore(store), time: time, backlight: backlight,
            calendars: calendars, fetcher: loader, directory: directory,
            podcasts: podcasts
                ? PodcastLibrary(
                    cache: EpisodeCache(databasePath: dir.file("aubade.sqlite"), allowLoopback: true), allowLoopback: true)
                : nil)
    }

    subscript<T>(dynamicMember path: KeyPath<RunningClockRig<SQLiteClockStore>, T>) -> T { base[keyPath: path] }

    func start() async { await base.start() }

    /// The clock's answer to `query`.
    func ask(_ query: ClockQuery) async throws -> ClockAnswer { try await base.ask(query) }

    /// What the clock saved for `edit`.
    @discardableResult
    func edit(_ edit: ClockEdit) async throws -> EditOutcome { try await base.edit(edit) }

    /// A second connection to the same file, as another process would read it.
    func reread() throws -> Store { try Store.openForReading(path: store.path) }
}
