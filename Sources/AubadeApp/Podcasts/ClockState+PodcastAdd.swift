import AubadeCore
import Foundation

extension ClockState {
    /// Follows the podcast whose feed is at `feed` (`POST /podcasts`): the feed downloaded and read off the clock's
    /// thread (`deps.podcasts`), then saved as `podcast add` saves it (`Store.apply`). Wi-Fi-only refuses the
    /// download, as it refuses streams and calendars.
    mutating func addPodcast(feed: StreamURL, name: String?, reply: ClockTicket) throws(ClockError) {
        if let name {
            // Refused before the download; the API has checked the name's form, so what is left is a reserved name.
            do throws(ValidationError) { _ = try Podcast.validName(name) } catch {
                throw ClockError(.unprocessable, error.message)
            }
        }
        guard context.caps.podcasts else {
            throw context.caps.noPodcasts
        }
        if let refusal = downloadRefusal() { throw ClockError(.refused, "The feed is not downloaded: \(refusal)") }
        handOff(.readFeed(feed), then: .feed(reply: reply, .adding(feed: feed, name: name)))
    }

    /// A feed came back read (or not): a new podcast is saved through the edit path; a refreshed one's episodes
    /// too.
    mutating func feedRead(_ result: Result<PodcastFeed, ClockError>, _ step: FeedStep, reply: ClockTicket, _ now: SchedulerTime)
    {
        switch (step, result) {
        case (.adding, .failure(let error)):
            respond(to: reply, failure: error)
        case (.adding(let feed, let name), .success(let read)):
            let podcast: Podcast
            do throws(ValidationError) {
                podcast = try Podcast(
                    name: name ?? Podcast.name(fromTitle: read.title), feed: feed, title: read.title,
                    episodes: read.episodes, refreshedAt: now.wall)
            } catch {
                return respond(to: reply, failure: ClockError(.unprocessable, "\(error.message) Give it a name."))
            }
            edit(.addPodcast(podcast), reply: reply, then: .answer)
        case (.refreshing(let podcast), .failure(let error)):
            podcastRefreshed(podcast, .failure(ClockError(.failed, error.message)), reply: reply)
        case (.refreshing(let podcast), .success(let feed)):
            edit(.refreshPodcast(name: podcast.name, feed, at: now.wall), reply: reply, then: .podcastRefreshed(podcast))
        }
    }
}
