import AubadeCore
import Synchronization

/// What the audio thread last published about the device and the sounds, readable from any thread.
final class EngineState: Sendable {
    struct Snapshot: Sendable, Equatable {
        var deviceOpen = false
        var deviceName: String?
        var deviceProblem: String?
        var deviceOpens = 0
        var sounding: [SoundID] = []
        var bufferLevel: BufferLevel?
    }

    private let snapshot = Mutex(Snapshot())

    func update(_ new: Snapshot) { snapshot.withLock { $0 = new } }
    var current: Snapshot { snapshot.withLock { $0 } }
}
