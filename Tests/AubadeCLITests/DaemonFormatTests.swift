import AubadeTesting
import Foundation
import Testing

/// The formats beside MP3 through the real daemon (`DaemonTests.Clock`: a temp database, the ALSA `file` plugin as
/// its card, `--fake-time`): an alarm on an AAC, HE-AAC, Ogg, FLAC or live HLS station is pre-checked (a second of
/// its real audio decoded), pre-rolled and on the card from the alarm's first frame at the station's pitch; a live
/// HLS station whose playlist stops growing gives way to the tone after R16's silence; an encrypted one is refused by
/// the pre-check with its sentence; a podcast episode in M4A rings.
@Suite("Daemon: every format an alarm can ring", .serialized)
struct DaemonFormatTests {
    static let mediaServer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/media_server.py").path
    /// The stations' note: neither the tone's 880 Hz nor a harmonic of it.
    static let frequency = 523.0

    /// The station's note and not one 8 % off it (a 48 kHz stream played as 44.1 kHz would sound at 481 Hz).
    static func isTheNote(_ window: ArraySlice<Int16>) -> Bool {
        let mono = Signal.left(Array(window))
        let at = Signal.power(at: frequency, mono)
        return Signal.isTone(frequency, over: 880, in: window) && at > 30 * Signal.power(at: frequency * 0.92, mono)
            && at > 30 * Signal.power(at: frequency * 1.08, mono) && Signal.rmsDBFS(window) > -25
    }

    /// Rings an alarm on `url` and checks it as `DaemonTests.aStationAlarmIsPreRolledAndHeard` does the MP3 one.
    /// `leadIn`: seconds at the stream's start that are its own near-silence (HE-AAC's encoder and SBR delay: the
    /// test server starts each connection at the file's first frame), checked as not silent-by-underrun only.
    static func ringsFromItsFirstFrame(_ c: DaemonTests.Clock, url: String, what: String, leadIn: Double = 0) async throws {
        try await c.run(["station", "add", "--name", "Test FM", "--url", url])
        _ = try await c.addAlarm(["--source", "Test FM", "--fade-in", "0s", "--volume", "100"])
        let d = try await c.daemon(lead: 17)  // inside the pre-check window; the pre-roll starts 15 s before
        let check = try #require(await d.wait(for: "precheck-passed"), "\(what): \(d.output)")
        #expect(check["alarm"] as? Int == 1)
        let audible = try #require(await d.wait(for: "audible"))
        #expect((audible["detail"] as? String ?? "").contains("source=station"), "\(what): \(audible)")
        #expect(try DaemonTests.position(d, "precheck-passed") < DaemonTests.position(d, "ringing"))
        #expect(try DaemonTests.position(d, "ringing") < DaemonTests.position(d, "audible"))
        #expect(await c.waitForAlarmAudio(seconds: 3))
        #expect(c.primedSeconds <= 15.1, "primed for \(c.primedSeconds) s")
        let whole = c.alarmPCM()
        let pcm = Array(whole[min(whole.count, 2 * Int(leadIn * Double(Signal.rate)))...])
        let windows = Signal.windows(pcm)
        #expect(windows.first.map { isTheNote($0.samples) } == true, "\(what): the card's first 100 ms")
        #expect(windows.prefix(25).allSatisfy { isTheNote($0.samples) }, "\(what): the first 2.5 s on the card")
        #expect(Signal.longestSilence(pcm) == 0, "\(what): no underrun")
        let onset = try #require(await d.wait(for: "onset"))
        #expect(try DaemonTests.position(d, "ringing") < DaemonTests.position(d, "onset"))
        figure("daemon \(what) onset (its own measure)", "\(onset["late_ms"] ?? "?") ms, by \(onset["by"] ?? "?")")
        #expect(await d.wait(for: "fallback", timeout: .seconds(3)) == nil)
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }

