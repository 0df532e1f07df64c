import AubadeCore
import AubadeSystemAsync
import Foundation

extension RunningClock {
    /// Follows the podcast whose feed is at `feed` (`POST /podcasts`): the feed downloaded and read off the clock's
    /// thread (`deps.podcasts`), then saved as `podcast add` saves it (`Store.apply`). Wi-Fi-only refuses the
    /// download, as it refuses streams and calendars.
    func addPodcast(feed: StreamURL, name: String?) async throws(ClockError) -> EditResult {
        if let name {
            // Refused before the download; the API has checked the name's form, so what is left is a reserved name.
            do throws(ValidationError) { _ = try Podcast.validName(name) } catch {
                throw ClockError(.unprocessable, error.message)
            }
        }
        guard let feeds = deps.podcasts else {
            throw ClockError(.failed, deps.store.readOnlyReason ?? "This clock reads no podcast feeds.")
        }
        if let refusal = downloadRefusal() { throw ClockError(.refused, "The feed is not downloaded: \(refusal)") }
        let read = try await runBlocking("aubade-feed") { () throws(ClockError) -> PodcastFeed in
            do throws(PodcastFetchError) { return try feeds.feed(at: feed, within: .seconds(60)) } catch {
                throw ClockError(.unavailable, error.message)
            }
        }
        let podcast: Podcast
        do throws(ValidationError) {
            podcast = try Podcast(
                name: name ?? Podcast.name(fromTitle: read.title), feed: feed, title: read.title,
                episodes: read.episodes, refreshedAt: deps.time.now().wall)
        } catch {
            throw ClockError(.unprocessable, "\(error.message) Give it a name.")
        }
        return try await apply(.addPodcast(podcast), deps.time.now())
    }
}
