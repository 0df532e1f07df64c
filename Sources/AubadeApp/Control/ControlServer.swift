import AubadeCore
import Foundation
import Glibc
public import Logging
import NIOCore
import NIOPosix
public import ServiceLifecycle
import Synchronization

/// The daemon side of the control socket (R37): every connection is served concurrently as a child task,
/// must send its request line within `requestDeadline`, and at most `maxConnections` are open — at the
/// bound, the oldest connection still waiting for its request is closed to make room, so a `stop` never
/// waits behind a stuck or idle client. Commands go to the clock (`RunningClock.handle`), which carries them
/// out in arrival order. Refuses to start when another daemon already answers on the same database — two
/// clocks ringing the same alarms would fight over the sound card. It ends by graceful shutdown
/// (`stopServing`): never by cancelling its task with connections accepted but not yet served, which swift-nio
/// cannot survive (`ConnectionKeeper` makes even that safe).
public final class ControlServer: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let path: String
    private let channel: NIOAsyncChannel<NIOAsyncChannel<String, String>, Never>
    private let registry: ConnectionRegistry
    private let keeper: ConnectionKeeper
    private let group: MultiThreadedEventLoopGroup

    /// How long a connection has to send its request line (R37).
    public static let requestDeadline: Duration = .seconds(5)
    static let maxConnections = 64

    private init(
        path: String, channel: NIOAsyncChannel<NIOAsyncChannel<String, String>, Never>, registry: ConnectionRegistry,
        keeper: ConnectionKeeper, group: MultiThreadedEventLoopGroup
    ) {
        self.path = path
        self.channel = channel
        self.registry = registry
        self.keeper = keeper
        self.group = group
    }

    /// Binds the socket for `databasePath` (mode 0600, a listen backlog of 256). `requestDeadline` is the
    /// daemon's 5 s unless a test needs another.
    public static func bind(databasePath: String, requestDeadline: Duration = ControlServer.requestDeadline)
        async throws(Failure) -> ControlServer
    {
        let path = ControlProtocol.socketPath(forDatabase: databasePath)
        if let probe = try? UnixSocket.connect(path, timeout: 2) {
            close(probe)
            throw Failure(description: "Another aubade is already running on this database (it answers on \(path)).")
        }
        do throws(UnixSocket.Failure) { _ = try UnixSocket.address(path) } catch { throw Failure(description: error.description) }
        let registry = ConnectionRegistry(limit: maxConnections)
        let keeper = ConnectionKeeper()
        let deadline = TimeAmount.nanoseconds(Int64(requestDeadline / .nanoseconds(1)))
        // One event-loop thread is plenty for a local socket (and costs three descriptors, not six).
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 256)
                .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true) { child in
                    child.eventLoop.makeCompletedFuture {
                        try child.pipeline.syncOperations.addHandlers([
                            ByteToMessageHandler(LineDecoder(maxLength: ControlProtocol.maxLine)),
                            RequestDeadline(after: deadline, registry: registry),
                            LineEncoder(),
                        ])
                        let connection = try NIOAsyncChannel<String, String>(wrappingChannelSynchronously: child)
                        keeper.keep(connection, of: child)
                        return connection
                    }
                }
            chmod(path, 0o600)
            return ControlServer(path: path, channel: channel, registry: registry, keeper: keeper, group: group)
        } catch {
            try? await group.shutdownGracefully()
            throw Failure(description: "The control socket \(path) cannot be created: \(error).")
        }
    }

    /// Serves connections until `stopServing` (or, in the worst case, until the task is cancelled); then removes
    /// the socket file and returns once every connection has closed.
    public func serve(_ clock: RunningClock, logger: Logger) async {
        let registry = self.registry
        do {
            try await channel.executeThenClose { inbound in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in inbound {
                        registry.admit(connection.channel)
                        group.addTask {
                            defer { registry.leave(connection.channel) }
                            await ControlServer.answer(connection, clock: clock, registry: registry)
                        }
                    }
                }
            }
        } catch is CancellationError {
        } catch {
            logger.warning("control socket: \(error)")
        }
        unlink(path)
        try? await group.shutdownGracefully()
    }

    /// Graceful shutdown: stops listening; the connections already accepted are still taken from the queue,
    /// each one still waiting for its request is closed, as is each following a sound; a command being answered
    /// gets its reply. `serve` returns when the last connection has closed. Thread-safe, and may come first.
    public func stopServing() {
        registry.close()
        channel.channel.close(promise: nil)
    }

    /// How many connections are open (served or still queued): for the tests.
    public var openConnections: Int { keeper.count }

    /// Reads one request, answers it, and for a followed sound streams its events until it stops or the
    /// client goes away (which stops a `play` or `ring`: Ctrl-C in `aubade play`).
    private static func answer(
        _ connection: NIOAsyncChannel<String, String>, clock: RunningClock,
        registry: ConnectionRegistry
    ) async {
        try? await connection.executeThenClose { inbound, outbound in
            var lines = inbound.makeAsyncIterator()
            guard let line = try await lines.next() else { return }
            registry.answered(connection.channel)
            guard let request = ControlProtocol.decode(ControlProtocol.Request.self, line) else {
                let error = ClockError(.invalid, "The request is not a command as JSON on one line.")
                try await outbound.write(ControlProtocol.encode(ControlProtocol.Reply(error: error)))
                return
            }
            let events: AsyncStream<SoundEvent>?
            let sound: SoundID?
            do {
                let output = try await clock.send(.command(request.command, follow: request.follow ?? false))
                let (reply, stream) = (output.reply, output.events)
                try await outbound.write(ControlProtocol.encode(ControlProtocol.Reply(reply: reply)))
                if stream != nil { registry.following(connection.channel) }
                events = stream
                if case .sound(let id, _, _) = reply { sound = id } else { sound = nil }
            } catch let error as ClockError {
                try await outbound.write(ControlProtocol.encode(ControlProtocol.Reply(error: error)))
                return
            }
            guard let events, let sound else { return }
            // The events go out from a child task; this task reads on, so it sees the client go away (EOF).
            // When the sound ends first, the child closes the connection, which ends the read here too.
            let channel = connection.channel
            let clientGone = await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    for await event in events {
                        do { try await outbound.write(ControlProtocol.encode(ControlProtocol.Reply(event: event))) } catch {
                            break
                        }
                    }
                    let ended = !Task.isCancelled
                    channel.close(promise: nil)
                    return ended
                }
                while (try? await lines.next()) != nil {}
                group.cancelAll()
                return !(await group.next() ?? false)
            }
            // Listening and ring tests belong to their client; a sleep timer outlives the command that started it.
            if clientGone, request.command.endsWithClient {
                _ = try? await clock.send(.command(.stopSound(sound), follow: false))
            }
        }
    }
}

