import Foundation

/// A live HLS radio station on 127.0.0.1 for tests (Tests/Support/hls_live.py): ffmpeg writes a sine in real time
/// into a sliding playlist of 2-s segments, with a master playlist of three variants (32, 96 and 256 kbit/s AAC), in
/// `mode` ts, fmp4, adts (packed audio with ID3 titles) or aes (encrypted). Ready once three segments of each variant
/// exist; it dies with the test process. `control` makes it misbehave on cue.
public final class HLSLiveStation: Sendable {
    public let dir: TemporaryDirectory
    private let server: BackgroundProcess
    public var base: String { "http://127.0.0.1:\(server.firstLine)" }
    public var master: String { base + "/master.m3u8" }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/Support/hls_live.py").path

    public init(_ mode: String, frequency: Int, title: String = "Live at Aubade") async throws {
        dir = try TemporaryDirectory("hls-\(mode)")
        server = try await BackgroundProcess(
            try TestMedia.tool("python3"),
            [HLSLiveStation.script, "--dir", dir.path, "--mode", mode, "--frequency", "\(frequency)", "--title", title])
    }

    /// `freeze` (the playlists stop growing), `vanish` (they answer 404) or `discontinuity` (ffmpeg restarts).
    public func control(_ what: String) async throws {
        let r = try await ProcessRunner.run(try TestMedia.tool("curl"), ["-sf", "-X", "POST", base + "/control/" + what])
        guard r.status == 0 else { throw MediaError("the station did not take '\(what)': \(r.stderr)") }
    }
}
