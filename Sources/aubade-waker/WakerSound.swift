import AubadeHandoff
import CALSA
import Glibc

/// The waker's one ALSA playback device while it rings: 16-bit stereo at 44.1 kHz, the tone written 1024 frames
/// (23 ms) at a time from one buffer made at start.
///
/// Contract: single-threaded (the waker's loop). `open` never blocks: a device another process holds (the
/// daemon, frozen) fails at once with -EBUSY and the caller retries. Writes block as a sound card consumes
/// them; alsa-lib's `null` and `file` plugins (tests) do not, so for those `writeDue` paces the writes by the
/// monotonic clock to at most one device buffer plus 200 ms ahead, as a card would. `close` drops what is
/// queued, so a stop is silent at once and the card is free for the daemon.
final class WakerSound {
    static let chunk = 1024
    static let latencyMicroseconds: UInt32 = 200_000

    private var pcm: OpaquePointer?
    /// The device that is open (empty when none).
    private(set) var device = LongText()
    private var paced = false
    private var framesWritten: Int64 = 0
    private var startNanos: Int64 = 0
    private var leadNanos: Int64 = 0
    private let samples = UnsafeMutablePointer<Int16>.allocate(capacity: 2 * WakerSound.chunk)
    var synth = ToneSynth()

    init() {
        alsashim_silence_errors()
        // Read and cache alsa-lib's configuration now, not at the first ring.
        snd_config_update()
    }

    deinit { samples.deallocate() }

    var isOpen: Bool { pcm != nil }

    /// Opens `name`: 0, or a negative errno (alsa-lib's codes).
    func open(_ name: LongText) -> Int32 {
        close()
        var handle: OpaquePointer?
        let rc = name.withCString { snd_pcm_open(&handle, $0, SND_PCM_STREAM_PLAYBACK, Int32(SND_PCM_NONBLOCK)) }
        guard rc == 0, let handle else { return rc < 0 ? rc : -EIO }
        snd_pcm_nonblock(handle, 0)  // opened without waiting; written with blocking writes
        let set = snd_pcm_set_params(
            handle, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 2,
            UInt32(ToneSynth.rate), 1, WakerSound.latencyMicroseconds)
        guard set == 0 else {
            snd_pcm_close(handle)
            return set
        }
        var buffer: snd_pcm_uframes_t = 0
        var period: snd_pcm_uframes_t = 0
        if snd_pcm_get_params(handle, &buffer, &period) != 0 { buffer = 0 }
        let type = snd_pcm_type(handle)
        paced = type == SND_PCM_TYPE_NULL || type == SND_PCM_TYPE_FILE
        leadNanos = (Int64(buffer) * 1_000_000_000 / Int64(ToneSynth.rate)) + Int64(WakerSound.latencyMicroseconds) * 1000
        framesWritten = 0
        startNanos = WakerClock.monotonicNanos()
        pcm = handle
        device = name
        return 0
    }

    /// Drops what is queued and closes the device.
    func close() {
        if let pcm {
            snd_pcm_drop(pcm)
            snd_pcm_close(pcm)
        }
        pcm = nil
        device.removeAll()
    }

    /// Nanoseconds until the next chunk is due (0: now), for a device the waker paces; 0 for a card, whose
    /// blocking write paces it.
    func nanosUntilDue(_ now: Int64) -> Int64 {
        guard paced else { return 0 }
        let audio = framesWritten * 1_000_000_000 / Int64(ToneSynth.rate)
        return max(0, audio - (now - startNanos) - leadNanos)
    }

    /// Renders and writes one chunk of the tone: 0, or a negative errno when the device failed for good
    /// (an underrun is recovered).
    func writeChunk() -> Int32 {
        guard let pcm else { return -EBADF }
        synth.render(into: samples, frames: WakerSound.chunk)
        var offset = 0
        while offset < WakerSound.chunk {
            let rc = snd_pcm_writei(pcm, samples + 2 * offset, snd_pcm_uframes_t(WakerSound.chunk - offset))
            if rc >= 0 {
                offset += Int(rc)
                continue
            }
            let recovered = snd_pcm_recover(pcm, Int32(rc), 1)
            guard recovered == 0 else { return Int32(rc) }
        }
        framesWritten += Int64(WakerSound.chunk)
        return 0
    }

    /// The words alsa-lib has for an error code.
    static func describe(_ code: Int32, into w: TextWriter) {
        if let s = snd_strerror(code) {
            var i = 0
            while s[i] != 0 && i < 200 {
                w.byte(UInt8(bitPattern: s[i]))
                i += 1
            }
        }
    }
}
