import Foundation

/// Test audio in the formats beside MP3, made at test time with Debian's `ffmpeg` from a sox sine (bit-exact
/// flags, so the same call makes the same bytes on every run).
extension TestMedia {
    public enum Format: String, Sendable, CaseIterable {
        /// AAC-LC in ADTS frames.
        case aac
        /// Ogg Vorbis.
        case vorbis
        /// Ogg Opus (always 48 kHz inside).
        case opus
        /// FLAC.
        case flac
        /// FLAC in Ogg (what Icecast relays: native FLAC has no pages for a listener to join at).
        case oggFLAC
        /// AAC-LC in an MP4 (M4A) with its index first (`+faststart`), as podcasts are mostly published.
        case m4a
        /// AAC-LC in an MP4 with its index (`moov`) after the audio, as ffmpeg and many editors write it.
        case m4aIndexLast

        public var fileExtension: String {
            switch self {
            case .aac: "aac"
            case .vorbis: "ogg"
            case .opus: "opus"
            case .flac: "flac"
            case .oggFLAC: "oga"
            case .m4a: "m4a"
            case .m4aIndexLast: "late.m4a"
            }
        }

        var codecArguments: [String] {
            switch self {
            case .aac: ["-c:a", "aac", "-b:a", "96k", "-f", "adts"]
            case .vorbis: ["-c:a", "libvorbis", "-q:a", "3", "-f", "ogg"]
            case .opus: ["-c:a", "libopus", "-b:a", "64k", "-f", "ogg"]
            case .flac: ["-c:a", "flac", "-f", "flac"]
            case .oggFLAC: ["-c:a", "flac", "-f", "ogg"]
            case .m4a: ["-c:a", "aac", "-b:a", "96k", "-movflags", "+faststart", "-f", "ipod"]
            case .m4aIndexLast: ["-c:a", "aac", "-b:a", "96k", "-f", "ipod"]
            }
        }
    }

    /// A sine at `frequency` Hz, `seconds` long, at `rate` Hz with `channels` channels, in `format`, written into `dir`;
    /// with `artist` and `title` in its tags (an Ogg file's comment header).
    public static func sine(
        _ format: Format, frequency: Int, seconds: Int, rate: Int = 44_100, channels: Int = 2,
        artist: String? = nil, title: String? = nil, in dir: TemporaryDirectory
    ) async throws -> String {
        let wav = dir.file("sine-\(frequency)-\(seconds)-\(rate)-\(channels).wav")
        if !FileManager.default.fileExists(atPath: wav) {
            try check(
                await ProcessRunner.run(
                    try tool("sox"),
                    [
                        "-D", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", wav,
                        "synth", "\(seconds)", "sine", "\(frequency)", "vol", "0.5",
                    ]))
        }
        let tagged = title == nil ? "" : "-tagged"
        let out = dir.file("sine-\(frequency)-\(seconds)-\(rate)-\(channels)\(tagged).\(format.fileExtension)")
        try check(
            await ProcessRunner.run(
                try tool("ffmpeg"),
                ["-nostdin", "-loglevel", "error", "-y", "-i", wav, "-fflags", "+bitexact", "-flags:a", "+bitexact"]
                    + (artist.map { ["-metadata", "artist=\($0)"] } ?? []) + (title.map { ["-metadata", "title=\($0)"] } ?? [])
                    + format.codecArguments + [out]))
        return out
    }

    /// HE-AAC v1 (SBR, `version` 1) or v2 (PS, `version` 2) in ADTS: a sine at `frequency` Hz, 48 kHz stereo, made by
    /// Fraunhofer's libfdk-aac (Tests/Support/fdk_encode.py) — Debian's FFmpeg has no HE-AAC encoder. The library is
    /// the one `make test` unpacked from Debian's non-free component into the build folder ($AUBADE_FDK_AAC, else
    /// .build/fdk-aac); a test never fetches it.
    public static func heAAC(version: Int, frequency: Int, seconds: Int, in dir: TemporaryDirectory) async throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = ProcessInfo.processInfo.environment["AUBADE_FDK_AAC"] ?? root.appendingPathComponent(".build/fdk-aac").path
        let library = FileManager.default.enumerator(atPath: folder + "/root")?.compactMap { $0 as? String }
            .first { $0.hasSuffix("/libfdk-aac.so.2") }
        guard let library else {
            throw MediaError(
                "libfdk-aac is not in \(folder); run 'make test' (or Tests/Support/fdk_aac.sh \(folder)) to unpack it from Debian's archive."
            )
        }
        let wav = dir.file("sine-\(frequency)-\(seconds)-48000-2.wav")
        try check(
            await ProcessRunner.run(
                try tool("sox"),
                [
                    "-D", "-n", "-r", "48000", "-c", "2", "-b", "16", wav, "synth", "\(seconds)", "sine", "\(frequency)", "vol",
                    "0.5",
                ]))
        let out = dir.file("sine-\(frequency)-\(seconds)-he-aac-v\(version).aac")
        let encoder = root.appendingPathComponent("Tests/Support/fdk_encode.py").path
        try check(
            await ProcessRunner.run(
                try tool("python3"),
                [encoder, folder + "/root/" + library, version == 2 ? "29" : "5", version == 2 ? "32000" : "48000", wav, out]))
        return out
    }

    private static func check(_ r: ProcessResult) throws {
        guard r.status == 0 else { throw MediaError("a media tool failed: \(r.stderr)") }
    }
}
