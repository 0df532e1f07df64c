/// What a playback reports, in order, on its event stream. `aubade play --json` prints one per line.
public enum PlayerEvent: Sendable, Equatable {
    case connecting(url: String)
    /// The first audio reached the sound device, `after` the playback started.
    case playing(after: Duration)
    case title(String)
    /// No bytes for this long; a reconnect follows.
    case stalled(after: Duration)
    case reconnecting(attempt: Int, delay: Duration)
    /// A failure; `fatal` ends the playback (a `.stopped` follows).
    case error(String, fatal: Bool)
    case stopped(reason: StopReason)
}

public enum StopReason: String, Sendable {
    /// `stop()` was called (Ctrl-C, the user, the alarm logic).
    case requested
    /// The requested duration elapsed.
    case finished
    /// The stream ended or failed for good.
    case failed
}