/// The control server as a service of the `ServiceGroup`: it serves until graceful shutdown.
public struct ControlService: Service {
    let server: ControlServer
    let clock: RunningClock
    let logger: Logger

    public init(server: ControlServer, clock: RunningClock, logger: Logger) {
        self.server = server
        self.clock = clock
        self.logger = logger
    }

    public func run() async throws {
        let server = self.server
        await withGracefulShutdownHandler {
            await server.serve(clock, logger: logger)
        } onGracefulShutdown: {
            server.stopServing()
        }
    }
}

/// The open connections, and which still wait for their request: at the bound, the oldest of those is
/// closed to make room for the new one (and forgotten at once, so each connection past the bound closes a
/// different one). At shutdown (`close`) those waiting and those following a sound are closed, and so is each
/// one admitted afterwards. Thread-safe.
final class ConnectionRegistry: Sendable {
    private enum Stage {
        case waiting, answering, following
    }

    private struct Entry {
        let channel: any Channel
        var stage: Stage
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var order: [ObjectIdentifier] = []
        var closing = false
    }

    private let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = limit }

    func admit(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        let victim = state.withLock { s -> (any Channel)? in
            if s.closing { return channel }
            s.entries[key] = Entry(channel: channel, stage: .waiting)
            s.order.append(key)
            guard s.entries.count > limit,
                let i = s.order.firstIndex(where: { s.entries[$0]?.stage == .waiting && $0 != key })
            else { return nil }
            // The victim leaves the count now, not when its task ends: connections admitted before that
            // must each close another one, or a burst of them would outgrow the bound.
            let victim = s.order.remove(at: i)
            return s.entries.removeValue(forKey: victim)?.channel
        }
        victim?.close(promise: nil)
    }

    func answered(_ channel: any Channel) {
        state.withLock { $0.entries[ObjectIdentifier(channel)]?.stage = .answering }
    }

    /// The connection now streams a sound's events until the sound or the client ends.
    func following(_ channel: any Channel) {
        let closing = state.withLock { s in
            s.entries[ObjectIdentifier(channel)]?.stage = .following
            return s.closing
        }
        if closing { channel.close(promise: nil) }
    }

    func leave(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        state.withLock { s in
            s.entries[key] = nil
            s.order.removeAll { $0 == key }
        }
    }

    /// Shutdown: closes the connections waiting for their request and those following a sound, and from now on
    /// each one admitted.
    func close() {
        let idle = state.withLock { s in
            s.closing = true
            return s.entries.values.filter { $0.stage != .answering }.map(\.channel)
        }
        for channel in idle { channel.close(promise: nil) }
    }
}

/// Splits the byte stream into lines (without their newline); a line longer than `maxLength` closes the
/// connection.
struct LineDecoder: ByteToMessageDecoder {
    typealias InboundOut = String
    let maxLength: Int

    struct TooLong: Error {}

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > maxLength { throw TooLong() }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        let line = buffer.readString(length: length) ?? ""
        buffer.moveReaderIndex(forwardBy: 1)
        context.fireChannelRead(Self.wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        .needMoreData
    }
}

/// Writes each outbound string as one line.
final class LineEncoder: ChannelOutboundHandler, Sendable {
    typealias OutboundIn = String
    typealias OutboundOut = ByteBuffer

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let line = Self.unwrapOutboundIn(data)
        var buffer = context.channel.allocator.buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        context.write(Self.wrapOutboundOut(buffer), promise: promise)
    }
}

/// Closes a connection that has not sent a whole request line within `after` of connecting.
final class RequestDeadline: ChannelInboundHandler {
    typealias InboundIn = String
    typealias InboundOut = String
    private let after: TimeAmount
    private let registry: ConnectionRegistry
    private var timer: Scheduled<Void>?

    init(after: TimeAmount, registry: ConnectionRegistry) {
        self.after = after
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: after) { channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        timer?.cancel()
        timer = nil
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
    }
}
