import Foundation
public import ServiceLifecycle

/// Keeps the podcasts' episodes fresh: asks the clock to read the feeds that are due
/// (`RunningClock.refreshPodcasts`, each every `[podcasts] refresh` since its last reading or attempt), then sleeps
/// until the next is due — at least a minute, at most six hours. Feeds are read on threads of their own, never on
/// the clock's.
public struct PodcastService: Service {
    let clock: RunningClock

    public init(clock: RunningClock) {
        self.clock = clock
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                guard case .wait(let wait)? = try? await clock.send(.refreshPodcasts) else { break }
                do { try await Task.sleep(for: wait) } catch { return }
            }
        }
    }
}
