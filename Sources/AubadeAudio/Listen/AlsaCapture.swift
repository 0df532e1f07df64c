import AubadeSystem
import CALSA
import Foundation

/// One ALSA capture device — the microphone of the room check — read as mono samples (−1…1), each read stamped with
/// when its first sample was captured (`CLOCK_MONOTONIC`).
///
/// Contract (docs/HOUSE-RULES.md §1 and §6):
/// - Not thread-safe and not Sendable: open, read and close it on one dedicated thread (`RoomCheck`'s "aubade.mic").
/// - `init` asks for 16-bit samples, one channel and `rate`, and takes what the device offers nearest (a USB
///   microphone's 48 kHz; a loopback card's capture follows its playback): `rate` and `channels` say what was
///   set; channels are averaged into one. It never blocks on a busy device: it throws an `AudioError` naming the
///   device, the call and alsa-lib's message.
/// - `read` blocks until the samples are there (a card paces it in real time; alsa-lib's `file` plugin with an
///   `infile` over `null` returns at once). An overrun is recovered with `snd_pcm_recover`; only an unrecoverable
///   error throws.
public final class AlsaCapture {
    public let device: String
    public private(set) var rate = 0
    public private(set) var channels = 0
    private var pcm: OpaquePointer?
    private var interleaved: [Int16] = []

    /// Opens `device` for capture. `definition`: alsa-lib configuration text that defines `device` (the tests' `file`
    /// PCM with an `infile`); nil: the system's configuration.
    public init(device: String, definition: String? = nil, rate wanted: Int = 44_100) throws(AudioError) {
        self.device = device
        alsashim_silence_errors()
        var handle: OpaquePointer?
        let rc: Int32
        if let definition {
            rc = Self.openLocal(&handle, device, definition)
        } else {
            rc = snd_pcm_open(&handle, device, SND_PCM_STREAM_CAPTURE, 0)
        }
        guard rc == 0, let handle else { throw Self.failure(device, "snd_pcm_open", rc) }
        pcm = handle
        do throws(AudioError) {
            try configure(handle, wanted)
        } catch {
            close()
            throw error
        }
    }

    private static func openLocal(_ handle: inout OpaquePointer?, _ name: String, _ text: String) -> Int32 {
        var config: OpaquePointer?
        var input: OpaquePointer?
        guard snd_config_top(&config) == 0, let config else { return -ENOMEM }
        defer { snd_config_delete(config) }
        var bytes = Array(text.utf8CString)
        let rc = bytes.withUnsafeMutableBufferPointer { b in
            snd_input_buffer_open(&input, b.baseAddress, b.count - 1)
        }
        guard rc == 0, let input else { return rc }
        defer { snd_input_close(input) }
        let loaded = snd_config_load(config, input)
        guard loaded == 0 else { return loaded }
        return snd_pcm_open_lconf(&handle, name, SND_PCM_STREAM_CAPTURE, 0, config)
    }

    private func configure(_ pcm: OpaquePointer, _ wanted: Int) throws(AudioError) {
        var hw: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&hw) == 0, let hw else { throw Self.failure(device, "snd_pcm_hw_params_malloc", -ENOMEM) }
        defer { snd_pcm_hw_params_free(hw) }
        var r = UInt32(wanted)
        var c: UInt32 = 1
        // Two seconds: a thread held up (a loaded machine; the HIL's debug build under emulation was held up past
        // half a second, several times a ring) loses nothing before it reads again. 176 kB at 44.1 kHz, mono.
        var buffer = snd_pcm_uframes_t(wanted * 2)
        var period = snd_pcm_uframes_t(wanted / 50)  // 20 ms
        var dir: Int32 = 0
        let steps: [(String, () -> Int32)] = [
            ("snd_pcm_hw_params_any", { snd_pcm_hw_params_any(pcm, hw) }),
            ("snd_pcm_hw_params_set_access", { snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED) }),
            ("snd_pcm_hw_params_set_format", { snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE) }),
            ("snd_pcm_hw_params_set_channels_near", { snd_pcm_hw_params_set_channels_near(pcm, hw, &c) }),
            ("snd_pcm_hw_params_set_rate_near", { snd_pcm_hw_params_set_rate_near(pcm, hw, &r, &dir) }),
            ("snd_pcm_hw_params_set_buffer_size_near", { snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer) }),
            ("snd_pcm_hw_params_set_period_size_near", { snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, &dir) }),
            ("snd_pcm_hw_params", { snd_pcm_hw_params(pcm, hw) }),
            ("snd_pcm_prepare", { snd_pcm_prepare(pcm) }),
        ]
        for (call, step) in steps {
            let rc = step()
            guard rc >= 0 else { throw Self.failure(device, call, rc) }
        }
        rate = Int(r)
        channels = Int(max(1, c))
    }

    /// Frames captured and not yet read (`snd_pcm_avail`): what a thread that fell behind may read at once. 0 when
    /// the device cannot say (the next `read` meets its error).
    public var available: Int {
        guard let pcm else { return 0 }
        return max(0, Int(snd_pcm_avail(pcm)))
    }

    /// Reads `frames` frames into `out` as mono samples (−1…1), replacing its contents; blocks until they are there.
    /// Returns when the first of them was captured.
    @discardableResult
    public func read(frames: Int, into out: inout [Float]) throws(AudioError) -> Duration {
        guard let pcm else { throw AudioError("The microphone \(device) is closed.") }
        if interleaved.count < frames * channels { interleaved = Array(repeating: 0, count: frames * channels) }
        var got = 0
        while got < frames {
            let rc = interleaved.withUnsafeMutableBufferPointer { b in
                snd_pcm_readi(pcm, b.baseAddress! + got * channels, snd_pcm_uframes_t(frames - got))
            }
            if rc >= 0 {
                got += Int(rc)
                continue
            }
            guard snd_pcm_recover(pcm, Int32(rc), 1) == 0 else { throw Self.failure(device, "snd_pcm_readi", Int32(rc)) }
        }
        var waiting: snd_pcm_sframes_t = 0
        if snd_pcm_delay(pcm, &waiting) != 0 { waiting = 0 }
        let now = Monotonic.now()
        out.removeAll(keepingCapacity: true)
        let scale = 1 / (32768 * Float(channels))
        for i in 0..<frames {
            var sum: Int32 = 0
            for ch in 0..<channels { sum += Int32(interleaved[i * channels + ch]) }
            out.append(Float(sum) * scale)
        }
        return now - .nanoseconds((Int64(max(0, waiting)) + Int64(frames)) * 1_000_000_000 / Int64(rate))
    }

    public func close() {
        if let pcm { snd_pcm_close(pcm) }
        pcm = nil
    }

    deinit { close() }

    static func failure(_ device: String, _ call: String, _ rc: Int32) -> AudioError {
        AudioError("The microphone \(device) cannot be used: \(call) failed (\(String(cString: snd_strerror(rc)))).")
    }
}
