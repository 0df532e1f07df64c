import AubadeSystem
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
///   and `file` plugins do not block — bare or behind `plug` — so on those (and only those: `pacesItself`) the sink sleeps with
///   `paced` to keep at most `latency` ahead of the wall clock, as a sound card would; the tests that want CPU
///   speed turn it off. A device with a clock of its own is never paced by the system clock as well: a card
///   whose crystal runs 50 ppm fast would drain its buffer by that much and, after an hour, underrun.
/// - An underrun (xrun) or suspend is recovered with `snd_pcm_recover`; only an unrecoverable error throws.
public final class AlsaSink {
    public let device: String
    /// Whether the device blocks writes in real time itself (anything but alsa-lib's `null` and `file` plugins, the
    /// latter also behind `plug`: known once `configure` has set the chain up).
    public private(set) var pacesItself: Bool
    public private(set) var rate = 0
    public private(set) var channels = 0
    private var pcm: OpaquePointer?
    private let paced: Bool
    private let latencyMicroseconds: UInt32
    private var framesWritten: Int64 = 0
    /// When the paced plugin's stand-in card started playing (`CLOCK_MONOTONIC`).
    private var pacingStart: Duration?
    /// The device buffer negotiated by `configure`, in frames.
    private var bufferFrames: snd_pcm_uframes_t = 0
    /// Whether the driver stamps its status on `CLOCK_MONOTONIC` (set in `configure`).
    private var monotonicStamps = false
    private var status: OpaquePointer?

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
        monotonicStamps = AlsaSink.askForMonotonicTimestamps(pcm)
        if pacesItself && AlsaSink.writesToFile(pcm) { pacesItself = false }
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
        let start = pacingStart ?? Monotonic.now()
        pacingStart = start
        let audioTime = Duration.seconds(Double(framesWritten) / Double(rate))
        let lead = Duration.seconds(Double(bufferFrames) / Double(rate)) + .microseconds(Int64(latencyMicroseconds))
        let ahead = audioTime - (Monotonic.now() - start) - lead
        if ahead > .zero { Thread.sleep(forTimeInterval: ahead.inSeconds) }
    }

    /// Frames the device has actually played: written minus what still waits in its buffer.
    public var framesPlayed: Int64 {
        max(0, framesWritten - Int64(queuedFrames ?? 0))
    }

    /// Frames written but not yet played (`snd_pcm_delay`), or nil when the device cannot say. A paced `null` or
    /// `file` plugin says what a card started at its first write would still hold.
    public var queuedFrames: Int? {
        timeline()?.queued
    }

    /// What the device holds and when: the frames written but not yet heard, read at `at` (`CLOCK_MONOTONIC`).
    public struct Timeline: Sendable, Equatable {
        /// Frames written since the stream started (it restarts after `stop`, `drain` and `configure`).
        public var written: Int64
        /// Of those, still waiting to be heard (`snd_pcm_delay`: the buffer and what the card reports beyond it).
        public var queued: Int
        /// When `queued` was true.
        public var at: Duration
        /// Whether `at` is the driver's own timestamp of that reading, rather than the system clock's beside it.
        public var deviceTimestamp: Bool
        /// Whether the stream is playing (a stopped one starts once its buffer is full).
        public var running: Bool
    }

    /// The device's timeline now, or nil when it cannot say (a failing device; an unpaced `null` or `file`
    /// plugin, which runs ahead of any clock). On a card, `snd_pcm_status`: the delay and its timestamp, read
    /// together by the driver. On a paced plugin, the card it stands in for: started at the first write,
    /// playing in real time.
    public func timeline() -> Timeline? {
        guard let pcm else { return nil }
        if !pacesItself {
            guard paced else { return nil }
            let now = Monotonic.now()
            let heard = pacingStart.map { Int64((now - $0).inSeconds * Double(rate)) } ?? 0
            return Timeline(
                written: framesWritten, queued: Int(max(0, framesWritten - heard)), at: now, deviceTimestamp: false,
                running: pacingStart != nil)
        }
        if status == nil { snd_pcm_status_malloc(&status) }
        guard let status, snd_pcm_status(pcm, status) == 0 else { return nil }
        let delay = max(0, Int(snd_pcm_status_get_delay(status)))
        var stamp = snd_htimestamp_t()
        snd_pcm_status_get_htstamp(status, &stamp)
        let running = snd_pcm_status_get_state(status) == SND_PCM_STATE_RUNNING
        // The driver stamps a running stream's reading on CLOCK_MONOTONIC (asked for in `configure`); a stream
        // that has not started, or a driver without stamps, is read against the system clock beside it.
        if running, stamp.tv_sec > 0 || stamp.tv_nsec > 0, monotonicStamps {
            return Timeline(
                written: framesWritten, queued: delay, at: Monotonic.duration(stamp), deviceTimestamp: true, running: true)
        }
        return Timeline(written: framesWritten, queued: delay, at: Monotonic.now(), deviceTimestamp: false, running: running)
    }

    /// Whether the chain ends in alsa-lib's `file` plugin behind a converter (`plug:"file:…"`): it takes anything at
    /// once, like the bare `file` plugin, and what it is given (a test write too) lands in its file.
    private static func writesToFile(_ pcm: OpaquePointer) -> Bool {
        var out: OpaquePointer?
        guard snd_output_buffer_open(&out) == 0, let out else { return false }
        defer { snd_output_close(out) }
        guard snd_pcm_dump(pcm, out) == 0 else { return false }
        var text: UnsafeMutablePointer<CChar>?
        let n = snd_output_buffer_string(out, &text)
        guard n > 0, let text else { return false }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: n), as: UTF8.self).contains("File PCM")
    }

    /// Asks the driver to stamp its status readings on `CLOCK_MONOTONIC`, the clock the engine schedules on.
    private static func askForMonotonicTimestamps(_ pcm: OpaquePointer) -> Bool {
        var sw: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&sw) == 0, let sw else { return false }
        defer { snd_pcm_sw_params_free(sw) }
        guard snd_pcm_sw_params_current(pcm, sw) == 0,
            snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE) == 0,
            snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC) == 0
        else { return false }
        return snd_pcm_sw_params(pcm, sw) == 0
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
        if let status { snd_pcm_status_free(status) }
        status = nil
    }

    deinit {
        close()
    }
}
