public import AubadeApp
public import Foundation
public import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
public import ServiceLifecycle

/// The clock's HTTP face: the JSON API under /api/v1 (every route a command or query of `RunningClock`), its
/// guards (Host/Origin, token and rate limit, JSON bodies of at most 64 KiB), server-sent live state, the
/// OpenAPI document, and the pages. It never touches the store or the sound engine, so it cannot delay an
/// alarm; a request waits only for its turn on the clock's thread.
public enum APIServer {
    /// The router with every route and guard, and the list of API routes registered (for the OpenAPI test).
    /// `wall` is the clock the rate limit's failures and lockouts are judged by (R31): the machine's, or a test's;
    /// `shares` bounds the live event streams to other machines (`LiveStreams`); `onBreach` hears of every answer
    /// that departs from the API document (`ContractGuard`; it is logged as an error too).
    public static func router(
        clock: RunningClock, settings: ServerSettings,
        wall: @escaping @Sendable () -> Date = { Date() }, shares: FairShares = FairShares(),
        onBreach: @escaping @Sendable (ContractBreach) -> Void = { _ in }
    ) -> (Router<APIContext>, [String]) {
        let router = Router(context: APIContext.self)
        router.add(middleware: ErrorShaper())
        router.add(middleware: PlainPathGuard())
        router.add(middleware: OriginHostGuard(hosts: HostPolicy(bind: settings.host, allowed: settings.allowedHosts)))
        let policy = AccessPolicy(
            tokens: clock.tokens,
            limiter: RateLimiter(limit: settings.failureLimit, window: settings.failureWindow, lockout: settings.lockout),
            openReads: settings.openReads, wall: wall)
        let guards = RouteBook.Guards(
            access: policy, maxBody: settings.maxBody,
            streams: LiveStreamAdmission(streams: LiveStreams(bound: shares.streams), isOwnMachine: shares.isOwnMachine),
            contract: try? OpenAPIDocument.compiled.get(), onBreach: onBreach)
        let routes = register(on: router, guards: guards, clock: clock, settings: settings)
        return (router, routes.filter { $0.access != .page }.map(\.description))
    }

    /// Registers every route — the API's and the pages' — on `router` through one `RouteBook`; returns them with the
    /// access rule each declared (the tests that enumerate them read this).
    static func register(
        on router: Router<APIContext>, guards: RouteBook.Guards, clock: RunningClock, settings: ServerSettings
    ) -> [RouteBook.Route] {
        let book = RouteBook(router: router, guards: guards)
        APIRoutes(clock: clock, settings: settings).register(book)
        Pages.register(in: book)
        return book.routes
    }

    /// The application for `settings` as Hummingbird's testing module runs it; `onRunning` is told the port it
    /// listens on (useful with port 0); `wall`, `shares` and `onBreach` as for `router` and `server`. The daemon serves the same
    /// router through `server` instead.
    public static func application(
        clock: RunningClock, settings: ServerSettings, logger: Logger,
        eventLoopGroup: (any EventLoopGroup)? = nil,
        wall: @escaping @Sendable () -> Date = { Date() }, shares: FairShares = FairShares(),
        onBreach: @escaping @Sendable (ContractBreach) -> Void = { _ in },
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    )
        -> some ApplicationProtocol
    {
        let (router, _) = router(clock: clock, settings: settings, wall: wall, shares: shares, onBreach: onBreach)
        return Application(
            router: router, server: http1(settings, shares: shares),
            configuration: configuration(settings),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? settings.port) },
            eventLoopGroupProvider: eventLoopGroup.map { .shared($0) } ?? .singleton, logger: logger)
    }

    /// The most connections served at once; more wait in the listen backlog. Each holds a descriptor, and
    /// descriptors are shared with the sound device and the database, so a client opening hundreds of them
    /// (or a page left open on many phones) can never starve the clock. `FairShares` shares them out among the
    /// clients, so that no client can starve another.
    public static let maxConnections = 64

    /// The daemon's HTTP server: the router above over HummingbirdCore's HTTP/1 server, as one `Service`.
    /// `Application.run` would add a service that wakes the process every second to format the `Date`
    /// header; a bedside clock idles for days, so the header is made when a response needs it (`HTTPDate`).
    /// `shares` shares the connections out among the clients (the daemon's: `FairShares()`).
    public static func server(
        clock: RunningClock, settings: ServerSettings, logger: Logger,
        eventLoopGroup: any EventLoopGroup, shares: FairShares = FairShares(),
        onRunning: @escaping @Sendable (Int) async -> Void
    ) throws -> any Service {
        let responder = router(clock: clock, settings: settings, shares: shares).0.buildResponder()
        let date = HTTPDate()
        let channel = http1Channel(settings, shares: shares) { request, writer, channel in
            let context = APIContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
            var response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch let error as HTTPParserError {
                throw error
            } catch {
                response = Response(status: .internalServerError)
            }
            response.headers[.date] = date.now()
            try await writer.write(response: response.head, body: response.body)
        }
        return Server(
            childChannelSetup: channel,
            configuration: ServerConfiguration(
                address: .hostname(settings.host, port: settings.port),
                availableConnectionsDelegate: MaximumAvailableConnections(maxConnections)),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? settings.port) },
            eventLoopGroup: eventLoopGroup, logger: logger)
    }

    /// HummingbirdCore's HTTP/1 channel with the idle timeout of `settings`, each accepted connection held by a
    /// `ConnectionKeeper` until it has closed: a connection accepted but not yet served when the server stops
    /// can then never take the process down (see `ConnectionKeeper`). Each connection is admitted to its share
    /// of the bound (`FairShares`), and each request noted there while it is answered.
    static func http1(_ settings: ServerSettings, shares: FairShares) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in http1Channel(settings, shares: shares, responder) }
    }

    /// The child channel of `http1` for `responder`.
    static func http1Channel(
        _ settings: ServerSettings, shares: FairShares, _ responder: @escaping HTTPChannelHandler.Responder
    ) -> KeptHTTP1Channel {
        let configuration = HTTP1Channel.Configuration(idleTimeout: idleTimeout(settings))
        let connections = ConnectionShares(shares)
        let noted: HTTPChannelHandler.Responder = { request, writer, channel in
            connections.began(channel)
            defer { connections.ended(channel) }
            try await responder(request, writer, channel)
        }
        return KeptHTTP1Channel(
            http: HTTP1Channel(responder: noted, configuration: configuration), keeper: ConnectionKeeper(),
            shares: connections)
    }

    private static func idleTimeout(_ settings: ServerSettings) -> TimeAmount {
        .nanoseconds(Int64(settings.idleTimeout / .nanoseconds(1)))
    }

    private static func configuration(_ settings: ServerSettings) -> ApplicationConfiguration {
        ApplicationConfiguration(
            address: .hostname(settings.host, port: settings.port), serverName: nil,
            availableConnectionsDelegate: MaximumAvailableConnections(maxConnections))
    }
}

