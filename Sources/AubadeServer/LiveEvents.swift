import AubadeApp
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `GET /api/v1/events`: server-sent events fed by `RunningClock.liveUpdates()` — `event: state` with the
/// `LiveState` JSON at once, then on every change, and a comment line every `keepAlive` so proxies keep the
/// stream open. The pairing code is sent only to the clock's own machine. The stream ends when the client
/// goes away (the next write fails), when the clock stops, or at graceful shutdown.
enum LiveEvents {
    enum Item: Sendable {
        case state(LiveState)
        case keepAlive
    }

    static func response(clock: RunningClock, ownMachine: Bool, keepAlive: Duration) async -> Response {
        guard let updates = try? await clock.send(.subscribeLive).live else { return Response(status: .serviceUnavailable) }
        var headers = JSONResponse.headers(type: "text/event-stream; charset=utf-8")
        headers[.cacheControl] = "no-store"
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                let (items, feed) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingNewest(8))
                await withGracefulShutdownHandler {
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await state in updates { feed.yield(.state(state)) }
                            feed.finish()
                        }
                        group.addTask {
                            while (try? await Task.sleep(for: keepAlive)) != nil { feed.yield(.keepAlive) }
                        }
                        for await item in items {
                            do { try await writer.write(ByteBuffer(bytes: frame(item, ownMachine: ownMachine))) } catch { break }
                        }
                        group.cancelAll()
                    }
                } onGracefulShutdown: {
                    feed.finish()
                }
                try await writer.finish(nil)
            })
    }

    /// One event as sent: "event: state\ndata: {…}\n\n", or ": keep-alive\n\n".
    static func frame(_ item: Item, ownMachine: Bool) -> Data {
        switch item {
        case .state(let state):
            return Data("event: state\ndata: ".utf8) + DocumentJSON.data(ownMachine ? state : state.forOtherMachines)
                + Data("\n\n".utf8)
        case .keepAlive:
            return Data(": keep-alive\n\n".utf8)
        }
    }
}
