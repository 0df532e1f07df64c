import AubadeCore
import AubadeHardware
import Foundation
import ServiceLifecycle

/// Follows the default route (every 5 s, a cheap read of /proc and /sys) and tells the clock, which applies
/// Wi-Fi-only to alarms and the radio.
public struct NetworkService: Service {
    let clock: AlarmClock
    let status: any NetworkStatus

    public init(clock: AlarmClock, status: any NetworkStatus) {
        self.clock = clock
        self.status = status
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            for await snapshot in status.changes(every: .seconds(5)) {
                await clock.networkChanged(snapshot)
            }
        }
    }
}
