import AubadeCore
import AubadeSystem

/// What callers ask of the audio thread.
enum EngineCommand: Sendable {
    case play(SoundID, SoundRequest, paused: Bool)
    case begin(SoundID)
    case beginAt(SoundID, MonotonicInstant)
    case stop(SoundID)
    case volume(SoundID, Int)
    case shutdown
}

/// Commands from any thread to the engine's audio thread, which waits here when it has nothing to write: a
/// `BlockingQueue`, whose waits are timed on `CLOCK_MONOTONIC`, so a wall-clock step never lengthens or
/// shortens them. Thread-safe.
final class EngineMailbox: Sendable {
    private let queue = BlockingQueue<EngineCommand>()

    func post(_ command: EngineCommand) {
        queue.post(command)
    }

    /// The commands posted so far. With nothing posted, waits until one is or `wait` has passed (nil: no
    /// limit; zero: no wait at all).
    func take(waitingAtMost wait: Duration?) -> [EngineCommand] {
        queue.take(waitingAtMost: wait)
    }
}
