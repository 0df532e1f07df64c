import AubadeCore
import AubadeHardware
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Buttons and shake → the clock. Button edges go through the pure `ButtonPanel` (debounce, short/long
/// press, presses that began before an alarm are ignored, R15); the shake sensor is sampled only while an
/// alarm rings. A missing part was already reported by whoever opened it (rule 8): it simply stays silent.
public struct InputService: Service {
    let clock: AlarmClock
    let buttons: ButtonInput
    let panel: PanelState
    let shake: any ShakeSensor
    let logger: Logger

    public init(clock: AlarmClock, buttons: ButtonInput, settings: ButtonPanel.Settings, shake: any ShakeSensor, logger: Logger) {
        self.clock = clock
        self.buttons = buttons
        self.panel = PanelState(ButtonPanel(settings: settings))
        self.shake = shake
        self.logger = logger
    }

    public func run() async throws {
        let panel = self.panel
        let shake = self.shake
        let clock = self.clock
        let shakeWatch = ShakeWatch()
        await clock.setRingingObserver { ringing in
            if ringing {
                Task { await panel.alarmStarted(at: MonotonicClock.now()) }
                shakeWatch.start {
                    Task {
                        for await _ in shake.shakes() { await clock.shake() }
                    }
                }
            } else {
                shakeWatch.stop()
            }
        }
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await edge in buttons.edges {
                        for command in await panel.handle(edge) { await clock.button(command) }
                    }
                }
                group.addTask {
                    // Long presses and debounce windows end without an edge: tick the panel at its deadlines.
                    while !Task.isCancelled {
                        let deadline = await panel.nextDeadline()
                        let wait: Duration = deadline.map { max(.milliseconds(1), $0 - MonotonicClock.now()) } ?? .seconds(3600)
                        await panel.sleep(for: wait)
                        for command in await panel.tick(at: MonotonicClock.now()) { await clock.button(command) }
                    }
                }
                await group.waitForAll()
            }
        }
        buttons.stop()
        shakeWatch.stop()
    }
}

/// The button panel's state, shared by the edge and deadline tasks.
actor PanelState {
    private var panel: ButtonPanel
    private var sleeper: CheckedContinuation<Void, Never>?

    init(_ panel: ButtonPanel) { self.panel = panel }

    func handle(_ edge: ButtonEdge) -> [ButtonPanel.Command] {
        let commands = panel.handle(edge)
        sleeper?.resume()
        sleeper = nil
        return commands
    }

    func tick(at now: Duration) -> [ButtonPanel.Command] { panel.tick(at: now) }
    func nextDeadline() -> Duration? { panel.nextDeadline }
    func alarmStarted(at time: Duration) { panel.alarmStarted(at: time) }

    /// Sleeps for `duration`, until the next edge arrives (which may set an earlier deadline), or until
    /// the task is cancelled.
    func sleep(for duration: Duration) async {
        let timer = Task { [weak self] in
            try? await Task.sleep(for: duration)
            await self?.wakeSleeper()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { c in
                if Task.isCancelled { c.resume() } else { sleeper = c }
            }
        } onCancel: {
            Task { await self.wakeSleeper() }
        }
        timer.cancel()
    }

    private func wakeSleeper() {
        sleeper?.resume()
        sleeper = nil
    }
}

/// The task that samples the shake sensor while an alarm rings.
final class ShakeWatch: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func start(_ make: () -> Task<Void, Never>) {
        task.withLock { t in
            if t == nil { t = make() }
        }
    }

    func stop() {
        task.withLock { t in
            t?.cancel()
            t = nil
        }
    }
}
