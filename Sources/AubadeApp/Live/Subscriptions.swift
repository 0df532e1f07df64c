import AubadeCore
import Foundation

/// Who follows the running clock: the clients following a sound they started (its events, and the device's,
/// until it stops), the streams of the live state and those of the home state and events (`HomeUpdate`). A part of the clock, on its thread. Each live stream keeps
/// only the newest few states, so a slow reader never holds the clock back; a state is handed out only when
/// something besides the time changed.
final class Subscriptions {
    private var followers: [SoundID: AsyncStream<SoundEvent>.Continuation] = [:]
    private var live: [UUID: AsyncStream<LiveState>.Continuation] = [:]
    private var lastLive: LiveState?
    private var home: [UUID: AsyncStream<HomeUpdate>.Continuation] = [:]
    private var lastHome: HomeState?

    /// How many updates a home stream holds for a reader that lags (events are not dropped before that).
    static let homeBuffer = 512

    /// The events of sound `id` from now until it stops (registered before any of them can arrive).
    func follow(_ id: SoundID) -> AsyncStream<SoundEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SoundEvent.self, bufferingPolicy: .unbounded)
        followers[id] = continuation
        return stream
    }

    /// A sound event to those who follow its sound (the device's events, which name no sound, to all of them);
    /// a stopped sound's stream ends.
    func forward(_ event: SoundEvent) {
        guard let id = event.sound else {
            for follower in followers.values { follower.yield(event) }
            return
        }
        followers[id]?.yield(event)
        if case .stopped = event {
            followers.removeValue(forKey: id)?.finish()
        }
    }

    /// A new live stream, starting with `current`; `ended` is told its id when the subscriber stops listening.
    func subscribe(current: LiveState, ended: @escaping @Sendable (UUID) -> Void) -> AsyncStream<LiveState> {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveState.self, bufferingPolicy: .bufferingNewest(4))
        let id = UUID()
        lastLive = current
        continuation.yield(current)
        live[id] = continuation
        continuation.onTermination = { _ in ended(id) }
        return stream
    }

    func unsubscribe(_ id: UUID) {
        live[id] = nil
        home[id] = nil
    }

    /// A new home stream (`HomeUpdate`), starting with `current`; `ended` as for `subscribe`.
    func subscribeHome(current: HomeState, ended: @escaping @Sendable (UUID) -> Void) -> AsyncStream<HomeUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: HomeUpdate.self, bufferingPolicy: .bufferingNewest(Subscriptions.homeBuffer))
        let id = UUID()
        lastHome = current
        continuation.yield(.state(current))
        home[id] = continuation
        continuation.onTermination = { _ in ended(id) }
        return stream
    }

    /// An event to every home stream, as it happens.
    func tell(_ event: ClockEvent) {
        for subscriber in home.values { subscriber.yield(.event(event)) }
    }

    /// `state()` to every home stream when it differs from the last one handed out (not computed when nobody
    /// listens).
    func publishHome(_ state: () -> HomeState) {
        guard !home.isEmpty else { return }
        let state = state()
        if state == lastHome { return }
        lastHome = state
        for subscriber in home.values { subscriber.yield(.state(state)) }
    }

    /// How many streams follow the live state.
    var liveCount: Int { live.count }

    /// `state()` to every live stream, when it differs from the last one handed out apart from the time (not
    /// computed at all when nobody listens).
    func publish(_ state: () -> LiveState) {
        guard !live.isEmpty else { return }
        let state = state()
        if let last = lastLive, !state.differsApartFromTime(last) { return }
        lastLive = state
        for subscriber in live.values { subscriber.yield(state) }
    }

    /// Ends every stream (the clock shuts down).
    func finishAll() {
        for follower in followers.values { follower.finish() }
        followers = [:]
        for subscriber in live.values { subscriber.finish() }
        live = [:]
        for subscriber in home.values { subscriber.finish() }
        home = [:]
    }
}
