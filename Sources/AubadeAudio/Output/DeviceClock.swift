import AubadeCore

/// The arithmetic of starting a sound on its second: where in the device's stream a frame due at an instant must
/// go, and when a frame already written is heard — from one reading of what the device holds (`AlsaSink.Timeline`).
///
/// A frame written now is heard once the `queued` frames before it have played: at `at + queued / rate`. So a
/// sound due at `due` must be preceded by `(due − that instant) · rate` frames of what sounds now (silence while
/// the device is primed), and its first frame, once written at stream position `p`, is heard at
/// `at + (p − heard) / rate`, where `heard = written − queued`. Pure: the engine reads the device, this decides.
enum DeviceClock {
    /// Frames to write before a sound due at `due`, so that its first frame is heard then: 0 when its first frame
    /// is due with the next frame written (or it is already late); nil when the device cannot say what it holds,
    /// and the sound begins by the system clock instead.
    static func framesBefore(due: MonotonicInstant, timeline: AlsaSink.Timeline?, rate: Int) -> Int64? {
        guard let timeline else { return nil }
        let nextHeard = timeline.at + seconds(frames: Int64(timeline.queued), rate: rate)
        let gap = due.sinceOrigin - nextHeard
        guard gap > .zero else { return 0 }
        // Rounded to the nearest frame: half a frame (11 µs at 44.1 kHz) is as close as a stream can place it.
        return Int64((gap.inSeconds * Double(rate)).rounded())
    }

    /// When the frame at stream position `position` (on the timeline's `written` scale) is heard.
    static func heard(position: Int64, timeline: AlsaSink.Timeline, rate: Int) -> MonotonicInstant {
        let played = timeline.written - Int64(timeline.queued)
        return MonotonicInstant(timeline.at + seconds(frames: position - played, rate: rate))
    }

    static func seconds(frames: Int64, rate: Int) -> Duration {
        .nanoseconds(frames * 1_000_000_000 / Int64(rate))
    }
}
