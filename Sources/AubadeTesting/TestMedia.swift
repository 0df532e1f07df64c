import Foundation

/// Test audio made at test time with sox and lame (both from Debian; `make test` installs them), without dither (`-D`),
/// so the same call makes the same bytes on every run: a test that reads the stream as bytes (a misplaced metadata
/// block) meets the same bytes each time.
public enum TestMedia {
    /// A CBR MP3 of a sine at `frequency` Hz, `seconds` long, 44.1 kHz stereo, written into `dir`.
    public static func sineMP3(
        frequency: Int, seconds: Int, bitrate: Int = 128, rate: Int = 44_100,
        artist: String? = nil, title: String? = nil, in dir: TemporaryDirectory
    ) async throws -> String {
        let wav = dir.file("sine-\(frequency)-\(seconds)-\(rate).wav")
        let mp3 = dir.file("sine-\(frequency)-\(seconds)-\(rate)-\(bitrate).mp3")
        try check(
            await ProcessRunner.run(
                try tool("sox"),
                [
                    "-D", "-n", "-r", "\(rate)", "-c", "2", "-b", "16", wav,
                    "synth", "\(seconds)", "sine", "\(frequency)", "vol", "0.5",
                ]))
        let tags = (artist.map { ["--ta", $0] } ?? []) + (title.map { ["--tt", $0] } ?? [])
        try check(await ProcessRunner.run(try tool("lame"), ["--quiet", "--cbr", "-b", "\(bitrate)"] + tags + [wav, mp3]))
        return mp3
    }

    /// An MP3 made of sine parts one after the other (`[(440, 10), (660, 20)]`: 10 s at 440 Hz, then 20 s at 660 Hz)
    /// — an episode whose position can be heard.
    public static func partsMP3(_ parts: [(frequency: Int, seconds: Int)], name: String, in dir: TemporaryDirectory)
        async throws -> String
    {
        var wavs: [String] = []
        for (i, part) in parts.enumerated() {
            let wav = dir.file("\(name)-part\(i).wav")
            try check(
                await ProcessRunner.run(
                    try tool("sox"),
                    [
                        "-D", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "\(part.seconds)", "sine",
                        "\(part.frequency)", "vol", "0.5",
                    ]))
            wavs.append(wav)
        }
        let whole = dir.file("\(name).wav")
        try check(await ProcessRunner.run(try tool("sox"), wavs + [whole]))
        let mp3 = dir.file("\(name).mp3")
        try check(await ProcessRunner.run(try tool("lame"), ["--quiet", "--cbr", "-b", "128", whole, mp3]))
        return mp3
    }

    /// The full path of an installed tool, or an error that says how to get it.
    public static func tool(_ name: String) throws -> String {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        throw MediaError("\(name) is not installed; run 'make test' (it installs the test tools).")
    }

    private static func check(_ r: ProcessResult) throws {
        guard r.status == 0 else { throw MediaError("a media tool failed: \(r.stderr)") }
    }
}

public struct MediaError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}
