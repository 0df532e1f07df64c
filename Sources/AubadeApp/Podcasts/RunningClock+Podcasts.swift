import AubadeCore
import AubadeSystemAsync
import Foundation

extension RunningClock {
    /// A `podcast:` alarm's check finished: the result goes where a station check's goes — the pre-check's into the
    /// alarm's plan (first: nothing the store does may hold it back), the look-ahead's into its warning — then the
    /// feed it read again is stored through the one edit path (a feed that could not be stored changes nothing the
    /// alarm needs: it plays the file downloaded).
    func episodeChecked(_ check: StationCheck, id: Int64, occurrence: Date, _ result: EpisodeCheck) async {
        let now = deps.time.now()
        switch check {
        case .precheck:
            runner.precheckDone(
                id: id, occurrence: occurrence, source: result.source, failure: result.failure, episode: result.audio, now)
        case .lookahead:
            runner.lookaheadDone(id: id, occurrence: occurrence, failure: result.failure, now)
        }
        guard let feed = result.feed, catalogue.podcast(named: result.podcast) != nil else { return }
        do throws(ClockError) {
            _ = try await apply(.refreshPodcast(name: result.podcast, feed, at: deps.time.now().wall), deps.time.now())
            board.set("podcast-\(result.podcast)", nil)
        } catch {
            board.set(
                "podcast-\(result.podcast)", "The feed of podcast \(result.podcast) was read but not stored: \(error.message)")
        }
    }
}

extension RunningClock {
    /// Reads again the feeds that are due, one after the other (`RefreshService.podcasts` calls it), and says when to look
    /// again. A feed is due `podcastRefresh` after it was last read or tried. A failure — the network, Wi-Fi-only,
    /// a feed that became invalid — is a standing warning, and the episodes read before stay.
    func refreshPodcasts() async -> Duration {
        let plan = PodcastRefreshPlan(every: options.podcastRefresh)
        guard let fetcher = deps.podcasts else { return plan.longest }
        for podcast in plan.due(catalogue.podcasts, attempts: podcastAttempts, at: deps.time.now().wall) {
            podcastAttempts[podcast.name] = deps.time.now().wall
            let key = "podcast-\(podcast.name)"
            do throws(ClockError) {
                if let refusal = downloadRefusal() { throw ClockError(.refused, refusal) }
                let feed = try await runBlocking("aubade-podcast") { () throws(ClockError) -> PodcastFeed in
                    do throws(PodcastFetchError) { return try fetcher.feed(at: podcast.feed, within: .seconds(60)) } catch {
                        throw ClockError(.failed, error.message)
                    }
                }
                _ = try await apply(.refreshPodcast(name: podcast.name, feed, at: deps.time.now().wall), deps.time.now())
                board.set(key, nil)
            } catch {
                let since = podcast.refreshedAt.formatted(.iso8601)
                board.set(
                    key, "The feed of podcast \(podcast.name) was not read: \(error.message) The episodes read on \(since) stay.")
                effects.emit("podcast", ["podcast": podcast.name, "error": error.message])
            }
        }
        return plan.wait(catalogue.podcasts, attempts: podcastAttempts, after: deps.time.now().wall)
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
