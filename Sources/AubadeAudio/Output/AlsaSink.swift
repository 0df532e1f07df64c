import CALSA
import Foundation
public import Logging

/// One ALSA playback device, 16-bit interleaved PCM.
///
/// Contract (docs/HOUSE-RULES.md §1 and §6):
/// - Not thread-safe and not Sendable: create, use and close it on one dedicated audio thread.
/// - `open` blocks up to `retryFor` while the device is busy or missing, then tries `alternate` (R19), then
///   throws an `AudioError` naming the device and alsa-lib's message.
/// - `write` blocks until the device accepted the frames (a real card paces it in real time). ALSA's `null`
///   and `file` plugins do not block, so on those (and only those: `pacesItself`) the sink sleeps with
///   `paced` to keep at most `latency` ahead of the wall clock, as a sound card would; the tests that want CPU
///   speed turn it off. A device with a clock of its own is never paced by the system clock as well: a card
///   whose crystal runs 50 ppm fast would drain its buffer by that much and, after an hour, underrun.
/// - An underrun (xrun) or suspend is recovered with `snd_pcm_recover`; only an unrecoverable error throws.
public final class AlsaSink {
    public let device: String
    /// Whether the device blocks writes in real time itself (anything but alsa-lib's `null` and `file` plugins).
    public let pacesItself: Bool
    public private(set) var rate = 0
    public private(set) var channels = 0
    private var pcm: OpaquePointer?
    private let paced: Bool
    private let latencyMicroseconds: UInt32
    private var framesWritten: Int64 = 0
    private var pacingStart: ContinuousClock.Instant?
    /// The device buffer negotiated by `configure`, in frames.
    private var bufferFrames: snd_pcm_uframes_t = 0

    /// Opens `device` (retrying while busy or missing for `retryFor`), else `alternate`.
    public init(
        device: String, alternate: String? = nil, retryFor: Duration = .seconds(2), paced: Bool = true,
        latency: Duration = .milliseconds(200), logger: Logger? = nil
    ) throws(AudioError) {
        self.paced = paced
        self.latencyMicroseconds = UInt32(latency / .microseconds(1))
        alsashim_silence_errors()
        var firstError = ""
        for (i, name) in [device, alternate].compactMap({ $0 }).filter({ !$0.isEmpty }).enumerated() {
            switch AlsaSink.open(name, retryFor: i == 0 ? retryFor : .zero) {
            case .success(let handle):
                self.pcm = handle
                self.device = name
                let type = snd_pcm_type(handle)
                self.pacesItself = type != SND_PCM_TYPE_NULL && type != SND_PCM_TYPE_FILE
                if i > 0 { logger?.warning("sound device \(device) failed (\(firstError)); using \(name)") }
                return
            case .failure(let message):
                if i == 0 { firstError = message.message }
            }
        }
        let tail = (alternate?.isEmpty ?? true) ? "" : ", nor the alternate \(alternate!)"
        throw AudioError("The sound device \(device) cannot be opened (\(firstError))\(tail).")
    }

    private static func open(_ name: String, retryFor: Duration) -> Result<OpaquePointer, Failure> {
        let clock = ContinuousClock()
        let deadline = clock.now + retryFor
        while true {
            var handle: OpaquePointer?
            let rc = snd_pcm_open(&handle, name, SND_PCM_STREAM_PLAYBACK, 0)
            if rc == 0, let handle { return .success(handle) }
            let message = "snd_pcm_open: \(String(cString: snd_strerror(rc)))"
            guard clock.now < deadline, rc == -EBUSY || rc == -ENOENT || rc == -ENODEV || rc == -EAGAIN else {
                return .failure(Failure(message))
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    struct Failure: Error {
        let message: String
        init(_ m: String) { message = m }
    }

    /// Sets the sample format; call before the first write and again when the stream's format changes.
    public func configure(rate: Int, channels: Int) throws(AudioError) {
        guard let pcm else { throw AudioError("The sound device \(device) is closed.") }
        guard rate != self.rate || channels != self.channels else { return }
        if self.rate != 0 { snd_pcm_drain(pcm) }
        let rc = snd_pcm_set_params(
            pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(channels),
            UInt32(rate), 1, latencyMicroseconds)
        guard rc == 0 else {
            throw AudioError(
                "snd_pcm_set_params(\(rate) Hz, \(channels) ch) on \(device) failed: \(String(cString: snd_strerror(rc))).")
        }
        var period: snd_pcm_uframes_t = 0
        if snd_pcm_get_params(pcm, &bufferFrames, &period) != 0 { bufferFrames = 0 }
        self.rate = rate
        self.channels = channels
        framesWritten = 0
        pacingStart = nil
    }

    /// Writes whole frames of interleaved samples; blocks as the device consumes them.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(AudioError) {
        guard let pcm, channels > 0, let base = samples.baseAddress else { return }
        var offset = 0
        let total = samples.count / channels
        while offset < total {
            let rc = snd_pcm_writei(pcm, base + offset * channels, snd_pcm_uframes_t(total - offset))
            if rc >= 0 {
                offset += Int(rc)
                continue
            }
            let recovered = snd_pcm_recover(pcm, Int32(rc), 1)
            guard recovered == 0 else {
                throw AudioError("snd_pcm_writei on \(device) failed: \(String(cString: snd_strerror(Int32(rc)))).")
            }
        }
        framesWritten += Int64(total)
        if paced && !pacesItself { pace() }
    }

    /// Sleeps while more than one device buffer plus the latency's worth of audio has been written ahead of the
    /// wall clock. The `file` plugin keeps one buffer to itself and writes out only what leaves it, so what
    /// reaches its file is then still `latency` ahead — as the audio waiting in a sound card would be.
    private func pace() {
        let clock = ContinuousClock()
        let start = pacingStart ?? clock.now
        pacingStart = start
        let audioTime = Duration.seconds(Double(framesWritten) / Double(rate))
        let lead = Duration.seconds(Double(bufferFrames) / Double(rate)) + .microseconds(Int64(latencyMicroseconds))
        let ahead = audioTime - (clock.now - start) - lead
        if ahead > .zero { Thread.sleep(forTimeInterval: ahead.inSeconds) }
    }

    /// Frames the device has actually played: written minus what still waits in its buffer.
    public var framesPlayed: Int64 {
        max(0, framesWritten - Int64(queuedFrames ?? 0))
    }

    /// Frames written but not yet played (`snd_pcm_delay`), or nil when the device cannot say.
    public var queuedFrames: Int? {
        guard let pcm else { return nil }
        var delay: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(pcm, &delay) == 0 else { return nil }
        return max(0, Int(delay))
    }

    /// Plays out what is queued, then stops; the next write starts the device again.
    public func drain() {
        guard let pcm else { return }
        snd_pcm_drain(pcm)
        restartStream(pcm)
    }

    /// Stops at once, discarding what is queued; the next write starts the device again.
    public func stop() {
        guard let pcm else { return }
        snd_pcm_drop(pcm)
        restartStream(pcm)
    }

    /// After a drop or drain the PCM is in the SETUP state: prepare it for the next write, and pace from
    /// that write on as from a fresh start (a pause must not let the next sound run ahead of real time).
    private func restartStream(_ pcm: OpaquePointer) {
        snd_pcm_prepare(pcm)
        framesWritten = 0
        pacingStart = nil
    }

    public func close() {
        if let pcm { snd_pcm_close(pcm) }
        pcm = nil
    }

    deinit {
        close()
    }
}