    /// The media server over the clock's folder; `name` is made there in `format`.
    static func station(_ c: DaemonTests.Clock, _ format: TestMedia.Format?, rate: Int, channels: Int)
        async throws -> (BackgroundProcess, String)
    {
        let path =
            if let format {
                try await TestMedia.sine(
                    format, frequency: Int(frequency), seconds: 10, rate: rate, channels: channels, in: c.dir)
            } else {
                try await TestMedia.heAAC(version: 2, frequency: Int(frequency), seconds: 10, in: c.dir)
            }
        let server = try await BackgroundProcess("/usr/bin/python3", [mediaServer, c.dir.path])
        let name = URL(fileURLWithPath: path).lastPathComponent
        return (server, "http://127.0.0.1:\(server.firstLine)/live/\(name)?seconds=10&speed=2")
    }

    @Test(arguments: [
        (TestMedia.Format.aac, 48_000, 1), (.opus, 48_000, 2), (.flac, 44_100, 2),
    ])
    func anAlarmOnAStationRingsItFromItsFirstFrame(format: TestMedia.Format, rate: Int, channels: Int) async throws {
        let c = try DaemonTests.Clock()
        let (server, url) = try await Self.station(c, format, rate: rate, channels: channels)
        defer { withExtendedLifetime(server) {} }
        try await Self.ringsFromItsFirstFrame(c, url: url, what: "\(format) \(rate) Hz × \(channels)")
    }

    @Test func anAlarmOnAnHEAACv2StationRingsItFromItsFirstFrame() async throws {
        let c = try DaemonTests.Clock()
        let (server, url) = try await Self.station(c, nil, rate: 48_000, channels: 2)
        defer { withExtendedLifetime(server) {} }
        // The file's first 0.2 s are the encoder's and SBR's delay (2048 + 962 samples at 48 kHz and the decoder's
        // own), near-silent: what the card must hear from the alarm's first frame is that stream, as it is.
        try await Self.ringsFromItsFirstFrame(c, url: url, what: "HE-AAC v2", leadIn: 0.2)
    }

    @Test func anAlarmOnALiveHLSStationRingsItAndFallsBackWhenItsPlaylistStopsGrowing() async throws {
        let c = try DaemonTests.Clock()
        let hls = try await HLSLiveStation("ts", frequency: Int(Self.frequency))
        try await Self.ringsFromItsFirstFrame(c, url: hls.master, what: "HLS")
        // Once more, now frozen while it rings: what was fetched plays out, then after R16's 10 s of silence the tone.
        let again = try DaemonTests.Clock()
        try await again.run(["station", "add", "--name", "Test FM", "--url", hls.master])
        _ = try await again.addAlarm(["--source", "Test FM", "--fade-in", "0s", "--volume", "100"])
        let d = try await again.daemon(lead: 20)
        _ = try #require(await d.wait(for: "audible"))
        try await hls.control("freeze")
        let fallback = try #require(await d.wait(for: "fallback"))
        let detail = fallback["detail"] as? String ?? ""
        #expect(detail.hasPrefix("to=tone") && detail.contains("The station went silent for 10 s."), "\(fallback)")
        // The tone reaches the card a little after the fallback's event (the sink's buffer), at a card time that
        // depends on when this test froze the playlist, not on the clock: waited for, never assumed by a figure.
        let tone = await poll(EventProcess.watchdog, every: .milliseconds(250)) {
            Signal.firstHeard(880, over: Self.frequency, in: again.alarmPCM())
        }
        #expect(tone != nil, "the tone never reached the card")
        let longest = Signal.longestSilence(again.alarmPCM())
        #expect(longest <= 10.5, "the card was silent for \(longest) s")
        figure("daemon HLS frozen: the tone on the card at (s after the alarm)", seconds: tone ?? -1)
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }

