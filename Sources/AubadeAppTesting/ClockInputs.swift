public import AubadeApp
public import AubadeCore
import Foundation

/// The tests' shorthands for the inputs they send: each is `RunningClock.send(_:)` with one `ClockInput`, so the
/// tests go through the one way in that every face uses.
extension RunningClock {
    public func handle(_ command: ClockCommand) async throws(ClockError) -> ClockReply {
        try await send(.command(command, follow: false)).reply
    }

    public func handle(_ command: ClockCommand, follow: Bool) async throws(ClockError)
        -> (reply: ClockReply, events: AsyncStream<SoundEvent>?)
    {
        let output = try await send(.command(command, follow: follow))
        return (output.reply, output.events)
    }

    public func start(
        ringingChanged: @escaping @Sendable (Bool) -> Void = { _ in },
        ready: @escaping @Sendable (String) -> Void = { _ in }
    ) async {
        _ = try? await send(.start(ringingChanged: ringingChanged, ready: ready))
    }

    public func tick() async -> Turn {
        guard let turn = (try? await send(.turn))?.turn else { fatalError("send(.turn) always answers with a turn") }
        return turn
    }

    public func button(_ command: ButtonPanel.Command) async { _ = try? await send(.button(command)) }
    public func shake() async { _ = try? await send(.shake) }
    public func soundEvent(_ event: SoundEvent) async { _ = try? await send(.sound(event)) }
    public func networkChanged(_ snapshot: NetworkSnapshot) async { _ = try? await send(.network(snapshot)) }
    public func shutdown() async { _ = try? await send(.shutdown) }

    public func setWarning(_ key: String, _ text: String?, announce: Bool = true) async {
        _ = try? await send(.warning(key: key, text: text, announce: announce))
    }

    public func liveUpdates() async -> AsyncStream<LiveState> {
        (try? await send(.subscribeLive))?.live ?? AsyncStream { $0.finish() }
    }

    public func refreshCalendars() async -> Duration {
        if case .wait(let wait)? = try? await send(.refreshCalendars) { return wait }
        return .zero
    }

    public func importCalendar(from url: StreamURL, kind: CalendarImport.Kind, station: String?) async throws(ClockError)
        -> EditResult
    {
        guard case .edited(let result) = try await send(.importCalendar(url: url, kind: kind, station: station)).reply else {
            throw ClockError(.failed, "The import answered no edit.")
        }
        return result
    }

    /// Whether the sound device has opened and taken a test write (R34), as a turn reports it.
    public var isReady: Bool { get async { await tick().ready } }
}
