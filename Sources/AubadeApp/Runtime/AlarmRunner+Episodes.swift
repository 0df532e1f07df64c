public import AubadeCore
import AubadeSystemAsync
import Foundation

/// What the check of a `podcast:` alarm found: the feed as read again (the pre-check reads it, so that the newest
/// episode is today's), the episode downloaded — which the alarm then plays, a local file — or why there is none.
public struct EpisodeCheck: Sendable {
    public var podcast: String
    public var feed: PodcastFeed?
    public var audio: EpisodeAudio?
    public var failure: String?

    public init(podcast: String, feed: PodcastFeed? = nil, audio: EpisodeAudio? = nil, failure: String? = nil) {
        self.podcast = podcast
        self.feed = feed
        self.audio = audio
        self.failure = failure
    }
}

extension AlarmRunner {
    /// How long before an occurrence its episode must be on disk: the pre-roll's lead and a little more. A download
    /// still running then is given up, and the alarm starts on the tone.
    static let downloadMargin: TimeInterval = 20

    /// Checks a `podcast:` alarm's episode as a background job: at the pre-check its feed is read again (a feed that
    /// fails leaves the episodes read before); the chosen episode is downloaded unless it is already (Wi-Fi-only
    /// refuses the download as it refuses streams), before `downloadMargin` ahead of the alarm; then a second of the
    /// file is decoded. The look-ahead, hours before, downloads the episode known then, so that most mornings the
    /// pre-check finds it on disk.
    func checkEpisode(_ choice: PodcastChoice, id: Int64, occurrence: Date, as check: StationCheck) {
        let report = episodeChecked
        guard let podcast = catalogue.podcast(named: choice.name) else {
            let failure = "The alarm's podcast \(choice.name) is no longer followed."
            effects.append(.job { await report(check, id, occurrence, EpisodeCheck(podcast: choice.name, failure: failure)) })
            return
        }
        guard let fetcher = deps.podcasts else {
            let failure = "This clock keeps no downloaded episodes (\(deps.store.readOnlyReason ?? "it runs without a cache"))."
            effects.append(.job { await report(check, id, occurrence, EpisodeCheck(podcast: podcast.name, failure: failure)) })
            return
        }
        let refusal: String? =
            switch NetworkPolicy.streaming(wifiOnly: catalogue.settings.isWifi, network: deps.network.current()) {
            case .refuse(let reason): reason
            default: nil
            }
        let keeping = episodesNeeded()
        let deadline = occurrence.addingTimeInterval(-AlarmRunner.downloadMargin)
        let (precheck, device) = (deps.precheck, deps.sound.device)
        let readFeed = check == .precheck && refusal == nil
        effects.append(
            .job {
                var result = EpisodeCheck(podcast: podcast.name)
                var feedProblem: String?
                if readFeed {
                    do throws(PodcastFetchError) {
                        result.feed = try await runBlocking("aubade-podcast") { () throws(PodcastFetchError) in
                            try fetcher.feed(at: podcast.feed)
                        }
                    } catch { feedProblem = error.message }
                }
                let episodes = result.feed.map { PodcastEpisode.newestFirst($0.episodes) } ?? podcast.episodes
                guard let episode = choice.pick(episodes) else {
                    result.failure =
                        feedProblem ?? "Podcast \(podcast.name) has no episode #\(choice.episode) with audio."
                    return await report(check, id, occurrence, result)
                }
                let file: String
                do throws(PodcastFetchError) {
                    file = try await runBlocking("aubade-podcast") { () throws(PodcastFetchError) -> String in
                        if let done = fetcher.cachedFile(of: episode) { return done }
                        if let refusal { throw PodcastFetchError("The episode is not downloaded: \(refusal)") }
                        return try fetcher.download(episode, deadline: deadline, keeping: keeping)
                    }
                } catch {
                    result.failure = error.message
                    return await report(check, id, occurrence, result)
                }
                let audio = EpisodeAudio(origin: .file(path: file), title: episode.title)
                let checked = await precheck.check(episode: audio, device: device)
                if let problem = checked.failure {
                    result.failure = problem
                } else {
                    result.audio = audio
                }
                await report(check, id, occurrence, result)
            })
    }

    /// The episodes the enabled `podcast:` alarms would play now: the cache never trims them away.
    private func episodesNeeded() -> [PodcastEpisode] {
        scheduler.alarms.values.compactMap { alarm in
            guard alarm.enabled, case .podcast(let choice) = alarm.sound else { return nil }
            return catalogue.podcast(named: choice.name).flatMap { choice.pick($0.episodes) }
        }
    }
}
