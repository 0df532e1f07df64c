import AubadeTesting
import Foundation
import GRDB
import Testing

/// `podcast:` sounds end to end: the real daemon (`DaemonTests.Clock`: a temp database, the ALSA `file` plugin as
/// its card, `--fake-time`), feeds and episodes made by sox and lame at test time on a local server
/// (Tests/Fixtures/feed_server.py, which logs every request).
@Suite("Podcast alarms and listening", .serialized)
struct PodcastAlarmTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/feed_server.py").path

    /// A feed of `items` (newest last is fine: the clock orders them by date), enclosures on `base`.
    static func feed(_ items: [(title: String, day: Int, path: String)], base: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Morning News</title>
        \(items.map { "<item><title>\($0.title)</title><guid>\($0.title)</guid><pubDate>\(String(format: "%02d", $0.day)) Nov 2026 06:00:00 GMT</pubDate><enclosure url=\"\(base)/\($0.path)\" type=\"audio/mpeg\"/></item>" }.joined(separator: "\n"))
        </channel></rss>
        """
    }

    /// A feed server over `folder`, logging to `log`.
    struct Feeds {
        let folder: TemporaryDirectory
        let log: String
        let server: BackgroundProcess
        var base: String { "http://127.0.0.1:\(server.firstLine)" }

        init(_ c: DaemonTests.Clock) async throws {
            folder = try TemporaryDirectory("feeds")
            log = c.dir.file("requests.log")
            server = try await BackgroundProcess("/usr/bin/python3", [PodcastAlarmTests.script, folder.path, log])
        }

        func write(_ text: String, as name: String) throws {
            try text.write(toFile: folder.file(name), atomically: true, encoding: .utf8)
        }

        func copy(_ path: String, as name: String) throws {
            try FileManager.default.copyItem(atPath: path, toPath: folder.file(name))
        }

        /// The requests so far: path, User-Agent, Range.
        var requests: [(path: String, agent: String, range: String)] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map { line in
                let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return (f[0], f.count > 1 ? f[1] : "", f.count > 2 ? f[2] : "")
            }
        }

        /// The server goes away (as a podcast host does), for good.
        func stop() { kill(server.pid, SIGKILL) }
    }

    @Test func anAlarmRingsTheNewestEpisodeFromItsDownloadWithTheFeedGone() async throws {
        let c = try DaemonTests.Clock()
        let feeds = try await Feeds(c)
        try feeds.copy(try await TestMedia.sineMP3(frequency: 660, seconds: 6, in: c.dir), as: "tue.mp3")
        try feeds.copy(try await TestMedia.partsMP3([(440, 6)], name: "wed", in: c.dir), as: "wed.mp3")
        try feeds.write(Self.feed([("Tuesday", 24, "tue.mp3")], base: feeds.base), as: "news.xml")
        let added = try await c.run(["podcast", "add", feeds.base + "/news.xml", "--name", "News"])
        #expect(added.status == 0, "\(added.stderr)")
        _ = try await c.addAlarm(["--source", "podcast:News", "--fade-in", "0s", "--volume", "100"])
        // Wednesday's episode is published after the podcast was read; it sits behind three redirects.
        try feeds.write(
            Self.feed([("Tuesday", 24, "tue.mp3"), ("Wednesday", 25, "redirect/3/wed.mp3")], base: feeds.base),
            as: "news.xml")

        let d = try await c.daemon(lead: 60)  // inside the pre-check window, time to read the feed again
        let check = try #require(await d.wait(for: "precheck-passed"))
        #expect(check["alarm"] as? Int == 1)
        // The pre-check read the feed again and downloaded the newest episode, following the redirects, as aubade.
        let asked = feeds.requests
        #expect(asked.contains { $0.path == "/wed.mp3" && $0.agent.hasPrefix("aubade/") }, "\(asked)")
        #expect(!asked.contains { $0.path.hasSuffix("tue.mp3") }, "\(asked)")
        feeds.stop()

        let ringing = try #require(await d.wait(for: "ringing"))
        #expect((ringing["source"] as? String ?? "").hasPrefix("podcast:News (Wednesday)"), "\(ringing)")
        let audible = try #require(await d.wait(for: "audible"))
        #expect((audible["detail"] as? String ?? "").contains("source=episode"), "\(audible)")
        #expect(try DaemonTests.position(d, "precheck-passed") < DaemonTests.position(d, "ringing"))
        // From the file on disk: the episode from the alarm's first frame, nothing of the tone before it.
        #expect(await c.waitForAlarmAudio(seconds: 0.5))
        let first = Signal.windows(c.alarmPCM()).first?.samples ?? []
        #expect(Signal.isTone(440, over: 880, in: first) && Signal.isTone(440, over: 660, in: first))
        // The episode is 6 s long: when it ends, the tone follows at once and rings until the alarm is stopped.
        let ended = try #require(await d.wait(for: "fallback"))
        #expect((ended["detail"] as? String ?? "").contains("The episode ended."), "\(ended)")
        #expect((ended["detail"] as? String ?? "").hasPrefix("to=tone"))
        #expect(await c.waitForAlarmAudio(seconds: 9))
        let pcm = c.alarmPCM()
        let late = Array(pcm[min(pcm.count, 8 * 2 * Signal.rate)..<min(pcm.count, 9 * 2 * Signal.rate)])
        #expect(Signal.isTone(880, over: 440, in: late[...]), "the card 8–9 s after the alarm: \(Signal.rmsDBFS(late[...])) dBFS")
        #expect(feeds.requests.count == asked.count)  // nothing was fetched while it rang
        d.signal(SIGTERM)
        _ = await d.waitForExit()
        // The feed read at the pre-check was stored: Wednesday is the newest episode now.
        let list = try c.cli.json(try await c.run(["podcast", "episodes", "News", "--json", "--limit", "1"]).stdout)
        #expect((list["episodes"] as? [[String: Any]])?.first?["title"] as? String == "Wednesday")
    }

    @Test func anAlarmWhoseFeedIsDeadFromTheStartRingsTheTone() async throws {
        let c = try DaemonTests.Clock()
        let feeds = try await Feeds(c)
        try feeds.copy(try await TestMedia.sineMP3(frequency: 440, seconds: 3, in: c.dir), as: "tue.mp3")
        try feeds.write(Self.feed([("Tuesday", 24, "tue.mp3")], base: feeds.base), as: "news.xml")
        #expect(try await c.run(["podcast", "add", feeds.base + "/news.xml", "--name", "News"]).status == 0)
        _ = try await c.addAlarm(["--source", "podcast:News"])
        feeds.stop()  // before the clock ever downloads the episode

        let d = try await c.daemon(lead: 10)
        let failed = try #require(await d.wait(for: "precheck-failed"))
        #expect((failed["detail"] as? String ?? "").contains("could not be downloaded"), "\(failed)")
        let fallback = try #require(await d.wait(for: "fallback"))
        #expect((fallback["detail"] as? String ?? "").hasPrefix("to=tone"))
        let audible = try #require(await d.wait(for: "audible"))
        #expect((audible["detail"] as? String ?? "").contains("source=tone"))
        #expect(try DaemonTests.position(d, "precheck-failed") < DaemonTests.position(d, "ringing"))
        #expect(await c.waitForAlarmAudio(seconds: 0.5))
        let first = Signal.windows(c.alarmPCM()).first?.samples ?? []
        #expect(Signal.isTone(880, over: 440, in: first) && Signal.rmsDBFS(first) > -20)
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }

    @Test func theSleepTimerRemembersWhereTheEpisodeStoppedAndTheNextListeningGoesOnThere() async throws {
        let c = try DaemonTests.Clock()
        let feeds = try await Feeds(c)
        // 10 s at 440 Hz, then 30 s at 660 Hz: where listening goes on is heard.
        try feeds.copy(try await TestMedia.partsMP3([(440, 10), (660, 30)], name: "talk", in: c.dir), as: "talk.mp3")
        try feeds.write(Self.feed([("Talk", 24, "talk.mp3")], base: feeds.base), as: "news.xml")
        #expect(try await c.run(["podcast", "add", feeds.base + "/news.xml", "--name", "News"]).status == 0)
        let d = try await c.daemon(lead: 3600)
        _ = try #require(await d.wait(for: "ready"))

        let sleep = try await c.run(["sleep", "30m", "--source", "podcast:News"])
        #expect(sleep.status == 0, "\(sleep.stderr)")
        #expect(await c.waitForCard(seconds: 13))  // into the 660-Hz part
        #expect(try await c.run(["sleep", "cancel"]).status == 0)
        let first = try #require(try await waitForPosition(c) { $0 > 0 })
        // At 128 kbps a second is 16 000 bytes: the position is where the card had got to (past the 10-s mark,
        // not past what it played), give or take one decode step.
        #expect(first.byte > 10 * 16_000 && first.byte < Int64(c.cardFrames) * 16_000 / 44_100 + 32_768, "\(first)")
        #expect(first.episode == "Talk")

        // The next night: the same episode goes on from there (an HTTP range from the byte kept)…
        let mark = c.pcm().count
        let played = try await c.run(["play", "podcast:News", "--for", "4s"])
        #expect(played.status == 0, "\(played.stderr)")
        #expect(feeds.requests.last { $0.path == "/talk.mp3" }?.range == "bytes=\(first.byte)-", "\(feeds.requests)")
        // …and what it plays is the 660-Hz part, not the start of the episode.
        let again = Array(c.pcm()[mark...])
        let opening = Signal.windows(again).first { Signal.rmsDBFS($0.samples) > -30 }?.samples ?? []
        #expect(Signal.isTone(660, over: 440, in: opening), "\(Signal.rmsDBFS(opening)) dBFS")
        let second = try #require(try await waitForPosition(c) { $0 > first.byte })
        #expect(second.byte > first.byte)
        d.signal(SIGTERM)
        _ = await d.waitForExit()
    }

    /// The podcast's stored position once `accept` holds for it (it is written as the sound stops, through the
    /// clock's edit; polled: a database row has no event to await).
    private func waitForPosition(_ c: DaemonTests.Clock, _ accept: (Int64) -> Bool) async throws -> (
        episode: String, byte: Int64
    )? {
        try await poll(EventProcess.watchdog, every: .milliseconds(200)) { () -> (episode: String, byte: Int64)? in
            let q = try DatabaseQueue(path: c.cli.db)
            let row = try q.read { db in
                try Row.fetchOne(db, sql: "SELECT resumeEpisode, resumeByte FROM podcasts WHERE name = 'News'")
            }
            try q.close()
            if let row, let episode: String = row["resumeEpisode"], let byte: Int64 = row["resumeByte"], accept(byte) {
                return (episode, byte)
            }
            return nil
        }
    }
}
