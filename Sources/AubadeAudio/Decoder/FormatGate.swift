/// Decides when a change of output format in the middle of a stream is real.
///
/// Garbage inside a stream (a corrupted stretch, or ICY metadata passed through once metadata is off, R23)
/// can make mpg123 lock onto a false frame header for a moment and announce a format such as 8 kHz mono.
/// Reconfiguring the sound device for that drains it, reopens it at the wrong rate and plays noise, several
/// times a second. So a new format is taken only after `settle` of audio in it; until then its PCM is dropped.
/// A real change (a station switching to 48 kHz) loses `settle` of audio; the stream's first format is
/// taken at once (time to first audio).
struct FormatGate {
    struct Format: Equatable, Sendable {
        var rate: Int
        var channels: Int
    }

    enum Admission: Equatable {
        case play
        /// Configure the sink for this format, then play.
        case switchTo(Format)
        case drop
    }

    static let settleSeconds = 0.25

    private(set) var current: Format?
    private var pending: Format?
    private var pendingSeconds = 0.0

    /// The decoder announced `format`. True when the sink must be configured now: the stream's first format.
    mutating func announce(_ format: Format) -> Bool {
        guard current != nil else {
            current = format
            return true
        }
        if format == current {
            pending = nil
        } else if format != pending {
            pending = format
            pendingSeconds = 0
        }
        return false
    }

    /// `seconds` of audio in the format announced last have been decoded.
    mutating func admit(seconds: Double) -> Admission {
        guard let format = pending else { return .play }
        pendingSeconds += seconds
        guard pendingSeconds >= FormatGate.settleSeconds else { return .drop }
        current = format
        pending = nil
        return .switchTo(format)
    }
}
