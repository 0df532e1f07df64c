import AubadeCore
import Foundation

extension ClockState {
    /// A `podcast:` alarm's check finished: the result goes where a station check's goes — the pre-check's into the
    /// alarm's plan (first: nothing the store does may hold it back), the look-ahead's into its warning — then the
    /// feed it read again is stored through the one edit path (a feed that could not be stored changes nothing the
    /// alarm needs: it plays the file downloaded).
    mutating func episodeChecked(_ check: StationCheck, id: Int64, occurrence: Date, _ result: EpisodeCheck) {
        let now = self.now
        switch check {
        case .precheck:
            runner.precheckDone(
                id: id, occurrence: occurrence, source: result.source, failure: result.failure, episode: result.audio, now,
                &context)
        case .lookahead:
            runner.lookaheadDone(id: id, occurrence: occurrence, failure: result.failure, now, &context)
        }
        guard let feed = result.feed, context.catalogue.podcast(named: result.podcast) != nil else { return }
        edit(.refreshPodcast(name: result.podcast, feed, at: now.wall), reply: nil, then: .episodeFeed(name: result.podcast))
    }

    /// Starts reading again the feeds that are due, one after the other (`RefreshService.podcasts` sends the turn);
    /// the turn is answered with when to look again once they are done. A feed is due `podcastRefresh` after it was
    /// last read or tried. A failure — the network, Wi-Fi-only, a feed that became invalid — is a standing warning,
    /// and the episodes read before stay.
    mutating func refreshPodcasts(reply: ClockTicket) {
        let plan = PodcastRefreshPlan(every: context.options.podcastRefresh)
        guard context.caps.podcasts else { return respond(to: reply, .wait(plan.longest)) }
        let due = plan.due(context.catalogue.podcasts, attempts: podcastAttempts, at: now.wall)
        startRefresh(RefreshRun(kind: .podcasts, items: due.map { .podcast($0) }), reply: reply)
    }

    /// How long until the next feed is due.
    func podcastWait() -> Duration {
        PodcastRefreshPlan(every: context.options.podcastRefresh).wait(
            context.catalogue.podcasts, attempts: podcastAttempts, after: now.wall)
    }

    /// Reads one due feed again (Wi-Fi-only permitting).
    mutating func refreshPodcast(_ podcast: Podcast, reply: ClockTicket) {
        podcastAttempts[podcast.name] = now.wall
        if let refusal = downloadRefusal() {
            return podcastRefreshed(podcast, .failure(ClockError(.refused, refusal)), reply: reply)
        }
        handOff(.readFeed(podcast.feed), then: .feed(reply: reply, .refreshing(podcast)))
    }

    /// A refreshed feed is stored, or why not is a standing warning; then the next due feed.
    mutating func podcastRefreshed(_ podcast: Podcast, _ result: Result<Void, ClockError>, reply: ClockTicket) {
        let key = "podcast-\(podcast.name)"
        switch result {
        case .success:
            context.warn(key, nil)
        case .failure(let error):
            let since = podcast.refreshedAt.formatted(.iso8601)
            context.warn(
                key, "The feed of podcast \(podcast.name) was not read: \(error.message) The episodes read on \(since) stay.")
            context.effects.emit("podcast", ["podcast": podcast.name, "error": error.message])
        }
        refreshItemDone(reply)
    }
}

/// Which feeds are due to be read again, and when the next one is: pure, so the schedule is tested with chosen
/// instants.
struct PodcastRefreshPlan {
    let every: Duration
    let longest: Duration = .seconds(6 * 3600)

    init(every: Duration) { self.every = every }

    /// The podcasts due at `now`: read or tried `every` ago or longer.
    func due(_ podcasts: [Podcast], attempts: [String: Date], at now: Date) -> [Podcast] {
        podcasts.filter { now >= dueAt($0, attempts) }
    }

    /// How long until the next is due: at least a minute, at most six hours (the loop also notices a podcast added
    /// meanwhile).
    func wait(_ podcasts: [Podcast], attempts: [String: Date], after now: Date) -> Duration {
        let next = podcasts.map { dueAt($0, attempts) }.min() ?? .distantFuture
        let seconds = next.timeIntervalSince(now)
        return .seconds(Int(min(max(seconds, 60), longest.inSeconds).rounded(.up)))
    }

    private func dueAt(_ p: Podcast, _ attempts: [String: Date]) -> Date {
        max(p.refreshedAt, attempts[p.name] ?? .distantPast).addingTimeInterval(every.inSeconds)
    }
}
