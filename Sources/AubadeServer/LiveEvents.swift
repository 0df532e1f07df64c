import AubadeApp
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `GET /api/v1/events`: server-sent events fed by `RunningClock.liveUpdates()` — `event: state` with the
/// `LiveState` JSON at once, then on every change, and a comment line every `keepAlive` so proxies keep the
/// stream open. The pairing code is sent only to the clock's own machine. The stream ends when the client
/// goes away (the next write fails), when the clock stops, at graceful shutdown, or — with a last comment line —
/// when it is the oldest of the streams to other machines and a new one comes past their bound (`LiveStreams`).
enum LiveEvents {
    enum Item: Sendable {
        case state(LiveState)
        case keepAlive
        /// The stream ends to make room for a newer one.
        case replaced
    }

    static func response(clock: RunningClock, ownMachine: Bool, keepAlive: Duration) async -> Response {
        let admission = LiveStreams.admission
        guard let updates = try? await clock.send(.subscribeLive).live else { return Response(status: .serviceUnavailable) }
        var headers = JSONResponse.headers(type: "text/event-stream; charset=utf-8")
        headers[.cacheControl] = "no-store"
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                let (items, feed) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingNewest(8))
                let streams = admission.flatMap { $0.ownMachine ? nil : $0.streams }
                let number = streams?.opened {
                    feed.yield(.replaced)
                    feed.finish()
                }
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
                if let number { streams?.closed(number) }
                try await writer.finish(nil)
            })
    }

    /// One event as sent: "event: state\ndata: {…}\n\n", ": keep-alive\n\n", or the last line of a stream ended to
    /// make room for a newer one (a comment too: clients ignore it).
    static func frame(_ item: Item, ownMachine: Bool) -> Data {
        switch item {
        case .state(let state):
            return Data("event: state\ndata: ".utf8) + DocumentJSON.data(ownMachine ? state : state.forOtherMachines)
                + Data("\n\n".utf8)
        case .keepAlive:
            return Data(": keep-alive\n\n".utf8)
        case .replaced:
            return Data(": too many live streams: this one, the oldest, ends; connect again\n\n".utf8)
        }
    }
}
