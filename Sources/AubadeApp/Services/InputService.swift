public import AubadeCore
import Foundation
import Logging
public import ServiceLifecycle
import Synchronization

/// Buttons and shake → the clock. Button edges go through the pure `ButtonPanel` (debounce, short/long
/// press; each command says when its press began, for the alarm engine's held-at-start rule, R15); the
/// shake sensor is sampled only while an alarm rings. A missing part was already reported by whoever opened
/// it (rule 8): it simply stays silent. All of it runs as child tasks of `run()`.
public struct InputService: Service {
    let clock: RunningClock
    let buttons: any ButtonSource
    let settings: ButtonPanel.Settings
    let shake: any ShakeSensor
    let ringing: AsyncStream<Bool>
    private let ringingContinuation: AsyncStream<Bool>.Continuation

    public init(clock: RunningClock, buttons: any ButtonSource, settings: ButtonPanel.Settings, shake: any ShakeSensor) {
        self.clock = clock
        self.buttons = buttons
        self.settings = settings
        self.shake = shake
        (ringing, ringingContinuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(8))
    }

    /// Tell the service when an alarm starts (true) or stops (false) sounding; callable from any thread.
    public var ringingChanged: @Sendable (Bool) -> Void {
        let continuation = ringingContinuation
        return { continuation.yield($0) }
    }

    public func run() async throws {
        let panel = SharedPanel(ButtonPanel(settings: settings))
        let waker = LoopWaker()
        let (clock, buttons, shake, ringing) = (self.clock, self.buttons, self.shake, self.ringing)
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await edge in buttons.edges {
                        let commands = panel.state.withLock { $0.handle(edge) }
                        waker.wake()  // the edge may have set an earlier deadline
                        for command in commands { _ = try? await clock.send(.button(command)) }
                    }
                }
                group.addTask {
                    // Long presses and debounce windows end without an edge: tick the panel at its deadlines.
                    while !Task.isCancelled {
                        let deadline = panel.state.withLock { $0.nextDeadline }
                        await waker.wait(for: deadline.map { max(.milliseconds(1), $0 - DaemonClock.monotonic()) })
                        let commands = panel.state.withLock { $0.tick(at: DaemonClock.monotonic()) }
                        for command in commands { _ = try? await clock.send(.button(command)) }
                    }
                }
                group.addTask { await InputService.sampleShake(shake, while: ringing, clock: clock) }
            }
        }
        buttons.stop()
    }

    /// Samples the shake sensor from each time an alarm starts sounding until it stops.
    private static func sampleShake(_ shake: any ShakeSensor, while ringing: AsyncStream<Bool>, clock: RunningClock) async {
        var states = ringing.makeAsyncIterator()
        while let sounding = await states.next() {
            guard sounding else { continue }
            await withTaskGroup(of: Void.self) { episode in
                episode.addTask {
                    for await _ in shake.shakes() { _ = try? await clock.send(.shake) }
                }
                while let still = await states.next(), still {}
                episode.cancelAll()
            }
        }
    }
}

/// The button panel, shared by the edge task and the deadline task.
private final class SharedPanel: Sendable {
    let state: Mutex<ButtonPanel>
    init(_ panel: ButtonPanel) { state = Mutex(panel) }
}
