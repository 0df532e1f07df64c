public import AubadeCore
import AubadeSystem
import Foundation
import Logging
public import ServiceLifecycle

/// The clock's heartbeat: asks `RunningClock` for a turn, then sleeps until the next thing is due (an alarm
/// second, a pre-check, a snooze's end, a fade step — never more than a minute, so a wall-clock step is seen,
/// R5), or until woken early (an edit, a press). There is no free-running timer. systemd's watchdog is fed
/// from here, so a stuck loop gets the daemon restarted (R34).
public struct SchedulerService: Service {
    let clock: RunningClock
    let waker: LoopWaker
    let notifier: any ServiceNotifier

    /// How often the loop turns while the clock waits for READY.
    static let startingTurn: Duration = .seconds(10)

    public init(clock: RunningClock, waker: LoopWaker, notifier: any ServiceNotifier) {
        self.clock = clock
        self.waker = waker
        self.notifier = notifier
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var lastStatus = ""
            while !Task.isCancelled {
                guard let turn = try? await clock.send(.turn).turn else { break }
                // The watchdog is fed once READY has been said (R34); until then each turn extends the start.
                if turn.ready { notifier.watchdog() }
                var wait = max(.zero, turn.wakeAt - turn.now.mono)
                if let every = notifier.watchdogInterval { wait = min(wait, every) }
                if !turn.ready {
                    // Not READY yet (no sound device): each turn proves the loop alive, so systemd waits on.
                    wait = min(wait, SchedulerService.startingTurn)
                    notifier.extendStartTimeout(by: SchedulerService.startingTurn * 3)
                }
                if turn.summary != lastStatus {
                    lastStatus = turn.summary
                    notifier.status(turn.summary)
                }
                await waker.wait(for: wait)
            }
        }
        _ = try? await clock.send(.shutdown)
    }
}

/// Hands the sound engine's events to the clock, in order, and shuts the engine down (closing the device)
/// when the daemon stops.
public struct SoundEventService: Service {
    let clock: RunningClock
    let engine: any SoundPort

    public init(clock: RunningClock, engine: any SoundPort) {
        self.clock = clock
        self.engine = engine
    }

    public func run() async throws {
        let events = engine.events
        await cancelWhenGracefulShutdown {
            for await event in events { _ = try? await clock.send(.sound(event)) }
        }
        await engine.shutdown()
    }
}

/// Runs the clock's background jobs (pre-alarm checks) as child tasks of its own: they end with the
/// daemon, and no task outlives the `ServiceGroup`.
public final class WorkService: Service, BackgroundJobs {
    private let jobs: AsyncStream<@Sendable () async -> Void>
    private let continuation: AsyncStream<@Sendable () async -> Void>.Continuation

    public init() {
        (jobs, continuation) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self, bufferingPolicy: .unbounded)
    }

    public func submit(_ job: @escaping @Sendable () async -> Void) { continuation.yield(job) }

    public func run() async throws {
        let jobs = self.jobs
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for await job in jobs { group.addTask { await job() } }
            }
        }
    }
}
