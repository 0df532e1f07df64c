import Foundation
public import ServiceLifecycle

/// Keeps the stations saved from the public directory current: asks the clock to look them up again when due
/// (`RunningClock.refreshDirectoryStations`, once a day), then sleeps until the next look. The directory is asked on a
/// thread of its own; alarms never wait for it.
public struct DirectoryService: Service {
    let clock: RunningClock

    public init(clock: RunningClock) {
        self.clock = clock
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                guard case .wait(let wait)? = try? await clock.send(.refreshDirectory) else { break }
                do { try await Task.sleep(for: wait) } catch { return }
            }
        }
    }
}
