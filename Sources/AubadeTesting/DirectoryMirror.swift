import Foundation

/// A stand-in for a mirror of the public station directory: `Tests/Fixtures/directory_server.py` on 127.0.0.1 in
/// `mode` ("ok", "html", "junk"), answering from a stations file in the test's folder (shared by every mirror of
/// that folder, rewritten by `write`), logging each request it received.
public final class DirectoryMirror: Sendable {
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/directory_server.py").path

    let server: BackgroundProcess
    public let log: String
    public let stationsFile: String
    public var base: String { "http://127.0.0.1:\(server.firstLine)" }

    /// Starts a mirror; the folder's stations file gets `stations(streams:)` for this mirror's address unless it
    /// exists. `mp3` is what its `/stream.mp3` serves.
    public init(_ mode: String, in dir: TemporaryDirectory, mp3: String? = nil) async throws {
        log = dir.file("requests-\(mode)-\(UUID().uuidString).log")
        stationsFile = dir.file("stations.json")
        let fresh = !FileManager.default.fileExists(atPath: stationsFile)
        if fresh { try Data("[]".utf8).write(to: URL(fileURLWithPath: stationsFile)) }
        server = try await BackgroundProcess(
            "/usr/bin/python3", [DirectoryMirror.script, mode, stationsFile, log] + (mp3.map { [$0] } ?? []))
        if fresh { try write(DirectoryMirror.stations(streams: base)) }
    }

    public func write(_ stations: [[String: Any]]) throws {
        try JSONSerialization.data(withJSONObject: stations).write(to: URL(fileURLWithPath: stationsFile), options: .atomic)
    }

    /// The requests it received: path, query and User-Agent.
    public var requests: [[String: Any]] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The stations the test mirrors know, in the directory's own field names.
    public static func stations(streams base: String) -> [[String: Any]] {
        [
            [
                "stationuuid": "11111111-1111-1111-1111-111111111111", "name": "Swiss Jazz", "url": "\(base)/stream.mp3",
                "url_resolved": "\(base)/stream.mp3", "countrycode": "CH", "tags": "jazz,swing", "codec": "MP3",
                "bitrate": 128, "hls": 0, "lastcheckok": 1, "clickcount": 900, "favicon": "\(base)/logo/jazz.png",
            ],
            [
                "stationuuid": "22222222-2222-2222-2222-222222222222", "name": "Jazz FM AAC", "url_resolved": "\(base)/aac",
                "countrycode": "GB", "tags": "jazz", "codec": "AAC", "bitrate": 64, "hls": 0, "lastcheckok": 1,
                "clickcount": 800,
            ],
            [
                "stationuuid": "33333333-3333-3333-3333-333333333333", "name": "Jazz HLS", "url_resolved": "\(base)/live.m3u8",
                // A television channel's HLS: the picture is something this clock cannot play.
                "countrycode": "US", "tags": "jazz", "codec": "AAC,H.264", "hls": 1, "lastcheckok": 1, "clickcount": 700,
            ],
            [
                // The same stream as Swiss Jazz under another entry (the directory holds thousands of these).
                "stationuuid": "44444444-4444-4444-4444-444444444444", "name": "Swiss Jazz (copy)",
                "url_resolved": base.replacingOccurrences(of: "http://", with: "HTTP://") + "/stream.mp3",
                "countrycode": "CH", "tags": "jazz", "codec": "MP3", "lastcheckok": 1, "clickcount": 10,
            ],
            [
                "stationuuid": "55555555-5555-5555-5555-555555555555", "name": "Broken Jazz",
                "url_resolved": "\(base)/gone", "codec": "MP3", "tags": "jazz", "lastcheckok": 0, "clickcount": 5000,
            ],
            [
                "stationuuid": "66666666-6666-6666-6666-666666666666", "name": "Classic Morning",
                "url_resolved": "\(base)/classic", "countrycode": "DE", "tags": "classical", "codec": "MP3",
                "lastcheckok": 1, "clickcount": 50,
            ],
        ]
    }

}
