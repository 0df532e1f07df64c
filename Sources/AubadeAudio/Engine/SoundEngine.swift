public import AubadeCore
import AubadeSystem
import Foundation
public import Logging
import Synchronization

/// The one sound engine: owns the sound device for its whole life (opened at `start`, reopened after a
/// fault) and plays every sound — alarms (supervised, with the tone as fallback), the radio, chimes, tones —
/// through one pipeline: station (curl → ICY → mpg123) or synthesised tone → volume → one ALSA device, always
/// 16-bit stereo at 44.1 kHz. Which sound is heard is the engine's rule (`SoundRequest`): an alarm pre-empts
/// the radio without reopening the card, a chime sounds over the radio, a new alarm replaces the sounding
/// one without a silent moment.
///
/// Contract: thread-safe; every call returns at once and is carried out in order on the audio thread
/// ("aubade.audio", a dedicated thread: alsa-lib and mpg123 block). Everything that happens comes out of
/// `events` — one stream, for one consumer — in order; nothing about a sound follows its `.stopped`, and
/// the stream finishes after `shutdown()`.
public final class SoundEngine: Sendable {
    public struct Options: Sendable {
        public var sink: SinkOptions
        /// A prepared sound is reported `ready` after this long at the latest, buffered or not.
        public var prerollCap: Duration
        /// The highest bandwidth of an HLS variant a station plays, bits per second.
        public var hlsBandwidthCap: Int

        public init(sink: SinkOptions, prerollCap: Duration = .seconds(5), hlsBandwidthCap: Int = 128_000) {
            self.sink = sink
            self.prerollCap = prerollCap
            self.hlsBandwidthCap = hlsBandwidthCap
        }
    }

    /// The rate everything is decoded or synthesised to.
    public static let rate = 44_100
    /// The silence written (and dropped) each time a card opens, to prove it takes audio (R34): 10 ms.
    public static let testWriteFrames = rate / 100

    public let events: AsyncStream<SoundEvent>
    private let continuation: AsyncStream<SoundEvent>.Continuation
    private let mailbox = EngineMailbox()
    private let state = EngineState()
    private let nextID = Atomic<Int>(1)
    private let started = Atomic<Bool>(false)
    private let finished = Mutex<[CheckedContinuation<Void, Never>]?>([])
    private let options: Options
    private let logger: Logger?
    /// What the engine wrote to the card, chunk by chunk (level, tone, when heard): what the room check compares the
    /// microphone with.
    public let playback = PlaybackTap()

    public init(options: Options, logger: Logger? = nil) {
        self.options = options
        self.logger = logger
        (events, continuation) = AsyncStream.makeStream(of: SoundEvent.self, bufferingPolicy: .unbounded)
    }

    /// Starts the audio thread, which opens the device at once. Idempotent.
    public func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let continuation = self.continuation
        let context = VoiceContext(
            rate: SoundEngine.rate, hlsBandwidthCap: options.hlsBandwidthCap, emit: { continuation.yield($0) })
        let mailbox = self.mailbox, state = self.state, options = self.options, logger = self.logger, tap = playback
        NamedThread.start("aubade.audio", stackSize: 1 << 20) { [self] in
            var loop = EngineLoop(
                mailbox: mailbox, state: state, options: options.sink, context: context,
                prerollCap: options.prerollCap, tap: tap, logger: logger)
            loop.run()
            continuation.finish()
            let waiters = finished.withLock { w -> [CheckedContinuation<Void, Never>] in
                defer { w = nil }
                return w ?? []
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Plays `request` now — or, with `paused`, prepares it (the station connects and buffers, nothing is
    /// heard) until `begin`. Returns the id its events carry.
    @discardableResult
    public func play(_ request: SoundRequest, paused: Bool = false) -> SoundID {
        let id = SoundID(nextID.wrappingAdd(1, ordering: .relaxed).oldValue)
        mailbox.post(.play(id, request, paused: paused))
        return id
    }

    /// As `play(_:paused:)`, under the name `id` the caller chose (the running clock names its sounds; it is the
    /// engine's only client in the daemon, so the names never collide).
    public func play(_ id: SoundID, _ request: SoundRequest, paused: Bool) {
        mailbox.post(.play(id, request, paused: paused))
    }

    /// Begins a prepared sound now.
    public func begin(_ id: SoundID) { mailbox.post(.begin(id)) }

    /// Begins a prepared sound by itself so that its first frame reaches the card at `instant` (`CLOCK_MONOTONIC`):
    /// an alarm's second. The device is primed with silence until then and the sound starts early by what the
    /// device holds (`EngineLoop`); its onset is measured and reported (`SoundEvent.onset`).
    public func begin(_ id: SoundID, at instant: MonotonicInstant) { mailbox.post(.beginAt(id, instant)) }

    /// Stops a sound (prepared or sounding) at once.
    public func stop(_ id: SoundID) { mailbox.post(.stop(id)) }

    /// Moves a sound's volume (0–100) over 50 ms: the sleep timer's fade, the volume buttons.
    public func setVolume(_ id: SoundID, _ volume: Int) { mailbox.post(.volume(id, volume)) }

    /// Stops every sound, closes the device and finishes `events`; returns when the audio thread is done.
    public func shutdown() async {
        mailbox.post(.shutdown)
        guard started.load(ordering: .acquiring) else {
            continuation.finish()
            return
        }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let done = finished.withLock { w -> Bool in
                guard w != nil else { return true }
                w!.append(c)
                return false
            }
            if done { c.resume() }
        }
    }

    /// The device as the audio thread last saw it.
    public var device: DeviceStatus {
        let s = state.current
        return DeviceStatus(isOpen: s.deviceOpen, name: s.deviceName, problem: s.deviceProblem, opens: s.deviceOpens)
    }

    /// Sounds that are sounding now, oldest first.
    public var sounding: [SoundID] { state.current.sounding }

    /// The network buffer of the station sounding now (R25), for the memory soak and `status`.
    public var bufferLevel: BufferLevel? { state.current.bufferLevel }
}
