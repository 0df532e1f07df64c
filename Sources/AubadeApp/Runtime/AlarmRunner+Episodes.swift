public import AubadeCore
import AubadeSystemAsync
import Foundation

/// What the check of a `podcast:` alarm found: the feed as read again (the pre-check reads it, so that the newest
/// episode is today's), the episode downloaded — which the alarm then plays, a local file — or why there is none.
public struct EpisodeCheck: Sendable {
    /// The alarm's sound the check was made for.
    public var source: SoundSource
    public var podcast: String
    public var feed: PodcastFeed?
    public var audio: EpisodeAudio?
    public var failure: String?

    public init(
        source: SoundSource, podcast: String, feed: PodcastFeed? = nil, audio: EpisodeAudio? = nil, failure: String? = nil
    ) {
        self.source = source
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
    /// The pre-check reads the feed again only when at least this much time is left (a clock started seconds
    /// before its alarm goes straight to the episode it knows), and for at most a third of what is left before the
    /// download must be done (never more than 30 s): the rest is the download's.
    static let feedReadLead: TimeInterval = 30

    /// Checks a `podcast:` alarm's episode as a background job. At the pre-check the feed is read again (a feed that
    /// fails leaves the episodes read before) and its newest choice is downloaded unless it is already (Wi-Fi-only
    /// refuses the download as it refuses streams), before `downloadMargin` ahead of the alarm; when that fails, the
    /// episode chosen from what was read before plays if it is on disk (an older episode beats the tone). A second of
    /// the file is then decoded. The look-ahead, hours before, downloads the episode known then — done before the
    /// pre-check starts — so that most mornings the pre-check finds it on disk. A sound device that is not open
    /// fails the check (the alarm starts on the tone) but keeps the episode, which takes over once it is heard.
    func checkEpisode(_ choice: PodcastChoice, id: Int64, occurrence: Date, as check: StationCheck) {
        let report = episodeChecked
        let source = SoundSource.podcast(choice)
        guard let podcast = catalogue.podcast(named: choice.name) else {
            let result = EpisodeCheck(
                source: source, podcast: choice.name, failure: "The alarm's podcast \(choice.name) is no longer followed.")
            effects.append(.job { await report(check, id, occurrence, result) })
            return
        }
        guard let fetcher = deps.podcasts else {
            let result = EpisodeCheck(
                source: source, podcast: podcast.name,
                failure: "This clock keeps no downloaded episodes (\(deps.store.readOnlyReason ?? "it runs without a cache")).")
            effects.append(.job { await report(check, id, occurrence, result) })
            return
        }
        var refused: String?
        if case .refuse(let reason) = NetworkPolicy.streaming(
            wifiOnly: catalogue.settings.isWifi, network: deps.network.current())
        {
            refused = reason
        }
        let refusal = refused
        let keeping = episodesNeeded()
        // The time the download may take, on the clock's own time (a look-ahead's ends before the pre-check starts).
        let now = deps.time.now().wall
        let end = occurrence.addingTimeInterval(-(check == .precheck ? AlarmRunner.downloadMargin : AlarmRunner.precheckLead))
        let seconds: Int = max(1, Int(end.timeIntervalSince(now)))
        let within = Duration.seconds(seconds)
        let (precheck, device) = (deps.precheck, deps.sound.device)
        let timeLeft: TimeInterval = occurrence.timeIntervalSince(now)
        let readFeed: Bool = check == .precheck && refusal == nil && timeLeft > AlarmRunner.feedReadLead
        let feedTime = Duration.seconds(max(1, min(30, Int((timeLeft - AlarmRunner.downloadMargin) / 3))))
        let known = choice.pick(podcast.episodes)
        effects.append(
            .job {
                let started = ContinuousClock.now
                var result = EpisodeCheck(source: source, podcast: podcast.name)
                var problem: String?
                if readFeed {
                    do throws(PodcastFetchError) {
                        result.feed = try await runBlocking("aubade-podcast") { () throws(PodcastFetchError) in
                            try fetcher.feed(at: podcast.feed, within: feedTime)
                        }
                    } catch { problem = error.message }
                }
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
                    return await report(check, id, occurrence, result)
                }
                let audio = EpisodeAudio(origin: .file(path: file.path), title: file.episode.title)
                let checked = await precheck.check(episode: audio, device: device)
                // An episode that does not decode is not played; a device that is not open yet is the alarm's
                // problem, not the episode's: it is kept.
                if checked.stationProblem == nil { result.audio = audio }
                result.failure = checked.failure
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
