/// What the engine reports, in order, on its one event stream. Sound events carry the `SoundID` they
/// belong to; device events concern every sound. Nothing about a sound follows its `stopped`.
public enum SoundEvent: Sendable, Equatable, Codable {
    /// The sound device opened and a test write succeeded — at start, and again after a failure. `name` is
    /// the device that worked (the alternate when the first failed, R19).
    case deviceOpened(name: String)
    /// The device cannot be opened, or a write failed: nothing is heard until `deviceOpened`. The engine
    /// keeps retrying (every 2 s while something should sound).
    case deviceFailed(String)
    /// A prepared sound is ready to begin at once: the device is open and its first audio is buffered (or
    /// its station failed, so it will start on its fallback, or it waited as long as a pre-roll may).
    case ready(SoundID)
    /// `source` ("station", "alternate station", "tone", "chime") reached the card: for a supervised
    /// station, verified audio (2 s above −40 dBFS, counted on what the card consumed, R16), dated from the
    /// start of that window; for the rest, the first frames the card consumed. Again after a device failure.
    case audible(SoundID, source: String, after: Duration)
    case title(SoundID, String)
    /// The network side of a station: connecting, stalls, reconnects, errors, metadata notes.
    case stream(SoundID, StreamEvent)
    /// A supervised sound switched from `from` to `to` because of `reason` (one sentence).
    case fallback(SoundID, from: String, to: String, reason: String)
    /// A supervised sound went back to its station after it was heard long enough in the background.
    case recovered(SoundID, to: String)
    /// The card's own control was unmuted or raised for an alarm (restored after it, R18).
    case mixer(SoundID, String)
    /// How far into an episode the card has played, in bytes of its file (every 15 s, and as it stops);
    /// `atEnd` once it played to the episode's end.
    case position(SoundID, byte: Int64, atEnd: Bool)
    /// When an alarm's first frame reached the card, against when it was due (the instant given to `begin(_:at:)`,
    /// else the `begin`): positive when late. Once per alarm sound, measured as `timing` says.
    case onset(SoundID, late: Duration, timing: OnsetTiming)
    case stopped(SoundID, SoundEnd)

    /// The sound an event belongs to (nil for device events).
    public var sound: SoundID? {
        switch self {
        case .deviceOpened, .deviceFailed: nil
        case .ready(let id), .audible(let id, _, _), .title(let id, _), .stream(let id, _), .fallback(let id, _, _, _),
            .recovered(let id, _), .mixer(let id, _), .position(let id, _, _), .onset(let id, _, _), .stopped(let id, _):
            id
        }
    }
}

/// Why a sound ended.
public enum SoundEnd: Sendable, Equatable, Codable, CustomStringConvertible {
    /// `stop` was asked.
    case requested
    /// Its `limit` was reached.
    case finished
    /// It cannot play: its station failed for good (unsupervised), or it was refused (`reason`).
    case failed(String)
    /// A sound of higher priority took the device (an alarm over the radio).
    case preempted(by: SoundID)
    /// A sound of the same kind took its place (a new alarm, a new radio station).
    case replaced(by: SoundID)
    /// The engine shut down.
    case shutdown

    public var description: String {
        switch self {
        case .requested: "requested"
        case .finished: "finished"
        case .failed: "failed"
        case .preempted: "preempted"
        case .replaced: "replaced"
        case .shutdown: "shutdown"
        }
    }
}

/// How an onset was measured, best first.
public enum OnsetTiming: String, Sendable, Equatable, Codable {
    /// The card's own timestamp of its delay reading (`snd_pcm_status`): when the frame leaves the buffer.
    case device
    /// The device's delay read against the system clock (a card without timestamps, or a paced plugin standing in
    /// for one).
    case delay
    /// The device cannot say what it holds: the time the frame was written.
    case write
}
