import AubadeCore
import Foundation
import Logging
import ServiceLifecycle

/// The clock's heartbeat: asks `AlarmClock` to act, then sleeps until the next thing is due (an alarm
/// second, a pre-check, a snooze's end, a fade step — never more than a minute, so a wall-clock step is seen,
/// R5). There is no free-running timer: nothing wakes the daemon faster than what is due. systemd's watchdog
/// is fed from here, so a stuck loop gets the daemon restarted (R34).
public struct SchedulerService: Service {
    let clock: AlarmClock
    let waker: LoopWaker
    let notifier: SystemdNotifier
    let logger: Logger

    public init(clock: AlarmClock, waker: LoopWaker, notifier: SystemdNotifier, logger: Logger) {
        self.clock = clock
        self.waker = waker
        self.notifier = notifier
        self.logger = logger
    }

    public func run() async throws {
        let watchdogEvery = notifier.watchdogInterval
        await cancelWhenGracefulShutdown {
            var lastStatus = ""
            while !Task.isCancelled {
                var next = await clock.tick()
                notifier.watchdog()
                if let watchdogEvery { next = min(next, .now + watchdogEvery) }
                let summary = await clock.summary()
                if summary != lastStatus {
                    lastStatus = summary
                    notifier.status(summary)
                }
                await waker.wait(until: next)
            }
        }
        await clock.shutdown()
    }
}
