import AubadeCore
import AubadeSystemAsync
import Foundation
import Logging

/// A background check the clock asks for (`ClockEffect.check`), as data: what to check and how; `ClockChecks`
/// carries it out and its result comes back as an input.
enum ClockCheck: Sendable {
    case station(StationCheckRequest)
    case episode(EpisodeCheckRequest)
}

/// A station alarm's check: its failure known already (Wi-Fi-only refusing the stream) without connecting, else
/// the pre-alarm check's (reachable, decodes).
struct StationCheckRequest: Sendable {
    var check: StationCheck
    var alarm: Int64
    var occurrence: Date
    var source: SoundSource
    var stations: [StreamURL]
    var known: String?
    var allowLoopback: Bool
    var device: DeviceStatus
}

/// A `podcast:` alarm's check (`AlarmRunner.checkEpisode` decides what it is).
struct EpisodeCheckRequest: Sendable {
    var check: StationCheck
    var alarm: Int64
    var occurrence: Date
    var choice: PodcastChoice
    var podcast: Podcast?
    /// Why the check fails before it starts (the podcast is gone, no cache), if so.
    var failure: String?
    /// Why a download may not happen (Wi-Fi-only), if so.
    var refusal: String?
    /// The episodes the cache must keep.
    var keeping: [PodcastEpisode]
    /// How long the download may take.
    var within: Duration
    /// Whether the feed is read again first, and for how long at most.
    var readFeed: Bool
    var feedTime: Duration
    var device: DeviceStatus
}

/// Carries out the clock's background checks and the directory's clicks, with the ports they need; never on the
/// clock's thread (each is a job of `BackgroundJobs`).
struct ClockChecks: Sendable {
    let precheck: any PrecheckPort
    let podcasts: (any PodcastFetcher)?
    let directory: (any StationDirectory)?
    let logger: Logger

    /// Runs `check` and returns the input that reports it.
    func run(_ check: ClockCheck) async -> ClockInput {
        switch check {
        case .station(let r):
            var failure = r.known
            if failure == nil {
                failure = await precheck.check(stations: r.stations, allowLoopback: r.allowLoopback, device: r.device).failure
            }
            return .stationChecked(r.check, alarm: r.alarm, occurrence: r.occurrence, sound: r.source, failure: failure)
        case .episode(let r):
            return .episodeChecked(r.check, alarm: r.alarm, occurrence: r.occurrence, await episode(r))
        }
    }

    /// At the pre-check the feed is read again (a feed that fails leaves the episodes read before) and its newest
    /// choice is downloaded unless it is already (Wi-Fi-only refuses the download as it refuses streams); when that
    /// fails, the episode chosen from what was read before plays if it is on disk (an older episode beats the tone).
    /// A second of the file is then decoded.
    private func episode(_ r: EpisodeCheckRequest) async -> EpisodeCheck {
        let source = SoundSource.podcast(r.choice)
        var result = EpisodeCheck(source: source, podcast: r.podcast?.name ?? r.choice.name)
        guard let podcast = r.podcast, let fetcher = podcasts, r.failure == nil else {
            result.failure = r.failure
            return result
        }
        let (choice, refusal, within, keeping) = (r.choice, r.refusal, r.within, r.keeping)
        let started = ContinuousClock.now
        var problem: String?
        if r.readFeed {
            let feedTime = r.feedTime
            do throws(PodcastFetchError) {
                result.feed = try await runBlocking("aubade-podcast") { () throws(PodcastFetchError) in
                    try fetcher.feed(at: podcast.feed, within: feedTime)
                }
            } catch { problem = error.message }
        }
        let known = choice.pick(podcast.episodes)
        var newest: PodcastEpisode? = known
        if let feed = result.feed { newest = choice.pick(PodcastEpisode.newestFirst(feed.episodes)) }
        var file: (episode: PodcastEpisode, path: String)?
        if let episode = newest {
            do throws(PodcastFetchError) {
                let path = try await runBlocking("aubade-podcast") { () throws(PodcastFetchError) -> String in
                    if let done = fetcher.cachedFile(of: episode) { return done }
                    if let refusal { throw PodcastFetchError("The episode is not downloaded: \(refusal)") }
                    let left = within - (ContinuousClock.now - started)
                    return try fetcher.download(episode, within: max(.seconds(1), left), keeping: keeping)
                }
                file = (episode, path)
            } catch { problem = error.message }
        } else {
            problem = problem ?? "Podcast \(podcast.name) has no episode #\(choice.episode) with audio."
        }
        if file == nil, let known, known != newest {
            let path: String? = await runBlocking("aubade-podcast") { () -> String? in fetcher.cachedFile(of: known) }
            if let path { file = (known, path) }  // the episode known before, downloaded before: better than the tone
        }
        guard let file else {
            result.failure = problem
            return result
        }
        let audio = EpisodeAudio(origin: .file(path: file.path), title: file.episode.title)
        let checked = await precheck.check(episode: audio, device: r.device)
        // An episode that does not decode is not played; a device that is not open yet is the alarm's problem, not
        // the episode's: it is kept.
        if checked.stationProblem == nil { result.audio = audio }
        result.failure = checked.failure
        return result
    }

    /// Counts the directory's click for station `id`; a failure is only logged.
    func countClick(_ id: String) async {
        guard let directory else { return }
        do throws(DirectoryError) {
            try await runBlocking("aubade-directory") { () throws(DirectoryError) in try directory.countClick(id: id) }
        } catch {
            logger.info("the directory's click for \(id) was not counted: \(error.message)")
        }
    }
}
