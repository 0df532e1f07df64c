import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadePodcasts
import AubadeStore
import AubadeTesting
import Foundation
import Testing

/// The evening-before look-ahead of a `podcast:` alarm, by the running clock over its SQLite file with the daemon's
/// own `PodcastLibrary` (curl, the episodes' folder beside the database) and a feed server on 127.0.0.1
/// (Tests/Fixtures/feed_server.py); the clock's time is the rig's, so the hours between two turns pass at once.
@Suite("Podcasts: the look-ahead and an episode over the size cap", .serialized)
struct EpisodeLookaheadTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/feed_server.py").path

    /// An episode whose server announces 2 GiB (the cap is 512 MiB) is refused at the answer's head by the first
    /// look-ahead turn, with nothing written, and is not asked for again by the next turn an hour later; the
    /// warning says why the alarm will start on the tone. (Before, each turn downloaded 512 MiB and threw it away.)
    @Test func anEpisodeAnnouncedOverTheCapIsAskedForOnceAcrossLookaheadTurns() async throws {
        let folder = try TemporaryDirectory("feeds")
        try Data(repeating: 7, count: 200_000).write(to: URL(fileURLWithPath: folder.file("big.mp3")))
        let server = try await BackgroundProcess("/usr/bin/python3", [Self.script, folder.path, folder.file("log")])
        let base = "http://127.0.0.1:\(server.firstLine)"
        let audio = "\(base)/big.mp3?length=2147483648"
        let episode = PodcastEpisode(id: "huge", title: "Huge", published: nil, audio: audio)
        let rig = try SQLiteRig(start: ClockRig.at(18, 0, day: -1), podcasts: true) { store in
            let feed = try StreamURL(parsing: "\(base)/news.xml")
            let podcast = try Podcast(
                name: "News", feed: feed, title: "News", episodes: [episode], refreshedAt: ClockRig.at(18, 0, day: -1))
            _ = try store.apply(.addPodcast(podcast), zone: .gmt, now: ClockRig.at(18, 0, day: -1))
            _ = try store.apply(
                .addAlarm(AlarmPatch(name: "Wake", time: "07:00", days: "daily", source: "podcast:News")), zone: .gmt,
                now: ClockRig.at(18, 0, day: -1))
        }
        await rig.start()
        let episodes = rig.dir.file("aubade.sqlite.episodes")

        // 19:00, twelve hours before: the first turn asks once and is refused at the head.
        await rig.base.run(until: ClockRig.at(19, 0, 30, day: -1))
        #expect(rig.jobs.count == 1)
        await rig.jobs.runAll()
        let refusal =
            "Alarm Wake at 07:00: The episode is not downloaded: \(audio) announces 2 GiB, more than the 512 MiB this clock takes for an episode. It is not tried again until its feed changes it. Unless that changes, it will start on the tone."
        let warned = try await warnings(rig)
        #expect(warned.contains(refusal), "\(warned)")
        #expect(try requests(folder) == 1)
        #expect(!FileManager.default.fileExists(atPath: episodes), "not a byte written")

        // 20:01, the next turn: the refusal is remembered; nothing is asked for, nothing written.
        await rig.base.run(until: ClockRig.at(20, 1, day: -1))
        #expect(rig.jobs.count == 1)
        await rig.jobs.runAll()
        #expect(try await warnings(rig).contains(refusal))
        #expect(try requests(folder) == 1)
        #expect(!FileManager.default.fileExists(atPath: episodes))
        withExtendedLifetime(server) {}
    }

    func warnings(_ rig: SQLiteRig) async throws -> [String] {
        guard case .status(let status) = try await rig.clock.handle(.status) else { return [] }
        return status.warnings
    }

    /// The requests the feed server logged for the episode.
    func requests(_ folder: TemporaryDirectory) throws -> Int {
        let log = (try? String(contentsOfFile: folder.file("log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0.hasPrefix("/big.mp3") }.count
    }
}
