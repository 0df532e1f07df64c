import AubadeCore
import Foundation
import Logging
import Synchronization

/// What an alarm should sound: its station addresses in order (primary, alternate), the fallback tone and
/// the levels (R16–R18).
public struct AlarmSoundPlan: Sendable, Hashable {
    public var stations: [StreamURL]
    public var tone: ToneName
    /// The alarm's volume (10–100); the station fades in to it from an audible level.
    public var volume: Int
    public var fadeIn: Duration
    /// The tone's fixed, loud level.
    public var toneVolume: Int
    public var allowLoopback: Bool
    /// Why the pre-alarm check failed, if it did: the alarm starts on the tone (R20).
    public var preselectedFallback: String?
    /// How long to sound at most (nil: until stopped).
    public var duration: Duration?

    /// A plan; see the properties.
    public init(stations: [StreamURL], tone: ToneName, volume: Int, fadeIn: Duration, toneVolume: Int,
                allowLoopback: Bool, preselectedFallback: String? = nil, duration: Duration? = nil) {
        self.stations = stations
        self.tone = tone
        self.volume = volume
        self.fadeIn = fadeIn
        self.toneVolume = toneVolume
        self.allowLoopback = allowLoopback
        self.preselectedFallback = preselectedFallback
        self.duration = duration
    }

    /// The level a fade-in starts from: clearly audible, never silence (R18).
    public var fadeStartVolume: Int { max(10, volume / 2) }
}

/// What a sounding alarm reports, in order.
public enum AlarmSoundEvent: Sendable, Equatable {
    /// The sound device is open (name of the device actually used).
    case deviceReady(String)
    /// The sound device could not be opened; it is retried every 2 s.
    case deviceError(String)
    /// The first audible audio of `source` was consumed by the sound card, `after` the alarm began.
    case audible(source: String, after: Duration)
    case fallback(from: String, to: String, reason: String)
    case recovered(to: String)
    case title(String)
    /// A stream problem that did not (yet) change the source: a reconnect, a stall.
    case streamNote(String)
    case stopped
}

/// An alarm's sound: one audio thread owns the sound device for the whole ringing and writes either the
/// station (decoded from a `StationFeed`) or the built-in tone, as `SoundSupervisor` decides from what the
/// device actually consumed (R16). Switching never reopens the device, so a fallback is seamless.
///
/// Pre-roll: `prepare` opens the device and starts fetching at once; nothing is written until `begin`, so the
/// first frame reaches the card at the alarm second, already buffered. Thread-safe: `begin` and `stop` may be
/// called from anywhere; `events` ends after `.stopped`.
public final class AlarmSound: Sendable {
    public let events: AsyncStream<AlarmSoundEvent>
    private let continuation: AsyncStream<AlarmSoundEvent>.Continuation
    private let began = Atomic<Bool>(false)
    private let stopRequested = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    static let rate = 44_100
    static let chunkFrames = 1024
    /// RMS above −40 dBFS counts as audible (RELIABILITY.md's definition).
    static let audibleRMS = 32768.0 * 0.01

    private init() {
        (events, continuation) = AsyncStream.makeStream(of: AlarmSoundEvent.self, bufferingPolicy: .unbounded)
    }

    /// Opens the device and starts fetching; sounds only after `begin()`.
    public static func prepare(_ plan: AlarmSoundPlan, sink: SinkOptions, logger: Logger? = nil) -> AlarmSound {
        let sound = AlarmSound()
        let thread = Thread {
            var engine = AlarmSoundEngine(plan: plan, sinkOptions: sink, sound: sound, logger: logger)
            engine.run()
            sound.continuation.yield(.stopped)
            sound.continuation.finish()
            sound.finished.signal()
        }
        thread.name = "aubade.alarm-audio"
        thread.stackSize = 1 << 20
        thread.start()
        return sound
    }

    /// Starts sounding now (the alarm second).
    public func begin() { began.store(true, ordering: .releasing) }

    /// Stops at once, dropping what the device still holds.
    public func stop() { stopRequested.store(true, ordering: .releasing) }

    var hasBegun: Bool { began.load(ordering: .acquiring) }
    var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) }

    func emit(_ event: AlarmSoundEvent) { continuation.yield(event) }

    /// Blocks until the audio thread has finished (for tests and shutdown).
    public func waitUntilFinished() {
        finished.wait()
        finished.signal()
    }
}
