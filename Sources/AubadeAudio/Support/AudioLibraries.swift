import CALSA
import CMPG123

/// The audio C libraries as linked at run time, for `aubade version` and `doctor`.
/// Each probe calls the library for real; a failure comes back as text, never a crash.
public enum AudioLibraries {
    public static var alsaVersion: String {
        String(cString: snd_asoundlib_version())
    }

    /// mpg123's API version and the decoder it picks on this CPU (e.g. "AVX", "NEON64").
    public static var mpg123Description: String {
        let initCode = mpg123_init()
        guard initCode == Int32(MPG123_OK.rawValue) else {
            return "mpg123 init failed: \(String(cString: mpg123_plain_strerror(initCode)))"
        }
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else {
            return "mpg123_new failed: \(String(cString: mpg123_plain_strerror(error)))"
        }
        defer { mpg123_delete(handle) }
        let decoder = mpg123_current_decoder(handle).map { String(cString: $0) } ?? "unknown"
        return "API \(MPG123_API_VERSION), decoder \(decoder)"
    }

    /// Opens and closes an ALSA playback PCM, returning nil on success or alsa-lib's message.
    /// `null` needs no sound card, so this works on any machine with alsa-lib.
    public static func probePlayback(device: String) -> String? {
        alsashim_silence_errors()
        defer { alsashim_default_errors() }
        var pcm: OpaquePointer?
        let rc = snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, Int32(SND_PCM_NONBLOCK))
        guard rc == 0, let pcm else {
            return "snd_pcm_open(\(device)) failed: \(String(cString: snd_strerror(rc)))"
        }
        snd_pcm_close(pcm)
        return nil
    }
}