/// HummingbirdCore's HTTP/1 child channel, with each connection held by `keeper` from its setup until it closes,
/// and admitted to its share (`ConnectionShares`: one refused is closed at once, and then ends like one whose
/// client went away).
struct KeptHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let http: HTTP1Channel
    let keeper: ConnectionKeeper
    let shares: ConnectionShares

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http.setup(channel: channel, logger: logger).map { [keeper, shares] connection in
            keeper.keep(connection, of: channel)
            shares.admit(channel)
            return connection
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http.handle(value: value, logger: logger)
    }
}

/// The HTTP server as a service of the daemon's `ServiceGroup`: it ends by the group's graceful shutdown —
/// it stops listening, takes the connections already accepted, closes those idle and answers those with a
/// request under way (open event streams end too) — never by cancelling its task (see `ConnectionKeeper`). It runs on
/// its own one-thread event loop (`eventLoop`). If it cannot listen (the port is taken, the address is not
/// this machine's), the clock runs on without it and says so as a standing warning — nothing about the web
/// face may stop an alarm.
public struct HTTPService: Service {
    /// The HTTP server's one-thread event loop, made once and kept for the life of the process, as swift-nio's own
    /// singletons are. Why not shut down when the service ends: told of a graceful shutdown, HummingbirdCore's
    /// `Server` shuts itself down from an unstructured task of its own, which waits for the shutdown after hopping
    /// off the server's actor and, on a busy machine, reaches for the event loop after `Server.run` has returned.
    /// A loop shut down at the end of `run` then refused it ("Cannot schedule tasks on an EventLoop that has
    /// already shut down", which swift-nio will make a crash); a loop that is never shut down cannot. Idle, it
    /// costs one sleeping thread.
    static let eventLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    let clock: RunningClock
    let settings: ServerSettings
    let logger: Logger
    let shares: FairShares
    let onRunning: @Sendable (Int) async -> Void

    /// `shares`: how the connections are shared out among clients (a test passes its own rule for which peers are
    /// the clock's own machine).
    public init(
        clock: RunningClock, settings: ServerSettings, logger: Logger, shares: FairShares = FairShares(),
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) {
        self.clock = clock
        self.settings = settings
        self.logger = logger
        self.shares = shares
        self.onRunning = onRunning
    }

    public func run() async throws {
        let group = HTTPService.eventLoop
        var logger = self.logger
        logger.logLevel = .warning  // the daemon's output is its own event lines; the server speaks only of trouble
        let clock = self.clock
        do {
            let server = try APIServer.server(
                clock: clock, settings: settings, logger: logger, eventLoopGroup: group, shares: shares
            ) { port in
                _ = try? await clock.send(.warning(key: "http", text: nil, announce: false))
                await onRunning(port)
            }
            try await server.run()
        } catch {
            let address =
                settings.host.contains(":") ? "[\(settings.host)]:\(settings.port)" : "\(settings.host):\(settings.port)"
            _ = try? await clock.send(
                .warning(
                    key: "http",
                    text: "The web page and API cannot listen on \(address) (\(error)); the clock runs without them.",
                    announce: true))
            try? await gracefulShutdown()
        }
    }
}
