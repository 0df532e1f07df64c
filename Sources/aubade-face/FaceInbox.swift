import AubadeFace
import AubadeFaceLink
import CSDL2
import Synchronization

/// What the link's threads and the input thread hand to the main thread: the latest live state's bytes, the link's
/// state, the answers to requests. Each hand-over wakes the main loop with a user event (SDL_PushEvent is
/// thread-safe); all drawing stays on the main thread.
struct FaceInbox: Sendable {
    /// What a request was for, so that the main thread knows what to do with its answer.
    enum Purpose: Sendable {
        case command(FaceCommand)
        case stations
        case logo(Int64)
    }

    var state: [UInt8]?
    var linkUp: Bool?
    var replies: [(Purpose, FaceLinkReply)] = []
    /// The window's size, for the input thread's touches (normalised as SDL's are).
    var size = (width: 800, height: 480)

    static let shared = Mutex(FaceInbox())

    /// The user event type registered at start (0 until then).
    static let wakeType = Atomic<UInt32>(0)

    /// Wakes the main loop.
    static func wake() {
        var event = SDL_Event()
        event.type = wakeType.load(ordering: .relaxed)
        _ = SDL_PushEvent(&event)
    }
}
