public import AubadeCore
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
    func checkEpisode(_ choice: PodcastChoice, id: Int64, occurrence: Date, as check: StationCheck, _ c: inout ClockContext) {
        let now = c.now.wall
        var request = EpisodeCheckRequest(
            check: check, alarm: id, occurrence: occurrence, choice: choice, podcast: c.catalogue.podcast(named: choice.name),
            keeping: [], within: .seconds(1), readFeed: false, feedTime: .seconds(1), device: c.world.device)
        if request.podcast == nil {
            request.failure = "The alarm's podcast \(choice.name) is no longer followed."
        } else if !c.caps.podcasts {
            request.failure = "This clock keeps no downloaded episodes (\(c.caps.readOnlyReason ?? "it runs without a cache"))."
        } else {
            if case .refuse(let reason) = NetworkPolicy.streaming(wifiOnly: c.catalogue.settings.isWifi, network: c.world.network)
            {
                request.refusal = reason
            }
            request.keeping = episodesNeeded(c.catalogue)
            // The time the download may take, on the clock's own time (a look-ahead's ends before the pre-check starts).
            let end = occurrence.addingTimeInterval(-(check == .precheck ? AlarmRunner.downloadMargin : AlarmRunner.precheckLead))
            request.within = .seconds(max(1, Int(end.timeIntervalSince(now))))
            let timeLeft = occurrence.timeIntervalSince(now)
            request.readFeed = check == .precheck && request.refusal == nil && timeLeft > AlarmRunner.feedReadLead
            request.feedTime = .seconds(max(1, min(30, Int((timeLeft - AlarmRunner.downloadMargin) / 3))))
        }
        c.effects.append(.check(.episode(request)))
    }

    /// The episodes the enabled `podcast:` alarms would play now: the cache never trims them away.
    private func episodesNeeded(_ catalogue: Catalogue) -> [PodcastEpisode] {
        scheduler.alarms.values.compactMap { alarm in
            guard alarm.enabled, case .podcast(let choice) = alarm.sound else { return nil }
            return catalogue.podcast(named: choice.name).flatMap { choice.pick($0.episodes) }
        }
    }
}
