import AubadeApp
import AubadeAudio
import AubadeCore
import AubadeHardware
import AubadeServer
import AubadeStore
import AubadeTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore

/// The API over a real `RunningClock` on a SQLite file (`SQLiteClockStore`), its sound a `FakeSound` and its
/// time a `ManualClock` (Tuesday 2026-11-24 06:50 UTC), with one device token made before the clock starts.
/// `live` serves it on 127.0.0.1 (a loopback peer: the clock's own machine); `router` hands requests to the
/// router with no connection at all (a peer that is not known to be this machine).
struct APIRig {
    let dir: TemporaryDirectory
    let store: Store
    let sound = FakeSound()
    let time: ManualClock
    let clock: RunningClock
    let token: String
    let settings: ServerSettings

    static let morning = Date(timeIntervalSince1970: 1_795_503_000)

    init(settings: ServerSettings = ServerSettings(host: "127.0.0.1", port: 0), prepare: (Store) throws -> Void = { _ in }) async throws {
        dir = try TemporaryDirectory("api")
        time = ManualClock(wall: APIRig.morning)
        // The store stamps its changes on the rig's clock too: on the machine's, an alarm saved "now" would be
        // saved after its 07:00 occurrence once that day has passed, and never ring it (R11).
        store = try Store.open(path: dir.file("aubade.sqlite"), now: { [time] in time.now().wall })
        try prepare(store)
        token = try store.createToken(name: "test").secret
        let port = SQLiteClockStore(store)
        let deps = ClockDependencies(store: port, sound: sound, time: time, jobs: ManualJobs(), precheck: FakePrecheck(),
                                     network: FakeNetworkStatus(NetworkSnapshot()),
                                     output: DaemonOutput(json: true, wall: { APIRig.morning }, write: { _ in }),
                                     isClockSynchronised: { true }, systemZone: { TimeZone(identifier: "UTC")! },
                                     logger: Logger(label: "test"))
        clock = RunningClock(loaded: try port.load(), deps: deps,
                             options: ClockOptions(allowLoopback: true, defaultZone: TimeZone(identifier: "UTC")!,
                                                   followsSystemZone: false, primaryDevice: "fake"))
        self.settings = settings
        await clock.start()
    }

    var app: some ApplicationProtocol { app(wall: { Date() }) }

    /// The application with its rate limit judged by `wall` (a test's own clock, to step through a lockout).
    func app(wall: @escaping @Sendable () -> Date) -> some ApplicationProtocol {
        var logger = Logger(label: "api-test")
        logger.logLevel = .warning
        return APIServer.application(clock: clock, settings: settings, logger: logger, wall: wall)
    }

    var auth: HTTPFields { [.authorization: "Bearer \(token)", .contentType: "application/json"] }
    static let json: HTTPFields = [.contentType: "application/json"]

    /// The alarm due at 07:00 today rings: the clock's turn at 07:00 starts it.
    func ringAtSeven() async {
        time.advance(to: Date(timeIntervalSince1970: 1_795_503_000 + 600))
        _ = await clock.tick()
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
        guard let e = object["error"] as? [String: Any], let kind = e["kind"] as? String, let message = e["message"] as? String else {
            return nil
        }
        return (kind, message)
    }
}

extension ByteBuffer {
    init(json: String) { self.init(string: json) }
}
