import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeDaemon
import AubadePodcasts
import AubadeServer
import AubadeStore
import AubadeTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

/// The API over a real `RunningClock` on a SQLite file (`SQLiteClockStore`, with the daemon's `CalendarLoader`),
/// through the shared rig (`RunningClockRig`): its sound a `FakeSound` and its time a `ManualClock` (Tuesday
/// 2026-11-24 06:50 UTC), with one device token made before the clock starts. `live` serves it on 127.0.0.1 (a
/// loopback peer: the clock's own machine); `router` hands requests to the router with no connection at all (a
/// peer that is not known to be this machine).
@dynamicMemberLookup
struct APIRig {
    let dir: TemporaryDirectory
    let store: Store
    let base: RunningClockRig<SQLiteClockStore>
    let token: String
    let settings: ServerSettings

    static let morning = Date(timeIntervalSince1970: 1_795_503_000)

    /// `directory`: the clock's station directory (none by default). The logos and the podcasts' episodes are kept
    /// beside the test's database, as the daemon keeps them; feeds on this machine are allowed.
    init(
        settings: ServerSettings = ServerSettings(host: "127.0.0.1", port: 0), directory: (any StationDirectory)? = nil,
        network: NetworkSnapshot = NetworkSnapshot(),
        prepare: (Store) throws -> Void = { _ in }
    ) async throws {
        dir = try TemporaryDirectory("api")
        // The store's own clock is the rig's: what `prepare` writes is dated on the test's morning, whatever the
        // machine's date (an alarm made "after" 07:00 would not ring at 07:00, R11).
        let time = ManualClock(wall: APIRig.morning)
        store = try Store.open(path: dir.file("aubade.sqlite"), now: { time.now().wall })
        try prepare(store)
        token = try store.createToken(name: "test").secret
        base = try RunningClockRig(
            store: SQLiteClockStore(store), time: time,
            network: network,
            fetcher: CalendarLoader(
                cache: store.calendarCache, allowLoopback: true,
                horizonDays: CalendarOptions().horizonDays),
            directory: directory, logos: StationLogos(databasePath: dir.file("aubade.sqlite")),
            podcasts: PodcastLibrary(
                cache: EpisodeCache(databasePath: dir.file("aubade.sqlite"), allowLoopback: true), allowLoopback: true))
        self.settings = settings
        await base.start()
    }

    subscript<T>(dynamicMember path: KeyPath<RunningClockRig<SQLiteClockStore>, T>) -> T { base[keyPath: path] }

    var app: some ApplicationProtocol { app(wall: { Date() }) }

    /// The application with its rate limit judged by `wall` (a test's own clock, to step through a lockout). Every
    /// answer that departs from the API document fails the test (`ContractGuard`), so each test of the routes is
    /// a test of the contract too.
    func app(wall: @escaping @Sendable () -> Date) -> some ApplicationProtocol {
        var logger = Logger(label: "api-test")
        logger.logLevel = .critical  // a breach is recorded as the test's failure below, not printed twice
        return APIServer.application(
            clock: base.clock, settings: settings, logger: logger, wall: wall,
            onBreach: { breach in Issue.record("\(breach)") })
    }

    /// Stores the alarm "Work" due at 07:00 daily and the podcast "News" with one episode (as its feed gave it), for
    /// a test that needs a row of each behind the routes.
    static func storeWorkAlarmAndNewsPodcast(_ store: Store) throws {
        _ = try store.insertAlarm(zone: .gmt, now: morning, AlarmPatch(name: "Work", time: "07:00", days: "daily"))
        let episode = PodcastEpisode(id: "1", title: "Monday", published: morning, audio: "https://news.example/1.mp3")
        _ = try store.apply(
            .addPodcast(
                try Podcast(
                    name: "News", feed: try StreamURL(parsing: "https://news.example/feed.xml"), title: "News",
                    episodes: [episode], refreshedAt: morning)), zone: .gmt, now: morning)
    }

    var auth: HTTPFields { [.authorization: "Bearer \(token)", .contentType: "application/json"] }
    static let json: HTTPFields = [.contentType: "application/json"]

    /// The alarm due at 07:00 today rings: the clock's turn at 07:00 starts it.
    func ringAtSeven() async {
        base.time.advance(to: Date(timeIntervalSince1970: 1_795_503_000 + 600))
        _ = await base.clock.tick()
    }
}

extension TestResponse {
    /// The body as a JSON object.
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:]
    }

    var text: String { String(buffer: body) }

    /// The error's kind and sentence.
    var error: (kind: String, message: String)? {
        guard let e = object["error"] as? [String: Any], let kind = e["kind"] as? String, let message = e["message"] as? String
        else {
            return nil
        }
        return (kind, message)
    }
}

extension ByteBuffer {
    init(json: String) { self.init(string: json) }
}
