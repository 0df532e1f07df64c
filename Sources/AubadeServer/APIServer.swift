import AubadeApp
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The clock's HTTP face: the JSON API under /api/v1 (every route a command or query of `RunningClock`), its
/// guards (Host/Origin, token and rate limit, JSON bodies of at most 64 KiB), server-sent live state, the
/// OpenAPI document, and the pages. It never touches the store or the sound engine, so it cannot delay an
/// alarm; a request waits only for its turn on the clock's thread.
public enum APIServer {
    /// The router with every route and guard, and the list of API routes registered (for the OpenAPI test).
    public static func router(clock: RunningClock, settings: ServerSettings) -> (Router<APIContext>, [String]) {
        let router = Router(context: APIContext.self)
        router.add(middleware: ErrorShaper())
        router.add(middleware: OriginHostGuard(hosts: HostPolicy(bind: settings.host, allowed: settings.allowedHosts)))
        router.add(middleware: AccessGuard(tokens: clock.tokens,
                                           limiter: RateLimiter(limit: settings.failureLimit, window: settings.failureWindow,
                                                                lockout: settings.lockout),
                                           openReads: settings.openReads))
        router.add(middleware: BodyGuard(maxBody: settings.maxBody))
        let book = RouteBook(router: router)
        APIRoutes(clock: clock, settings: settings).register(book)
        Pages.register(on: router)
        return (router, book.routes.map(\.description))
    }

    /// The application for `settings`; `onRunning` is told the port it listens on (useful with port 0).
    public static func application(clock: RunningClock, settings: ServerSettings, logger: Logger,
                                   eventLoopGroup: (any EventLoopGroup)? = nil,
                                   onRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        let (router, _) = router(clock: clock, settings: settings)
        let idle = TimeAmount.nanoseconds(Int64(settings.idleTimeout / .nanoseconds(1)))
        return Application(
            router: router, server: .http1(configuration: .init(idleTimeout: idle)),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: nil),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? settings.port) },
            eventLoopGroupProvider: eventLoopGroup.map { .shared($0) } ?? .singleton, logger: logger)
    }
}

/// The HTTP server as a service of the daemon's `ServiceGroup`: graceful on shutdown (open event streams end
/// too). It runs on its own one-thread event loop. If it cannot listen (the port is taken, the address is not
/// this machine's), the clock runs on without it and says so as a standing warning — nothing about the web
/// face may stop an alarm.
public struct HTTPService: Service {
    let clock: RunningClock
    let settings: ServerSettings
    let logger: Logger
    let onRunning: @Sendable (Int) async -> Void

    public init(clock: RunningClock, settings: ServerSettings, logger: Logger,
                onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) {
        self.clock = clock
        self.settings = settings
        self.logger = logger
        self.onRunning = onRunning
    }

    public func run() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var logger = self.logger
        logger.logLevel = .warning  // the daemon's output is its own event lines; the server speaks only of trouble
        let clock = self.clock
        let app = APIServer.application(clock: clock, settings: settings, logger: logger, eventLoopGroup: group) { port in
            await clock.setWarning("http", nil, announce: false)
            await onRunning(port)
        }
        do {
            try await app.run()
        } catch {
            let address = settings.host.contains(":") ? "[\(settings.host)]:\(settings.port)" : "\(settings.host):\(settings.port)"
            await clock.setWarning("http", "The web page and API cannot listen on \(address) (\(error)); the clock runs without them.")
            try? await gracefulShutdown()
        }
        try? await group.shutdownGracefully()
    }
}
