import AubadeFace
import AubadeFaceLink
import CSDL2
import Glibc
import Synchronization

/// What the link's threads and the input thread hand to the main thread: the latest live state's bytes, the link's
/// state, the answers to requests. Each hand-over queues a user event (SDL_PushEvent is thread-safe) and rings the
/// bell the main loop sleeps on; all drawing stays on the main thread.
struct FaceInbox: Sendable {
    /// What a request was for, so that the main thread knows what to do with its answer.
    enum Purpose: Sendable {
        case command(FaceCommand)
        case stations
        case logo(Int64)
        /// The next alarm (`GET /alarms/{id}`): which station it plays.
        case alarm(Int64)
        /// What is on air (`GET /programmes/now`): the read's number (an older answer arriving late is dropped) and
        /// the station asked about.
        case onAir(Int, String?)
    }

    var state: [UInt8]?
    var linkUp: Bool?
    var replies: [(Purpose, FaceLinkReply)] = []
    /// The window's size, for the input thread's touches (normalised as SDL's are).
    var size = (width: 800, height: 480)

    static let shared = Mutex(FaceInbox())

    /// The user event type registered at start (0 until then).
    static let wakeType = Atomic<UInt32>(0)

    /// The pipe the main loop sleeps on (its read end) and the threads write a byte to (its write end).
    static let bell = Atomic<Int64>(-1)

    /// Opens the bell: a non-blocking pipe. False when it cannot be made.
    static func openBell() -> Bool {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return false }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        bell.store(Int64(fds[0]) << 32 | Int64(fds[1]), ordering: .relaxed)
        return true
    }

    static var bellReader: Int32 { Int32(truncatingIfNeeded: bell.load(ordering: .relaxed) >> 32) }

    /// Rings the bell: the main loop wakes at once (a full pipe already rings).
    static func ring() {
        var byte: UInt8 = 1
        _ = write(Int32(truncatingIfNeeded: bell.load(ordering: .relaxed)), &byte, 1)
    }

    /// Hands news to the main loop: a user event in SDL's queue, and the bell.
    static func wake() {
        var event = SDL_Event()
        event.type = wakeType.load(ordering: .relaxed)
        _ = SDL_PushEvent(&event)
        ring()
    }
}