    @Test func anEncryptedHLSStationIsRefusedByThePreCheckAndTheToneIsOnTime() async throws {
        let c = try DaemonTests.Clock()
        let hls = try await HLSLiveStation("aes", frequency: Int(Self.frequency))
        try await c.run(["station", "add", "--name", "Secret FM", "--url", hls.master])
        _ = try await c.addAlarm(["--source", "Secret FM"])
        let d = try await c.daemon(lead: 10)
        let failed = try #require(await d.wait(for: "precheck-failed"))
        #expect(
            (failed["detail"] as? String ?? "").contains(
                "The station encrypts its HLS segments (AES-128), which Aubade cannot play; pick another stream."),
            "\(failed)")
        let fallback = try #require(await d.wait(for: "fallback"))
        #expect((fallback["detail"] as? String ?? "").hasPrefix("to=tone"))
        #expect(try DaemonTests.position(d, "precheck-failed") < DaemonTests.position(d, "ringing"))
        #expect(await c.waitForAlarmAudio(seconds: 0.5))
        let first = Signal.windows(c.alarmPCM()).first?.samples ?? []
        #expect(Signal.isTone(880, over: Self.frequency, in: first))
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }

    @Test func doctorTriesEachFormatAsTheAlarmWouldAndNamesWhatCannotPlay() async throws {
        let c = try DaemonTests.Clock()
        let (server, aac) = try await Self.station(c, .aac, rate: 48_000, channels: 1)
        let hls = try await HLSLiveStation("aes", frequency: Int(Self.frequency))
        defer { withExtendedLifetime(server) {} }
        try await c.run(["station", "add", "--name", "AAC FM", "--url", aac])
        try await c.run(["station", "add", "--name", "Secret FM", "--url", hls.master])
        _ = try await c.addAlarm(["--source", "AAC FM"])
        let secret = try await c.run([
            "alarm", "add", "--name", "Late", "--time", "09:00", "--days", "daily", "--source", "Secret FM",
        ])
        #expect(secret.status == 0, "\(secret.stderr)")
        let r = try await c.run(["doctor", "--json"])
        let list = try #require(try c.cli.json(r.stdout)["checks"] as? [[String: String]])
        let checks = Dictionary(list.compactMap { x in x["check"].map { ($0, x) } }) { a, _ in a }
        #expect(checks["station:AAC FM"]?["status"] == "ok", "\(String(describing: checks["station:AAC FM"]))")
        #expect(checks["station:Secret FM"]?["status"] == "warning")
        #expect(
            checks["station:Secret FM"]?["message"]?.contains("encrypts its HLS segments (AES-128)") == true,
            "\(String(describing: checks["station:Secret FM"]))")
    }

    @Test func aPodcastEpisodeInM4ARings() async throws {
        let c = try DaemonTests.Clock()
        let feeds = try await PodcastAlarmTests.Feeds(c)
        let m4a = try await TestMedia.sine(.m4a, frequency: Int(Self.frequency), seconds: 6, in: c.dir)
        try feeds.copy(m4a, as: "wed.m4a")
        try feeds.write(
            PodcastAlarmTests.feed([("Wednesday", 25, "wed.m4a")], base: feeds.base).replacingOccurrences(
                of: "audio/mpeg", with: "audio/x-m4a"), as: "news.xml")
        #expect(try await c.run(["podcast", "add", feeds.base + "/news.xml", "--name", "News"]).status == 0)
        _ = try await c.addAlarm(["--source", "podcast:News", "--fade-in", "0s", "--volume", "100"])
        let d = try await c.daemon(lead: 30)
        _ = try #require(await d.wait(for: "precheck-passed"), "\(d.output)")
        let audible = try #require(await d.wait(for: "audible"))
        #expect((audible["detail"] as? String ?? "").contains("source=episode"), "\(audible)")
        #expect(await c.waitForAlarmAudio(seconds: 2))
        let first = Signal.windows(c.alarmPCM()).first?.samples ?? []
        #expect(Self.isTheNote(first), "the episode from the alarm's first frame")
        let ended = try #require(await d.wait(for: "fallback"))
        #expect((ended["detail"] as? String ?? "").contains("The episode ended."), "\(ended)")
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }
}
