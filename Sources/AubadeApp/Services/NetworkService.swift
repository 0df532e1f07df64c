public import AubadeCore
import Foundation
public import ServiceLifecycle

/// Follows the default route every 30 s (a cheap read of /proc and /sys) so a change shows in the log and the
/// status. Wi-Fi-only itself reads the route afresh whenever a stream is about to start (the clock's
/// `ClockDependencies.network`), so this
/// loop can be slow: the idle daemon wakes rarely.
public struct NetworkService: Service {
    let clock: RunningClock
    let status: any NetworkStatus

    public init(clock: RunningClock, status: any NetworkStatus) {
        self.clock = clock
        self.status = status
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            for await snapshot in status.changes(every: .seconds(30)) {
                _ = try? await clock.send(.network(snapshot))
            }
        }
    }
}
